/**
 * The hooks of a session: for each event, the matching `[[hooks.EVENT]]` entries run in order
 * (the user's, then a trusted project's) and their answers are read in Claude Code's terms —
 * exit 0 (optionally with a JSON answer) goes on, exit 2 blocks with stderr as the reason, any
 * other exit is reported and ignored. What reaches the model is only what the event defines:
 * a refusal reason for PreToolUse, feedback for PostToolUse, context for UserPromptSubmit and
 * SessionStart, the reason to go on for Stop. Everything else is for the user's eyes only.
 */
import type { HookEntry, HookEvent } from '../config/types.js';
import { escapeForDisplay } from '../policy/escape.js';
import type { ToolResult } from '../tools/types.js';
import { hookMatches, hookPayload, hookToolInput, parseHookAnswer, type CommonFields, type HookAnswer } from './hook-payload.js';
import type { HookOutcome, HookRunner } from './hook-runner.js';

export interface ToolCallInfo {
  readonly id: string;
  readonly name: string;
  readonly input: unknown;
}

export interface Hooks {
  /** Whether any hook is configured for the event. */
  has(event: HookEvent): boolean;
  /** SessionStart: its context waits for the next prompt (takeStartContext). */
  sessionStart(source: 'startup' | 'resume' | 'clear'): Promise<void>;
  /** What SessionStart hooks added for the model, once. */
  takeStartContext(): string[];
  /** `blocked`: the prompt is not sent (the reason is for the user). `context` joins the prompt. */
  userPromptSubmit(prompt: string, signal?: AbortSignal): Promise<{ blocked?: string; context: string[] }>;
  /** `blocked`: the call is refused with this reason; `input`: the arguments a hook rewrote. */
  preToolUse(call: ToolCallInfo, signal?: AbortSignal): Promise<{ blocked?: string; input?: Record<string, unknown>; context?: string }>;
  /** After a call that succeeded: what the hooks tell the model about it (a block's reason, context). */
  postToolUse(call: ToolCallInfo, result: ToolResult, signal?: AbortSignal): Promise<{ feedback?: string }>;
  /** Before the turn ends: a reason for the model to go on, or undefined to stop. */
  stop(active: boolean, lastMessage: string, signal?: AbortSignal): Promise<string | undefined>;
  /** Before a summary: a reason not to summarize, or undefined. */
  preCompact(trigger: 'manual' | 'auto', instructions: string): Promise<string | undefined>;
}

export interface HooksOptions {
  readonly entries: readonly HookEntry[];
  readonly run: HookRunner;
  readonly projectRoot: string;
  readonly common: () => CommonFields;
  /** For the user: a hook that failed, a hook's systemMessage, a block the model is not told about. */
  readonly report: (level: 'info' | 'warning', text: string) => void;
  readonly log?: (line: string) => void;
  /**
   * Runs a hook inside whatever must see the files it changes (the rewind checkpoint's scan:
   * engine.aroundCommand); default: just runs it.
   */
  readonly around?: <T>(label: string, run: () => Promise<T>) => Promise<T>;
}

/** One entry's answer, read. */
interface Verdict {
  readonly block?: string;
  readonly answer?: HookAnswer;
  /** Plain (non-JSON) stdout of a hook that exited 0. */
  readonly text?: string;
}

/** Context a hook adds is framed so the model can tell it from the user's words. */
export function hookContext(event: HookEvent, text: string): string {
  return `[${event} hook output]\n${text.trim()}`;
}

