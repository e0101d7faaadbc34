/**
 * What a model client needs around it for small local models: refuse a prompt that cannot fit
 * the server's window before sending it, stop a turn whose prompt the server cut short (it says
 * so only through its count of evaluated tokens), and take a tool call the model wrote as its
 * answer text. For every client it notes near-JSON repairs in the verbose log.
 */
import { formatCount } from '../context/format-count.js';
import { estimatePrompt } from './request-estimate.js';
import { callShapedStart, findTextToolCalls } from './text-tool-calls.js';
import { generateToolId } from './tool-input.js';
import { ProviderError, type AssistantMessage, type ContentBlock, type ModelClient, type ModelRequest, type StreamEvent } from './types.js';

export interface LocalServerGuard {
  /** The window the server really gives this model, in tokens. */
  readonly window: number;
  /** Says how to get a bigger window on this server ("raise context_window …"). */
  readonly fix: string;
  /** The server, for messages ("Ollama at http://127.0.0.1:11434"). */
  readonly server: string;
}

export interface GuardOptions {
  readonly local?: LocalServerGuard;
  readonly log?: (line: string) => void;
}

/** Below this share of the estimate the server's count means it dropped part of the prompt. */
const TRUNCATED_SHARE = 0.6;
/** …and by at least this many tokens: chat templates make tiny prompts differ anyway. */
const TRUNCATED_MIN_GAP = 256;
/** Room a refusal leaves for the reply: at most this, or max_tokens when smaller. */
const REPLY_FLOOR = 512;

/** A prompt that grew by this much must be counted as larger than the one before. */
const GROWTH = 512;

interface Measured {
  readonly estimated: number;
  readonly reported: number;
}

/**
 * True when a server reporting `reported` prompt tokens for an estimate of `estimated` cut the
 * prompt: it counted clearly less than was sent, or — against the previous request — the prompt
 * grew and the count did not (a window that is full stays at its size).
 */
export function looksTruncated(estimated: number, reported: number, before?: Measured): boolean {
  if (reported <= 0) return false;
  if (reported < estimated * TRUNCATED_SHARE && estimated - reported >= TRUNCATED_MIN_GAP) return true;
  return before !== undefined && estimated - before.estimated >= GROWTH && reported <= before.reported;
}

export function guardClient(inner: ModelClient, opts: GuardOptions): ModelClient {
  const { local, log } = opts;
  let before: Measured | undefined;
  async function* stream(request: ModelRequest): AsyncGenerator<StreamEvent> {
    const estimate = estimatePrompt(request);
    if (local) refuseOversized(local, request, estimate.tokens);
    const held: StreamEvent[] = [];
    // Answer text that may be a tool call written as text waits for the stop event to decide.
    const heldText: string[] = [];
    let shape: 'maybe' | 'call' | 'text' = local && request.tools.length > 0 ? 'maybe' : 'text';
    for await (const ev of inner.stream(request)) {
      if (ev.type === 'tool_call_end' && ev.repairs?.length) log?.(`repaired the arguments of ${ev.name} (${ev.repairs.join(', ')})`);
      if (!local) {
        yield ev;
        continue;
      }
      // The counts are judged with the stop event: until then a truncated prompt's usage must not
      // reach the meter, which would take the cut figure for the conversation's size.
      if (ev.type === 'usage') {
        held.push(ev);
        continue;
      }
      if (ev.type === 'text_delta' && shape !== 'text') {
        heldText.push(ev.text);
        shape = callShapedStart(heldText.join(''));
        if (shape === 'text') yield { type: 'text_delta', text: heldText.splice(0).join('') };
        continue;
      }
      if (ev.type !== 'stop') {
        yield ev;
        continue;
      }
      const reported = ev.usage.input + ev.usage.cacheRead + ev.usage.cacheWrite;
      if (looksTruncated(estimate.textTokens, reported, before)) throw truncatedError(local, reported, estimate.textTokens);
      if (reported > 0) before = { estimated: estimate.textTokens, reported };
      yield* held;
      yield* takeTextCalls(ev, request, heldText.join(''), log);
    }
  }
  return { stream };
}

function refuseOversized(local: LocalServerGuard, request: ModelRequest, tokens: number): void {
  const reserve = Math.min(request.maxTokens, REPLY_FLOOR);
  if (tokens + reserve <= local.window) return;
  throw new ProviderError(
    'bad_request',
    `Not sent: the prompt is about ${formatCount(tokens)} tokens and does not fit the ${formatCount(local.window)}-token window of ${local.server} ` +
      `even after offloading (with ${reserve} tokens left for the reply). ${local.fix}; or shrink the conversation with /compact or /clear.`,
  );
}

function truncatedError(local: LocalServerGuard, reported: number, estimated: number): ProviderError {
  return new ProviderError(
    'bad_request',
    `${local.server} cut the prompt to ${formatCount(reported)} tokens: it evaluated ${formatCount(reported)} of the about ${formatCount(estimated)} sent, ` +
      `dropping the start (instructions, tools, earlier turns), so its reply was not acted on. ${local.fix}.`,
  );
}

/**
 * The stop event, or — when the whole answer is tool calls written as text — the calls it holds.
 * `held` is answer text not shown yet: shown now unless it turned out to be calls.
 */
function* takeTextCalls(stop: Extract<StreamEvent, { type: 'stop' }>, request: ModelRequest, held: string, log?: (line: string) => void): Generator<StreamEvent> {
  const message = stop.message;
  const text = message.content.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join('');
  const hasCalls = message.content.some((b) => b.type === 'tool_use');
  const found = stop.reason === 'end_turn' && !hasCalls && text && request.tools.length > 0 ? findTextToolCalls(text, new Set(request.tools.map((t) => t.name))) : undefined;
  if (!found) {
    if (held) yield { type: 'text_delta', text: held };
    yield stop;
    return;
  }
  const repaired = found.repairs.length > 0 ? `, repaired: ${found.repairs.join(', ')}` : '';
  log?.(`took ${found.calls.length} tool call${found.calls.length === 1 ? '' : 's'} written in the answer text as ${found.shape}${repaired}`);
  const blocks: ContentBlock[] = message.content.filter((b) => b.type !== 'text');
  const calls = found.calls.map((c) => ({ type: 'tool_use' as const, id: generateToolId(), name: c.name, input: c.input }));
  for (const [i, c] of calls.entries()) {
    yield { type: 'tool_call_start', index: i, id: c.id, name: c.name };
    yield { type: 'tool_call_end', index: i, id: c.id, name: c.name, input: c.input };
  }
  const rewritten: AssistantMessage = { ...message, content: [...blocks, ...calls] };
  yield { type: 'stop', reason: 'tool_use', message: rewritten, usage: stop.usage };
}
