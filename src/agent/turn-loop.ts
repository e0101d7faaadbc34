/**
 * One turn: model → tool calls → results → model, until the model stops, the step ceiling is
 * reached, a loop is detected, the user interrupts, or the provider fails. The history is left
 * valid in every case: every tool call has a result, and the turn can be continued.
 */
import { ProviderError, type AssistantMessage, type ContentBlock, type ImageData, type Message, type ModelClient, type ThinkingEffort, type ToolSchema, type Usage } from '../providers/types.js';
import type { ConfirmSummary } from '../context/types.js';
import type { PromptPrefix } from './runtime.js';
import type { TurnOutcome } from './state.js';
import { streamRequest } from './model-request.js';
import { PROMPT_TAKEN_BACK } from './notices.js';
import { createLoopDetector } from './loop-detector.js';
import { runToolCalls, type ToolCallsEnv, type ToolUse } from './tool-calls.js';

/** What a turn runs with: what its tool calls run with (all but the loop detector, made per turn), and the model's side. */
export interface TurnEnv extends Omit<ToolCallsEnv, 'loops'> {
  readonly client: ModelClient;
  /** The session's history; the turn appends to it (and the context manager may rewrite it). */
  readonly history: Message[];
  readonly system: string;
  readonly toolSchemas: readonly ToolSchema[];
  readonly maxTokens: number;
  readonly thinking: boolean;
  readonly thinkingEffort?: ThinkingEffort;
  readonly maxToolSteps: number;
  /** Called after every request with its measured usage. */
  readonly onUsage: (usage: Usage) => void;
  /** The history is valid at this point: save it (`durable: false`: written, the fsyncs left to the next safe point). */
  readonly safePoint: (opts?: { readonly durable?: boolean }) => Promise<void>;
  /** A request's reply began (its first event arrived): work that was held back from the request's way may start. */
  readonly onReplyStart?: () => void;
  /** Why the turn was interrupted ("Stopped by SIGTERM."), when not by the user. */
  readonly stopReason?: () => string | undefined;
  /**
   * After a summary the prompt prefix has changed anyway: the moment to refresh what the system
   * prompt snapshots (the code map) and tool lists that changed (an MCP server's). Returns the
   * system prompt and tools to send from now on.
   */
  readonly afterSummary?: () => PromptPrefix;
  /** Text that joins the user's prompt in the history (what SessionStart and UserPromptSubmit hooks added). */
  readonly promptContext?: readonly string[];
  /**
   * Before the turn ends (the model answered without tool calls): a reason to go on (a Stop
   * hook's), or undefined. `active` is true when a Stop hook already made this turn go on.
   */
  readonly onStop?: (active: boolean, lastMessage: string) => Promise<string | undefined>;
  /**
   * Before each request (a summary's included): undefined to go on, or why the turn stops here
   * (a budget reached and not raised). The history is valid at that point.
   */
  readonly beforeStep?: () => Promise<string | undefined>;
  /** Asked before an automatic summary: now, or later once. */
  readonly confirmSummary?: ConfirmSummary;
}

/** A Stop hook that never lets go would run the turn into max_tool_steps; this many times is enough. */
export const MAX_STOP_CONTINUES = 5;

/** Adds the user's text, merging into a trailing user message (tool results of a stopped turn). */
export function appendUserText(history: Message[], text: string, images: readonly ImageData[] = [], extra: readonly string[] = []): void {
  const last = history.at(-1);
  const blocks: ContentBlock[] = [
    { type: 'text', text },
    ...images.map((image) => ({ type: 'image' as const, image })),
    ...extra.map((more) => ({ type: 'text' as const, text: more })),
  ];
  if (last?.role === 'user') history[history.length - 1] = { role: 'user', content: [...last.content, ...blocks] };
  else history.push({ role: 'user', content: blocks });
}

function textOf(message: AssistantMessage): string {
  return message.content.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join('');
}

export { PROMPT_TAKEN_BACK } from './notices.js';

function interruptedDetail(env: TurnEnv): string {
  return env.stopReason?.() ?? 'Interrupted by the user.';
}

/** Removes the turn's prompt (its text and images: what appendUserText added) from the end of the history; false when it is not there. */
export function takeBackPrompt(history: Message[], text: string): boolean {
  const last = history.at(-1);
  if (last?.role !== 'user') return false;
  let at = last.content.length - 1;
  while (at >= 0 && last.content[at]!.type === 'image') at--;
  const block = last.content[at];
  if (block?.type !== 'text' || block.text !== text) return false;
  if (at === 0) history.pop();
  else history[history.length - 1] = { role: 'user', content: last.content.slice(0, at) };
  return true;
}

