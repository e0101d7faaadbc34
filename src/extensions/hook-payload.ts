/**
 * The JSON a hook gets and the JSON it may answer, in Claude Code's shapes, so scripts written
 * for it run unchanged: `tool_input.file_path` is there (absolute) for the file tools, and a
 * matcher written for Claude Code's tool names ("Edit|Write", "Bash") matches lindwyrm's tools.
 */
import { isAbsolute, resolve } from 'node:path';
import type { HookEntry, HookEvent } from '../config/types.js';

/** Claude Code's name for each built-in tool that has one. */
const CLAUDE_NAMES: Readonly<Record<string, string>> = {
  bash: 'Bash',
  read_file: 'Read',
  write_file: 'Write',
  edit_file: 'Edit',
  glob: 'Glob',
  grep: 'Grep',
  list_dir: 'LS',
};

export function claudeToolName(tool: string): string | undefined {
  return CLAUDE_NAMES[tool];
}

/** Whether an entry applies to a call of `tool` (entries without a matcher, and events without tools, always do). */
export function hookMatches(entry: HookEntry, tool: string | undefined): boolean {
  if (entry.matcher === undefined || tool === undefined) return true;
  const pattern = new RegExp(`^(?:${entry.matcher})$`);
  const alias = claudeToolName(tool);
  return pattern.test(tool) || (alias !== undefined && pattern.test(alias));
}

/** The call's arguments as a hook sees them: as sent, plus `file_path` (absolute) beside a `path`. */
export function hookToolInput(input: unknown, projectRoot: string): Record<string, unknown> {
  const args = typeof input === 'object' && input !== null && !Array.isArray(input) ? { ...(input as Record<string, unknown>) } : {};
  const path = args['path'];
  if (typeof path === 'string' && path !== '' && args['file_path'] === undefined) {
    args['file_path'] = isAbsolute(path) ? path : resolve(projectRoot, path);
  }
  return args;
}

export interface CommonFields {
  readonly session_id: string;
  readonly transcript_path: string;
  readonly cwd: string;
  /** "default", or "plan" for a read-only session. */
  readonly permission_mode: string;
}

export function hookPayload(event: HookEvent, common: CommonFields, fields: Record<string, unknown>): string {
  return JSON.stringify({ ...common, hook_event_name: event, ...fields });
}

/** What a hook's JSON answer may say (the fields lindwyrm acts on). */
export interface HookAnswer {
  /** false: stop (a block, with stopReason as the reason). */
  readonly continue?: boolean;
  readonly stopReason?: string;
  /** "block" (with reason) blocks; "approve" is read as no objection. */
  readonly decision?: string;
  readonly reason?: string;
  readonly systemMessage?: string;
  readonly permissionDecision?: string;
  readonly permissionDecisionReason?: string;
  readonly additionalContext?: string;
  readonly updatedInput?: Record<string, unknown>;
}

/** Reads stdout as a JSON answer when it is one; plain text is not an answer (undefined). */
export function parseHookAnswer(stdout: string): HookAnswer | undefined {
  const text = stdout.trim();
  if (!text.startsWith('{')) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined; // text that only looks like JSON is plain output
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const top = value as Record<string, unknown>;
  const specific = isRecord(top['hookSpecificOutput']) ? top['hookSpecificOutput'] : {};
  const str = (source: Record<string, unknown>, key: string): string | undefined => (typeof source[key] === 'string' ? (source[key] as string) : undefined);
  const answer: Record<string, unknown> = {
    continue: typeof top['continue'] === 'boolean' ? top['continue'] : undefined,
    stopReason: str(top, 'stopReason'),
    decision: str(top, 'decision'),
    reason: str(top, 'reason'),
    systemMessage: str(top, 'systemMessage'),
    permissionDecision: str(specific, 'permissionDecision'),
    permissionDecisionReason: str(specific, 'permissionDecisionReason'),
    additionalContext: str(specific, 'additionalContext'),
    updatedInput: isRecord(specific['updatedInput']) ? specific['updatedInput'] : undefined,
  };
  return Object.fromEntries(Object.entries(answer).filter(([, v]) => v !== undefined)) as HookAnswer;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
