/**
 * MCP tools under the permission policy: `confirm` unless the server's entry allows or denies the
 * tool by name pattern; a readOnlyHint runs without asking only on a server the user configured
 * (a project's server could claim anything). The question to the user carries the arguments,
 * escaped like any tool output.
 */
import picomatch from 'picomatch';
import { randomUUID } from 'node:crypto';
import type { McpServerConfig } from '../config/types.js';
import { writeAudit } from '../policy/audit-log.js';
import { approvalNotes } from '../policy/approval-notes.js';
import { escapeForDisplay } from '../policy/escape.js';
import { answerOf, type ApprovalAnswer, type Decision } from '../policy/types.js';
import { secretEnvNames } from '../secrets/secret-names.js';
import { failure } from '../tools/results.js';
import type { ToolContext, ToolResult } from '../tools/types.js';
import type { McpTool } from './protocol.js';

const matches = (patterns: readonly string[], tool: string, full: string): string | undefined =>
  patterns.find((p) => picomatch.isMatch(p.startsWith('mcp__') ? full : tool, p, { nocase: false, dot: true }));

const claimsReadOnly = (tool: McpTool): boolean => tool.annotations?.readOnlyHint === true && tool.annotations.destructiveHint !== true;

/** Whether the tool's readOnlyHint is believed: only on a server the user configured (`userServer`). */
export function believedReadOnly(userServer: boolean, tool: McpTool): boolean {
  return userServer && claimsReadOnly(tool);
}

export function decideMcp(server: McpServerConfig, tool: McpTool, full: string, readOnly: boolean): Decision {
  const where = `mcp.servers ${server.name}`;
  const denied = matches(server.deny, tool.name, full);
  if (denied) return { level: 'deny', reason: `${where} deny "${denied}"` };
  const allowed = matches(server.allow, tool.name, full);
  const readOnlyHint = claimsReadOnly(tool);
  const believed = believedReadOnly(server.origin === 'user', tool);
  if (readOnly && !believed) {
    return { level: 'deny', reason: 'read-only mode (only tools your own servers mark readOnlyHint run)' };
  }
  if (allowed) return { level: 'allow', reason: `${where} allow "${allowed}"` };
  if (believed) return { level: 'allow', reason: `readOnlyHint of ${server.name}, a server you configured` };
  return { level: 'confirm', reason: readOnlyHint ? `default mcp=confirm (readOnlyHint not believed: ${server.name} is the project's server)` : 'default mcp=confirm' };
}

function preview(args: unknown): string {
  const text = JSON.stringify(args ?? {}, null, 1).replace(/\n\s*/g, ' ');
  return text.length > 600 ? `${text.slice(0, 597)}...` : text;
}

export interface McpGateRequest {
  /** mcp__SERVER__TOOL. */
  readonly full: string;
  readonly server: string;
  readonly tool: string;
  readonly decision: Decision;
  readonly args: unknown;
  /** Tools answered [a]lways in this session (by full name). */
  readonly grants: Set<string>;
}

/**
 * The policy hook of an MCP tool, as authorize() is a path tool's: asks when it must, writes the
 * decision to the audit log, and returns undefined to go ahead or the result to give the model.
 * --allow and kind grants never cover an MCP tool: only its server's patterns and [a]lways for it.
 */
export async function gateMcp(ctx: ToolContext, req: McpGateRequest): Promise<ToolResult | undefined> {
  const raw = `${req.server} › ${req.tool} ${preview(req.args)}`;
  const target = escapeForDisplay(raw);
  if (ctx.audit) ctx.audit.target = target;
  const log = (decision: string, answer?: string, reason = req.decision.reason) =>
    writeAudit(ctx.config.auditLog, { session: ctx.sessionId, tool: req.full, event: 'decision', target, decision, ...(answer ? { answer } : {}), reason }, secretEnvNames(ctx.config));
  const deny = (content: string): ToolResult => failure(content, `denied: ${req.full}`, 'denied');
  if (req.decision.level === 'deny') {
    await log('deny');
    return deny(`Denied by policy (${escapeForDisplay(req.decision.reason)}): ${req.full} is not allowed.`);
  }
  if (req.decision.level === 'allow') {
    await log('allow');
    return undefined;
  }
  if (req.grants.has(req.full)) {
    await log('allow', undefined, `${req.decision.reason}; [a]lways ${req.full} this session`);
    return undefined;
  }
  let reply: ApprovalAnswer;
  // What the arguments hide (control characters, look-alike letters, an overlong line) is said, as for bash.
  const { flags, ...notes } = approvalNotes({ command: raw }, { command: target });
  try {
    reply = answerOf(await ctx.approve({
      id: randomUUID(),
      kind: 'mcp',
      tool: req.full,
      command: target,
      ...notes,
      ...(flags !== undefined ? { flags: flags.map(escapeForDisplay) } : {}),
      summary: escapeForDisplay(`${req.server}: ${req.tool}`),
      reason: escapeForDisplay(req.decision.reason),
      alwaysGrants: true,
    }));
  } catch (error) {
    await log('confirm', undefined, `${req.decision.reason}; approval failed`);
    return deny(`Not run: the approval could not be asked (${error instanceof Error ? error.message : String(error)}).`);
  }
  const answer = reply.decision;
  await log('confirm', answer, reply.note !== undefined ? `${req.decision.reason}; the user said: ${reply.note}` : req.decision.reason);
  if (answer === 'yes') return undefined;
  // No [e]very or [s]ave is offered for a tool; an answer that says so anyway is an [a]lways.
  if (answer === 'always' || answer === 'every' || answer === 'save') {
    req.grants.add(req.full);
    return undefined;
  }
  if (answer === 'quit') return { ...failure('The user stopped the turn at the approval prompt; nothing was done.', 'stopped', 'interrupted'), interrupted: true, quit: true };
  if (reply.note !== undefined) {
    return deny(`The user declined ${req.full}; nothing was done. They said:\n${reply.note}\nDo what they ask instead; do not retry the same call.`);
  }
  return deny(`The user declined ${req.full}; nothing was done. Ask or try another approach.`);
}
