/**
 * Runs the tool calls of one model reply, in order, so that every call gets exactly one result —
 * including calls with broken arguments, calls a loop stopped, and calls an interrupt cut short.
 */
import type { ContentBlock } from '../providers/types.js';
import type { ToolCallStatus } from './state.js';
import { failureOf } from '../tools/results.js';
import type { FailureKind, FileChange, ToolContext } from '../tools/types.js';
import type { EngineEvent } from './events.js';
import type { ToolRunner } from './ports.js';
import type { ContextManager } from '../context/types.js';
import { loopMessage, type LoopDetector } from './loop-detector.js';
import { ignoreError } from '../diagnostics/ignore-error.js';
import { sweepAbandonedTemps } from '../io/temp-journal.js';
import type { Hooks } from '../extensions/hooks.js';
import { hookToolInput } from '../extensions/hook-payload.js';

export type ToolUse = Extract<ContentBlock, { type: 'tool_use' }>;
export type ToolResultBlock = Extract<ContentBlock, { type: 'tool_result' }>;

export const INTERRUPTED_RESULT = 'Interrupted by the user before it finished. Nothing more was done.';
export const NOT_RUN_RESULT = 'Not run: the user interrupted the turn before this call started.';

export interface ToolCallsEnv {
  readonly tools: ToolRunner;
  readonly context: ContextManager;
  readonly loops: LoopDetector;
  readonly loopWindow: number;
  /** Calls one reply may run (max_calls_per_reply); the rest are answered "not run". Default 64. */
  readonly maxCallsPerReply?: number;
  readonly signal: AbortSignal;
  readonly dispatch: (event: EngineEvent) => void;
  readonly newId: (prefix: string) => string;
  readonly toolContext: (signal: AbortSignal, onOutput: (text: string) => void) => ToolContext;
  readonly describe: (name: string, input: unknown) => string;
  readonly log?: (line: string) => void;
  /** A note to add to the result of the call just run (one-shot's non-interactive denial). */
  readonly takeDenialNote?: () => string | undefined;
  /** PreToolUse and PostToolUse hooks around each call. */
  readonly hooks?: Pick<Hooks, 'preToolUse' | 'postToolUse'>;
}

export interface ToolCallsOutcome {
  readonly results: ToolResultBlock[];
  /** The loop detector fired a second time: stop the turn. */
  readonly stoppedForLoop: boolean;
}

/** The transcript's status for a failure kind: a denial and an interrupt show as such, the rest as errors. */
export function statusOf(failure: FailureKind | undefined): ToolCallStatus {
  return failure === undefined ? 'ok' : failure === 'denied' || failure === 'interrupted' ? failure : 'error';
}

export const DEFAULT_MAX_CALLS_PER_REPLY = 64;

export function overLimitResult(asked: number, limit: number): string {
  return `Not run: this reply asked for ${asked} tool calls, and at most ${limit} run per reply (max_calls_per_reply). Ask again for what is still needed, in smaller batches.`;
}

