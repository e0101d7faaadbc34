/**
 * Where a policy decision meets the run: --read-only, --allow, [a]lways grants, and the question
 * to the user. Returns either permission to go ahead or the ToolResult to hand the model.
 */
import { randomUUID } from 'node:crypto';
import type { PathKind, PolicySettings, ToolKind } from '../config/types.js';
import type { ToolContext, ToolResult } from '../tools/types.js';
import type { ApprovalDecision, Decision } from './types.js';
import { secretEnvNames } from '../secrets/secret-names.js';
import { writeAudit } from './audit-log.js';
import { escapeFileName, escapeForDisplay } from './escape.js';
import { decidePathWithFloor } from './path-policy.js';
import { realRulePath, type ResolvedPath } from './resolve-path.js';

export interface GateRequest {
  readonly kind: ToolKind;
  readonly tool: string;
  readonly decision: Decision;
  readonly path?: ResolvedPath;
  readonly command?: string;
  /** Raw unified diff; escaped here. */
  readonly diff?: string;
  /** One line for the prompt, unescaped: 'edit src/a.ts (+3 -1)'. */
  readonly summary: string;
}

/**
 * Go ahead, or the result to hand the model. Either way it says what it judged (the real path or
 * the escaped command) for the audit log's outcome line; it also notes it on the call's context.
 */
export type GateResult =
  | { readonly ok: true; readonly target?: string }
  | { readonly ok: false; readonly result: ToolResult; readonly target?: string };

/** Rules with their paths made real, like the path they are matched against. */
function withRealRules(settings: PolicySettings, root: string): PolicySettings {
  return { ...settings, rules: settings.rules.map((rule) => ({ ...rule, path: realRulePath(rule.path, root) })) };
}

export function decideForPath(ctx: ToolContext, kind: PathKind, resolved: ResolvedPath): Decision {
  const floor = ctx.config.policyFloor === undefined ? undefined : withRealRules(ctx.config.policyFloor, resolved.root);
  return decidePathWithFloor(kind, resolved.realPath, withRealRules(ctx.config.policy, resolved.root), floor, {
    projectRoot: resolved.root,
    inside: resolved.inside,
    multiLinked: resolved.multiLinked,
    caseInsensitive: resolved.caseInsensitive,
  });
}

function denied(tool: string, message: string, target: string | undefined): GateResult {
  return { ok: false, target, result: { ok: false, failure: 'denied', content: message, summary: `denied: ${tool}`, ...(target !== undefined ? { target } : {}) } };
}

const WRITING_KINDS: ReadonlySet<ToolKind> = new Set(['write', 'delete', 'bash']);

export async function authorize(ctx: ToolContext, req: GateRequest): Promise<GateResult> {
  const target = req.path?.realPath ?? (req.command !== undefined ? escapeForDisplay(req.command) : undefined);
  if (target !== undefined && ctx.audit) ctx.audit.target = target;
  const allowed: GateResult = { ok: true, ...(target !== undefined ? { target } : {}) };
  const log = (decision: string, extra: { answer?: ApprovalDecision; reason?: string } = {}) =>
    writeAudit(ctx.config.auditLog, {
      session: ctx.sessionId,
      tool: req.tool,
      event: 'decision',
      target,
      decision,
      answer: extra.answer,
      reason: extra.reason ?? req.decision.reason,
    }, secretEnvNames(ctx.config));

  if (ctx.readOnly && WRITING_KINDS.has(req.kind)) {
    await log('deny', { reason: 'read-only mode' });
    return denied(req.tool, `Denied: lindwyrm is running with --read-only, so ${req.tool} is not available.`, target);
  }
  const { level, reason } = req.decision;
  if (level === 'deny') {
    await log('deny');
    const what = req.path !== undefined ? escapeFileName(req.path.realPath) : 'this command';
    return denied(req.tool, `Denied by policy (${escapeForDisplay(reason)}): ${req.kind} of ${what} is not allowed.`, target);
  }
  if (level === 'allow') {
    await log('allow');
    return allowed;
  }
  // confirm: --allow and [a]lways cover the project only (bash has no path; they cover it whole).
  const inside = req.path === undefined ? true : req.path.inside && !req.path.multiLinked;
  if (!req.decision.alwaysAsk && inside) {
    if (ctx.preApproved.has(req.kind)) {
      await log('allow', { reason: `${reason}; --allow ${req.kind}` });
      return allowed;
    }
    if (ctx.sessionGrants.has(req.kind)) {
      await log('allow', { reason: `${reason}; [a]lways ${req.kind} this session` });
      return allowed;
    }
  }
  let answer: ApprovalDecision;
  try {
    answer = await ctx.approve({
      id: randomUUID(),
      kind: req.kind,
      tool: req.tool,
      // A newline or tab in a name is escaped too: shown raw, one path reads as two lines.
      path: req.path !== undefined ? escapeFileName(req.path.realPath) : undefined,
      command: req.command !== undefined ? escapeForDisplay(req.command) : undefined,
      diff: req.diff !== undefined ? escapeForDisplay(req.diff) : undefined,
      summary: escapeForDisplay(req.summary),
      reason: escapeForDisplay(reason),
      alwaysGrants: inside,
    });
  } catch (error) {
    await log('confirm', { reason: `${reason}; approval failed` });
    return denied(req.tool, `Not run: the approval could not be asked (${error instanceof Error ? error.message : String(error)}).`, target);
  }
  await log('confirm', { answer });
  if (answer === 'yes') return allowed;
  if (answer === 'always') {
    if (inside) ctx.sessionGrants.add(req.kind);
    return allowed;
  }
  if (answer === 'quit') {
    return {
      ok: false,
      target,
      result: { ok: false, failure: 'interrupted', content: 'The user stopped the turn at the approval prompt; nothing was done.', summary: 'stopped', interrupted: true, quit: true },
    };
  }
  return denied(req.tool, `The user declined this ${req.kind}; nothing was done. Ask or try another approach.`, target);
}
