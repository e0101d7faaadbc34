/**
 * Where a policy decision meets the run: --read-only, --allow, [a]lways grants, and the question
 * to the user. Returns either permission to go ahead or the ToolResult to hand the model.
 */
import { randomUUID } from 'node:crypto';
import type { PathKind, PolicySettings, ToolKind } from '../config/types.js';
import type { ToolContext, ToolResult } from '../tools/types.js';
import { answerOf, type AlwaysPreview, type ApprovalAnswer, type ApprovalRequest, type Decision } from './types.js';
import { grantText, type GrantProposal } from './bash-grants.js';
import { bashRuleBlock, pathRuleBlock } from '../config/save-rule.js';
import { secretEnvNames } from '../secrets/secret-names.js';
import { writeAudit } from './audit-log.js';
import { escapeFileName, escapeForDisplay } from './escape.js';
import { approvalNotes, type ApprovalNotes } from './approval-notes.js';
import { ownSecretReason } from './own-secrets.js';
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
  /** For bash: what [a]lways would grant (bash-grants.ts proposeGrants). */
  readonly proposal?: GrantProposal;
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
  // Before any rule: no rule, read_outside or grant opens lindwyrm's own keys and stores.
  const own = ownSecretReason(resolved.realPath, ctx.config, resolved.caseInsensitive === true);
  if (own !== undefined) return { level: 'deny', reason: `${own}: never open to tools` };
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

/** Flags quote words from the text: shown escaped like everything else in an approval. */
function escapedNotes(notes: ApprovalNotes): ApprovalNotes {
  return notes.flags === undefined ? notes : { ...notes, flags: notes.flags.map(escapeForDisplay) };
}

const WRITING_KINDS: ReadonlySet<ToolKind> = new Set(['write', 'delete', 'bash']);