/** What a refused turn says: the provider's own explanation where it gave one. */
export function refusalMessage(explanation: string | undefined): string {
  const why = explanation?.replace(/\s+/g, ' ').trim();
  return why ? `The model refused to answer: ${why}` : 'The model refused to answer (stop reason "refusal").';
}

export function stepCeilingMessage(max: number): string {
  return `Stopped after ${max} tool steps (max_tool_steps). Send "continue" to pick up where it stopped.`;
}

export async function runTurn(env: TurnEnv, text: string, images?: readonly ImageData[]): Promise<TurnOutcome> {
  appendUserText(env.history, text, images, env.promptContext);
  // Saved before anything can go wrong: a process killed while the model streams still leaves
  // the prompt in the session, and `--continue` picks it up. Written, not fsynced: the fsyncs
  // (several, each tens of milliseconds on a busy disk) stood between Enter and the request;
  // the next safe point makes it durable against a power cut too.
  await env.safePoint({ durable: false });
  const loops = createLoopDetector(env.loopWindow);
  const loopWarnings = { count: 0 };
  let steps = 0;
  let lastText = '';
  let system = env.system;
  let tools = env.tools;
  let toolSchemas = env.toolSchemas;
  // A note that comes back unchanged before every step of a turn (summarizing paused, nothing left
  // to reclaim) is shown once per turn.
  let lastNote: string | undefined;
  let stopContinues = 0;
  for (;;) {
    const stop = await env.beforeStep?.();
    if (stop !== undefined) {
      await env.safePoint();
      // A budget question an interrupt cancelled: the turn was stopped (by the user, or a signal), not by the budget.
      if (env.signal.aborted) return { status: 'interrupted', result: lastText, detail: interruptedDetail(env), steps };
      return { status: 'incomplete', result: lastText, detail: stop, steps };
    }
    const reclaim = await env.context.beforeRequest(env.history, system, env.confirmSummary ? { confirmSummary: env.confirmSummary } : undefined);
    if (reclaim.action !== 'none') env.history.splice(0, env.history.length, ...reclaim.messages);
    if (reclaim.action === 'summarized' && env.afterSummary) ({ system, tools, toolSchemas } = env.afterSummary());
    const note = reclaim.detail ?? (reclaim.action !== 'none' ? `Context ${reclaim.action}.` : undefined);
    if (note && (reclaim.action !== 'none' || note !== lastNote)) {
      const level = reclaim.failed || reclaim.action === 'none' ? 'warning' : 'info';
      const kind = reclaim.action === 'offloaded' ? 'offload' : reclaim.action === 'summarized' || reclaim.failed ? 'summary' : undefined;
      env.dispatch({ type: 'notice', blockId: env.newId('notice'), level, text: note, ...(kind ? { kind } : {}) });
      lastNote = note;
    }
    const started = Date.now();
    if (env.log) {
      const bytes = Buffer.byteLength(JSON.stringify(env.history)) + Buffer.byteLength(system);
      env.log(`request: ${env.history.length} messages, ${(bytes / 1024).toFixed(1)} KB`);
    }
    let outcome;
    try {
      outcome = await streamRequest(env, {
        system,
        tools: toolSchemas,
        messages: env.history,
        maxTokens: env.maxTokens,
        thinking: env.thinking,
        ...(env.thinkingEffort ? { thinkingEffort: env.thinkingEffort } : {}),
        signal: env.signal,
      });
    } catch (err) {
      outcome = { kind: 'failed' as const, error: err, partialText: '' };
    }
    if (outcome.kind === 'failed') {
      const err = outcome.error;
      const message = err instanceof ProviderError ? err.message : err instanceof Error ? err.message : String(err);
      env.log?.(`request failed after ${Date.now() - started} ms: ${message}`);
      // Whatever the provider reported before failing was billed.
      if (outcome.usage) env.onUsage(outcome.usage);
      // The answer that had streamed stays, as plain text only (a half tool call has no result and
      // a half thinking block no signature): the user saw it, and the model can go on from it.
      if (outcome.partialText.trim()) {
        const partial: AssistantMessage = { role: 'assistant', content: [{ type: 'text', text: outcome.partialText }] };
        env.history.push(partial);
        env.dispatch({ type: 'assistant.message', message: partial, stopReason: 'error' });
        lastText = outcome.partialText;
        await env.safePoint();
      } else if (steps === 0 && takeBackPrompt(env.history, text)) {
        // Nothing of this turn reached the model: the prompt is taken back out of the history, or
        // the next one would be merged into it and sent as one message.
        env.dispatch({ type: 'notice', blockId: env.newId('notice'), level: 'info', text: PROMPT_TAKEN_BACK });
        await env.safePoint();
      }
      return { status: 'error', result: lastText, detail: message, steps };
    }
    if (outcome.kind === 'interrupted') {
      if (outcome.usage) env.onUsage(outcome.usage);
      // The partial reply is kept as plain text: a half-streamed thinking block has no signature
      // and a half-streamed tool call has no result, and providers reject both in history.
      const partial = outcome.partialText.trim() ? outcome.partialText : '(interrupted before replying)';
      env.history.push({ role: 'assistant', content: [{ type: 'text', text: partial }] });
      if (outcome.partialText.trim()) {
        env.dispatch({ type: 'assistant.message', message: { role: 'assistant', content: [{ type: 'text', text: outcome.partialText }] }, stopReason: 'interrupted' });
      }
      await env.safePoint();
      return { status: 'interrupted', result: outcome.partialText, detail: interruptedDetail(env), steps };
    }
    const u = outcome.usage;
    const counts = u.unreported ? 'usage not reported' : `in ${u.input} cache_read ${u.cacheRead} cache_write ${u.cacheWrite} out ${u.output}`;
    env.log?.(`response: ${outcome.reason}, ${counts}, ${Date.now() - started} ms`);
    env.onUsage(outcome.usage);
    env.history.push(outcome.message);
    env.dispatch({ type: 'assistant.message', message: outcome.message, stopReason: outcome.reason });
    const replyText = textOf(outcome.message);
    if (replyText) lastText = replyText;
    const calls = outcome.message.content.filter((b): b is ToolUse => b.type === 'tool_use');
    if (outcome.reason === 'refusal' && !calls.length) {
      // A refusal is not an answer: the turn failed, and says why (one-shot exits 1).
      await env.safePoint();
      return { status: 'error', result: replyText, detail: refusalMessage(outcome.explanation), steps };
    }
    if (outcome.reason === 'max_tokens') {
      if (calls.length) {
        const content = 'Not run: the reply was cut off at max_tokens, so this call may be incomplete.';
        env.history.push({ role: 'user', content: calls.map((c) => ({ type: 'tool_result', toolUseId: c.id, content, isError: true })) });
      }
      await env.safePoint();
      return { status: 'incomplete', result: lastText, detail: 'The reply was cut off at max_tokens.', steps };
    }
    if (!calls.length) {
      const goOn = env.signal.aborted ? undefined : await env.onStop?.(stopContinues > 0, replyText);
      if (goOn !== undefined && stopContinues < MAX_STOP_CONTINUES && !env.signal.aborted) {
        stopContinues++;
        env.dispatch({ type: 'notice', blockId: env.newId('notice'), level: 'info', text: `A Stop hook asks the model to go on: ${goOn}` });
        appendUserText(env.history, `[Stop hook] Do not stop yet: ${goOn}`);
        await env.safePoint();
        continue;
      }
      if (goOn !== undefined) {
        const text = env.signal.aborted ? undefined : `A Stop hook asked to go on ${MAX_STOP_CONTINUES} times in this turn; the turn ends here.`;
        if (text) env.dispatch({ type: 'notice', blockId: env.newId('notice'), level: 'warning', text });
      }
      await env.safePoint();
      return { status: 'finished', result: replyText, steps };
    }
    if (steps >= env.maxToolSteps) {
      // The ceiling: the calls of this reply are answered (not run) so "continue" starts clean.
      const content = `Not run: this turn reached max_tool_steps (${env.maxToolSteps}). The user can send "continue" to go on.`;
      env.history.push({ role: 'user', content: calls.map((c) => ({ type: 'tool_result', toolUseId: c.id, content, isError: true })) });
      await env.safePoint();
      return { status: 'incomplete', result: lastText, detail: stepCeilingMessage(env.maxToolSteps), steps };
    }
    // A kill while a tool runs must not lose the reply that asked for it: the saved history ends
    // with calls that have no result yet, which a resume answers as interrupted (repairHistory).
    await env.safePoint();
    const ran = await runToolCalls({ ...env, tools, loops }, calls, loopWarnings);
    env.history.push({ role: 'user', content: ran.results });
    steps++;
    await env.safePoint();
    if (env.signal.aborted) return { status: 'interrupted', result: lastText, detail: interruptedDetail(env), steps };
    if (ran.stoppedForLoop) {
      return { status: 'incomplete', result: lastText, detail: 'Stopped: the model kept repeating the same tool call.', steps };
    }
  }
}