export function createHooks(opts: HooksOptions): Hooks {
  const around = opts.around ?? (<T>(_label: string, run: () => Promise<T>) => run());
  let startContext: string[] = [];
  const entriesFor = (event: HookEvent, tool?: string): HookEntry[] => opts.entries.filter((e) => e.event === event && hookMatches(e, tool));

  const judge = (entry: HookEntry, outcome: HookOutcome): Verdict => {
    const label = `${entry.event} hook \`${escapeForDisplay(entry.command)}\``;
    if (outcome.interrupted) return {};
    if (outcome.startError) {
      opts.report('warning', `${label} could not start: ${outcome.startError}; ignored.`);
      return {};
    }
    if (outcome.timedOut) {
      opts.report('warning', `${label} timed out after ${entry.timeoutMs} ms (timeout_ms) and was stopped; ignored.`);
      return {};
    }
    if (outcome.exitCode === 2) return { block: outcome.stderr.trim() || `${label} exited with 2 and gave no reason.` };
    if (outcome.exitCode !== 0) {
      const why = firstLines(outcome.stderr) || firstLines(outcome.stdout);
      opts.report('warning', `${label} exited with ${outcome.exitCode ?? 'a signal'}${why ? `: ${why}` : ''}; ignored.`);
      return {};
    }
    const answer = parseHookAnswer(outcome.stdout);
    if (!answer) return outcome.stdout.trim() ? { text: outcome.stdout.trim() } : {};
    if (answer.systemMessage) opts.report('info', `${label}: ${answer.systemMessage}`);
    if (answer.continue === false) return { block: answer.stopReason || answer.reason || `${label} said not to continue.`, answer };
    if (answer.decision === 'block') return { block: answer.reason || `${label} blocked it.`, answer };
    if (answer.permissionDecision === 'deny') return { block: answer.permissionDecisionReason || `${label} denied it.`, answer };
    return { answer };
  };

  /** Runs the entries in order; the first block stops the rest (they would judge a call that will not happen). */
  const fire = async (
    event: HookEvent,
    fields: Record<string, unknown>,
    opt: { tool?: string; signal?: AbortSignal; payload?: (fields: Record<string, unknown>) => Record<string, unknown> } = {},
  ): Promise<Verdict[]> => {
    const verdicts: Verdict[] = [];
    let current = fields;
    for (const entry of entriesFor(event, opt.tool)) {
      if (opt.signal?.aborted) break;
      const stdin = hookPayload(event, opts.common(), current);
      const started = Date.now();
      const outcome = await around(`${event} hook`, () =>
        opts.run({
          command: entry.command,
          stdin,
          timeoutMs: entry.timeoutMs,
          ...(opt.signal ? { signal: opt.signal } : {}),
          vars: { LINDWYRM_PROJECT_DIR: opts.projectRoot, CLAUDE_PROJECT_DIR: opts.projectRoot, LINDWYRM_HOOK_EVENT: event },
        }),
      );
      opts.log?.(`hook ${event} \`${entry.command}\` → ${outcome.timedOut ? 'timed out' : `exit ${outcome.exitCode}`} (${Date.now() - started} ms)`);
      const verdict = judge(entry, outcome);
      verdicts.push(verdict);
      if (verdict.block !== undefined) break;
      // A rewritten input is what the next hook (and the tool) sees.
      if (verdict.answer?.updatedInput && opt.payload) current = opt.payload(verdict.answer.updatedInput);
    }
    return verdicts;
  };
  const blockOf = (verdicts: readonly Verdict[]): string | undefined => verdicts.find((v) => v.block !== undefined)?.block;
  const contextOf = (event: HookEvent, verdicts: readonly Verdict[], plainCounts: boolean): string[] =>
    verdicts.flatMap((v) => {
      const text = v.answer?.additionalContext ?? (plainCounts ? v.text : undefined);
      return text?.trim() ? [hookContext(event, text)] : [];
    });

  return {
    has: (event) => opts.entries.some((e) => e.event === event),
    async sessionStart(source) {
      if (!this.has('SessionStart')) return;
      const verdicts = await fire('SessionStart', { source });
      const blocked = blockOf(verdicts);
      // SessionStart cannot stop a session; its exit 2 is for the user to read.
      if (blocked) opts.report('warning', `SessionStart hook: ${blocked}`);
      startContext.push(...contextOf('SessionStart', verdicts, true));
    },
    takeStartContext() {
      const taken = startContext;
      startContext = [];
      return taken;
    },
    async userPromptSubmit(prompt, signal) {
      if (!this.has('UserPromptSubmit')) return { context: [] };
      const verdicts = await fire('UserPromptSubmit', { prompt }, signal ? { signal } : {});
      const blocked = blockOf(verdicts);
      if (blocked !== undefined) return { blocked, context: [] };
      return { context: contextOf('UserPromptSubmit', verdicts, true) };
    },
    async preToolUse(call, signal) {
      if (!this.has('PreToolUse')) return {};
      const payload = (input: unknown): Record<string, unknown> => ({ tool_name: call.name, tool_input: hookToolInput(input, opts.projectRoot), tool_use_id: call.id });
      const verdicts = await fire('PreToolUse', payload(call.input), { tool: call.name, payload, ...(signal ? { signal } : {}) });
      const blocked = blockOf(verdicts);
      if (blocked !== undefined) return { blocked };
      // The last rewrite wins; the tool checks it (and the policy judges it) like any input.
      const input = verdicts.flatMap((v) => (v.answer?.updatedInput ? [v.answer.updatedInput] : [])).at(-1);
      const context = contextOf('PreToolUse', verdicts, false).join('\n\n');
      return { ...(input ? { input: withoutFilePathAlias(input, call.input, opts.projectRoot) } : {}), ...(context ? { context } : {}) };
    },
    async postToolUse(call, result, signal) {
      if (!this.has('PostToolUse')) return {};
      const toolInput = hookToolInput(call.input, opts.projectRoot);
      const response: Record<string, unknown> = { success: result.ok, content: result.content, summary: result.summary };
      if (typeof toolInput['file_path'] === 'string') response['filePath'] = toolInput['file_path'];
      const verdicts = await fire('PostToolUse', { tool_name: call.name, tool_input: toolInput, tool_response: response, tool_use_id: call.id }, { tool: call.name, ...(signal ? { signal } : {}) });
      const parts = [...verdicts.flatMap((v) => (v.block !== undefined ? [hookContext('PostToolUse', v.block)] : [])), ...contextOf('PostToolUse', verdicts, false)];
      return parts.length ? { feedback: parts.join('\n\n') } : {};
    },
    async stop(active, lastMessage, signal) {
      if (!this.has('Stop')) return undefined;
      const verdicts = await fire('Stop', { stop_hook_active: active, last_assistant_message: lastMessage }, signal ? { signal } : {});
      return blockOf(verdicts);
    },
    async preCompact(trigger, instructions) {
      if (!this.has('PreCompact')) return undefined;
      return blockOf(await fire('PreCompact', { trigger, custom_instructions: instructions }));
    },
  };
}

/**
 * A hook that echoes tool_input back with a change also echoes the `file_path` lindwyrm added:
 * the tool gets its own argument names only, and a file_path the hook changed becomes the path.
 */
function withoutFilePathAlias(updated: Record<string, unknown>, original: unknown, projectRoot: string): Record<string, unknown> {
  const had = typeof original === 'object' && original !== null && 'file_path' in original;
  if (had || !('file_path' in updated)) return updated;
  const { file_path: filePath, ...rest } = updated;
  const added = hookToolInput(original, projectRoot)['file_path'];
  return typeof filePath === 'string' && filePath !== added ? { ...rest, path: filePath } : rest;
}

function firstLines(text: string): string {
  const lines = text.trim().split('\n').slice(0, 3).join(' / ');
  return lines.length > 300 ? `${lines.slice(0, 297)}...` : lines;
}