export async function runToolCalls(env: ToolCallsEnv, calls: readonly ToolUse[], loopWarnings: { count: number }): Promise<ToolCallsOutcome> {
  const results: ToolResultBlock[] = [];
  let stoppedForLoop = false;
  const limit = env.maxCallsPerReply ?? DEFAULT_MAX_CALLS_PER_REPLY;
  for (const [index, call] of calls.entries()) {
    if (index >= limit) {
      // Every call still gets its result, so the history stays valid; only the first `limit` run.
      // No transcript block each: a runaway reply of thousands of calls would bury the screen.
      results.push({ type: 'tool_result', toolUseId: call.id, content: overLimitResult(calls.length, limit), isError: true });
      continue;
    }
    const blockId = env.newId('tool');
    const kind = env.tools.get(call.name)?.kind;
    const detail = env.tools.detail?.(call.name, call.input);
    env.dispatch({ type: 'tool.start', blockId, callId: call.id, name: call.name, title: env.describe(call.name, call.input), input: call.input, ...(kind ? { kind } : {}), ...(detail !== undefined ? { detail } : {}) });
    const finish = (content: string, failure: FailureKind | undefined, summary: string, extra?: Partial<ToolResultBlock>, change?: FileChange): void => {
      results.push({ type: 'tool_result', toolUseId: call.id, content, ...(failure ? { isError: true } : {}), ...extra });
      env.dispatch({ type: 'tool.end', blockId, status: statusOf(failure), summary, callId: call.id, content, ...(failure ? { failure } : {}), ...(change ? { change } : {}) });
    };
    if (env.signal.aborted) {
      finish(NOT_RUN_RESULT, 'interrupted', 'interrupted');
      continue;
    }
    if (stoppedForLoop) {
      finish('Not run: the turn was stopped because the same calls kept repeating.', 'failed', 'not run (loop)');
      continue;
    }
    if (call.inputError) {
      const msg = `Invalid arguments for ${call.name}: ${call.inputError}. Send the arguments as one valid JSON object.`;
      finish(msg, 'invalid_args', 'invalid arguments');
      continue;
    }
    if (env.loops.isLoop(call.name, call.input)) {
      loopWarnings.count++;
      if (loopWarnings.count > 1) stoppedForLoop = true;
      finish(loopMessage(call.name, env.loopWindow), 'failed', 'loop detected, not run');
      continue;
    }
    const pre = await env.hooks?.preToolUse(call, env.signal);
    if (pre?.blocked !== undefined) {
      env.log?.(`tool ${env.describe(call.name, call.input)} → blocked by a PreToolUse hook`);
      finish(`Not run: a PreToolUse hook refused this call: ${pre.blocked}`, 'denied', 'blocked by a PreToolUse hook');
      continue;
    }
    // A hook's rewritten arguments go through the tool's own checks and the policy like the model's.
    const input = pre?.input ?? call.input;
    const started = Date.now();
    const ctx = env.toolContext(env.signal, (text) => env.dispatch({ type: 'tool.output', blockId, text }));
    const result = await env.tools.run(call.name, input, ctx);
    // Another run killed mid-write (a parallel session, an earlier crash) may have left temp files.
    await sweepAbandonedTemps().catch(ignoreError('remove the temp files of killed runs', env.log));
    // A call that failed while the turn was being stopped was stopped, whatever it says.
    const failure = env.signal.aborted && !result.ok ? 'interrupted' : failureOf(result);
    env.log?.(`tool ${env.describe(call.name, call.input)} → ${failure ?? 'ok'}: ${result.summary} (${Date.now() - started} ms)`);
    if (failure === 'interrupted') {
      const content = result.content ? `${INTERRUPTED_RESULT}\n${result.content}` : INTERRUPTED_RESULT;
      finish(content, 'interrupted', result.summary || 'interrupted');
      continue;
    }
    // Every result goes through the context manager: it offloads bulk ones and neutralises the
    // session marker in all of them. A failing command's output can be just as large.
    const def = env.tools.get(call.name);
    const content = await env.context.onToolResult(call.name, result.content, {
      input,
      ...(def ? { bulk: def.bulk } : {}),
      ...(result.whole !== undefined ? { whole: result.whole } : {}),
      ...(result.wholeCut !== undefined ? { wholeCut: result.wholeCut } : {}),
    });
    const post = failure === undefined ? await env.hooks?.postToolUse({ ...call, input }, result, env.signal) : undefined;
    // A PostToolUse hook (a formatter) may have rewritten the file the call wrote.
    const path = post ? hookToolInput(input, ctx.projectRoot)['file_path'] : undefined;
    if (typeof path === 'string') ctx.onFileChanged?.(path);
    const notes = [env.takeDenialNote?.(), pre?.context, post?.feedback].filter((n): n is string => !!n);
    finish([content, ...notes].join('\n'), failure, result.summary, result.images?.length ? { images: result.images } : {}, result.ok ? result.change : undefined);
  }
  if (calls.length > limit) {
    const text = `The reply asked for ${calls.length} tool calls; the first ${limit} ran and the other ${calls.length - limit} were answered "not run" (max_calls_per_reply = ${limit}).`;
    env.dispatch({ type: 'notice', blockId: env.newId('notice'), level: 'warning', text });
  }
  return { results, stoppedForLoop };
}