export async function authorize(ctx: ToolContext, req: GateRequest): Promise<GateResult> {
  const target = req.path?.realPath ?? (req.command !== undefined ? escapeForDisplay(req.command) : undefined);
  if (target !== undefined && ctx.audit) ctx.audit.target = target;
  const allowed: GateResult = { ok: true, ...(target !== undefined ? { target } : {}) };
  const log = (decision: string, extra: { answer?: ApprovalAnswer; reason?: string } = {}) =>
    writeAudit(ctx.config.auditLog, {
      session: ctx.sessionId,
      tool: req.tool,
      event: 'decision',
      target,
      decision,
      answer: extra.answer?.decision,
      reason: (extra.reason ?? req.decision.reason) + (extra.answer?.note !== undefined ? `; the user said: ${extra.answer.note}` : ''),
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
  // confirm: --allow and [a]lways cover the project only (bash has no path: --allow bash and
  // [e]very cover it whole; its narrower grants were judged by the bash tool before it got here).
  const inside = req.path === undefined ? true : req.path.inside && !req.path.multiLinked;
  if (!req.decision.alwaysAsk && inside) {
    if (ctx.preApproved.has(req.kind)) {
      await log('allow', { reason: `${reason}; --allow ${req.kind}` });
      return allowed;
    }
    if (ctx.sessionGrants.has(req.kind)) {
      const what = req.kind === 'bash' ? '[e]very command this session' : `[a]lways ${req.kind} this session`;
      await log('allow', { reason: `${reason}; ${what}` });
      return allowed;
    }
  }
  const { request, block } = approvalRequest(ctx, req, inside, reason);
  let answer: ApprovalAnswer;
  try {
    answer = answerOf(await ctx.approve(request));
  } catch (error) {
    await log('confirm', { reason: `${reason}; approval failed` });
    return denied(req.tool, `Not run: the approval could not be asked (${error instanceof Error ? error.message : String(error)}).`, target);
  }
  await log('confirm', { answer });
  switch (answer.decision) {
    case 'yes':
      return allowed;
    case 'always':
    case 'save':
      grantAlways(ctx, req, inside);
      // Saved after the grant: the call goes ahead whether or not the file could be written.
      if (answer.decision === 'save' && block !== undefined) await ctx.saveRule?.(block);
      return allowed;
    case 'every':
      if (req.kind === 'bash') ctx.sessionGrants.add('bash');
      else grantAlways(ctx, req, inside);
      return allowed;
    case 'quit':
      return {
        ok: false,
        target,
        result: { ok: false, failure: 'interrupted', content: 'The user stopped the turn at the approval prompt; nothing was done.', summary: 'stopped', interrupted: true, quit: true },
      };
    case 'no':
      return declined(req, answer.note, target);
    default: {
      const unhandled: never = answer.decision;
      return unhandled;
    }
  }
}

function grantAlways(ctx: ToolContext, req: GateRequest, inside: boolean): void {
  if (req.kind === 'bash') ctx.sessionGrants.addBash(req.proposal?.grants ?? []);
  else if (inside) ctx.sessionGrants.add(req.kind);
}

/** The user's no; with their words when they gave a reason, so the model can do what they asked instead. */
function declined(req: GateRequest, note: string | undefined, target: string | undefined): GateResult {
  if (note === undefined) return denied(req.tool, `The user declined this ${req.kind}; nothing was done. Ask or try another approach.`, target);
  const content = `The user declined this ${req.kind}; nothing was done. They said:\n${note}\nDo what they ask instead; do not retry the same call.`;
  const line = note.replace(/\s+/g, ' ');
  const summary = `declined: ${line.length > 60 ? `${line.slice(0, 59)}…` : line}`;
  return { ok: false, target, result: { ok: false, failure: 'denied', content, summary, ...(target !== undefined ? { target } : {}) } };
}

function alwaysPreview(proposal: GrantProposal): AlwaysPreview {
  return {
    grants: proposal.grants.map((g) => ({ text: escapeForDisplay(grantText(g)), exact: g.match === 'exact' })),
    refused: proposal.refused.map((r) => escapeForDisplay(`${r.text.replace(/\s*\n\s*/g, ' ⏎ ')}: ${r.why}`)),
  };
}

/**
 * What the user is asked: everything escaped, with what each answer would grant; and the rule
 * block [s]ave writes (unescaped: the request shows its escaped copy).
 */
function approvalRequest(ctx: ToolContext, req: GateRequest, inside: boolean, reason: string): { request: ApprovalRequest; block?: string } {
  const bash = req.kind === 'bash';
  const grants = bash ? (req.proposal?.grants.length ?? 0) > 0 : inside;
  const file = ctx.config.userConfigFile;
  const block = !grants || ctx.saveRule === undefined || file === undefined || req.decision.alwaysAsk
    ? undefined
    : bash
      ? bashRuleBlock(req.proposal?.grants ?? [])
      : pathRuleBlock(req.path?.root ?? ctx.projectRoot, req.kind as PathKind);
  const command = req.command !== undefined ? escapeForDisplay(req.command) : undefined;
  const diff = req.diff !== undefined ? escapeForDisplay(req.diff) : undefined;
  const request: ApprovalRequest = {
    id: randomUUID(),
    kind: req.kind,
    tool: req.tool,
    // A newline or tab in a name is escaped too: shown raw, one path reads as two lines.
    path: req.path !== undefined ? escapeFileName(req.path.realPath) : undefined,
    command,
    diff,
    // What the text hides (control characters, look-alike letters, overlong lines) is said.
    ...escapedNotes(approvalNotes({ path: req.path?.realPath, command: req.command, diff: req.diff }, { command, diff })),
    summary: escapeForDisplay(req.summary),
    reason: escapeForDisplay(reason),
    alwaysGrants: grants,
    ...(bash && req.proposal !== undefined ? { always: alwaysPreview(req.proposal) } : {}),
    ...(bash ? { every: true } : {}),
    ...(block !== undefined && file !== undefined ? { save: { file: escapeFileName(file), block: escapeForDisplay(block) } } : {}),
  };
  return block === undefined ? { request } : { request, block };
}
