/**
 * Turns a ScriptedReply into the SSE events a real server of each format would send, with text,
 * reasoning and tool arguments cut into small deltas.
 */
import type { Usage } from '../../src/providers/types.js';
import type { OpenAiReasoningField, ScriptedReply } from './fake-provider.js';

export interface SseEvent {
  readonly event?: string;
  readonly data: string;
  /** Part of the end marker (message_stop; openai finish chunk, usage chunk and [DONE]). */
  readonly terminal?: boolean;
}

const PIECE_SIZES = [3, 1, 5, 2, 7, 4];

/**
 * Cuts text into small pieces of varying size, on code-point boundaries; with `size` (a reply's
 * pieceChars), into pieces of about that many UTF-16 units, for replies of many megabytes.
 */
export function pieces(text: string, size?: number): string[] {
  if (size !== undefined && size > 0) return evenPieces(text, size);
  const chars = Array.from(text);
  const out: string[] = [];
  let i = 0;
  let k = 0;
  while (i < chars.length) {
    const n = PIECE_SIZES[k++ % PIECE_SIZES.length] ?? 3;
    out.push(chars.slice(i, i + n).join(''));
    i += n;
  }
  return out;
}

function evenPieces(text: string, size: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; ) {
    let end = Math.min(text.length, i + size);
    // Never split a surrogate pair.
    const last = text.charCodeAt(end - 1);
    if (end < text.length && last >= 0xd800 && last <= 0xdbff) end++;
    out.push(text.slice(i, end));
    i = end;
  }
  return out;
}

/** Raw argument text of a scripted call: a string is sent as-is (to script invalid JSON). */
export function argumentText(input: unknown): string {
  return typeof input === 'string' ? input : JSON.stringify(input ?? {});
}

function fullUsage(u: Partial<Usage> | undefined): Usage {
  return { input: u?.input ?? 10, cacheRead: u?.cacheRead ?? 0, cacheWrite: u?.cacheWrite ?? 0, output: u?.output ?? 5 };
}

function stopOf(reply: ScriptedReply): 'end_turn' | 'tool_use' | 'max_tokens' {
  return reply.stop ?? (reply.toolCalls && reply.toolCalls.length > 0 ? 'tool_use' : 'end_turn');
}

function toolId(reply: ScriptedReply, i: number, prefix: string): string {
  return reply.toolCalls?.[i]?.id ?? `${prefix}${String(i + 1).padStart(4, '0')}`;
}

export function anthropicEvents(reply: ScriptedReply, model: string): SseEvent[] {
  const usage = fullUsage(reply.usage);
  const startUsage = reply.omitUsage
    ? undefined
    : (reply.wireUsage ?? {
        input_tokens: usage.input,
        cache_creation_input_tokens: usage.cacheWrite,
        cache_read_input_tokens: usage.cacheRead,
        output_tokens: 1,
      });
  const endUsage = reply.omitUsage
    ? undefined
    : (reply.wireUsage ?? {
        input_tokens: usage.input,
        cache_creation_input_tokens: usage.cacheWrite,
        cache_read_input_tokens: usage.cacheRead,
        output_tokens: usage.output,
      });
  const zero = reply.duplicateBlocks === 'zero';
  const ev = (type: string, body: Record<string, unknown>, terminal = false): SseEvent => ({
    event: type,
    data: JSON.stringify({ type, ...body }),
    terminal,
  });
  const out: SseEvent[] = [];
  out.push(
    ev('message_start', {
      message: {
        id: 'msg_fake01',
        type: 'message',
        role: 'assistant',
        model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        ...(startUsage ? { usage: startUsage } : {}),
      },
    }),
  );
  let index = 0;
  const next = (): void => {
    if (!zero) index++;
  };
  if (reply.redactedThinking !== undefined) {
    out.push(ev('content_block_start', { index, content_block: { type: 'redacted_thinking', data: reply.redactedThinking } }));
    out.push(ev('content_block_stop', { index }));
    next();
  }
  if (reply.thinking !== undefined) {
    out.push(ev('content_block_start', { index, content_block: { type: 'thinking', thinking: '', signature: '' } }));
    out.push({ event: 'ping', data: '{"type": "ping"}' });
    for (const p of pieces(reply.thinking, reply.pieceChars)) {
      out.push(ev('content_block_delta', { index, delta: { type: 'thinking_delta', thinking: p } }));
    }
    const signature = reply.signature ?? 'fakeSig+/0123456789abcdef==';
    if (signature !== '') out.push(ev('content_block_delta', { index, delta: { type: 'signature_delta', signature } }));
    out.push(ev('content_block_stop', { index }));
    next();
  }
  if (reply.text !== undefined) {
    const deltas = pieces(reply.text, reply.pieceChars).map((p) => ev('content_block_delta', { index, delta: { type: 'text_delta', text: p } }));
    // A loop, not a spread: a reply of many megabytes has more deltas than a call takes arguments.
    const block = (): void => {
      out.push(ev('content_block_start', { index, content_block: { type: 'text', text: '' } }));
      for (const d of deltas) out.push(d);
      out.push(ev('content_block_stop', { index }));
    };
    block();
    // Proxies seen replaying a block: whole under the same index, or only its deltas after the stop.
    if (reply.duplicateBlocks === 'replay') block();
    if (reply.duplicateBlocks === 'late_deltas') for (const d of deltas) out.push(d);
    next();
  }
  (reply.toolCalls ?? []).forEach((call, i) => {
    const id = toolId(reply, i, 'toolu_fake');
    out.push(ev('content_block_start', { index, content_block: { type: 'tool_use', id, name: call.name, input: {} } }));
    out.push(ev('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: '' } }));
    for (const p of pieces(argumentText(call.input), reply.pieceChars)) {
      out.push(ev('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: p } }));
    }
    out.push(ev('content_block_stop', { index }));
    next();
  });
  // Cumulative totals, input repeated as some servers do: a client that adds instead of
  // overwriting double-counts and its tests fail.
  // A refusal (documented shape): stop_reason "refusal" with stop_details saying why.
  const delta =
    reply.refusal !== undefined
      ? { stop_reason: 'refusal', stop_sequence: null, stop_details: { type: 'refusal', category: 'policy', explanation: reply.refusal } }
      : { stop_reason: stopOf(reply), stop_sequence: null };
  out.push(ev('message_delta', { delta, ...(endUsage ? { usage: endUsage } : {}) }));
  out.push(ev('message_stop', {}, true));
  return out;
}

export function openaiEvents(
  reply: ScriptedReply,
  model: string,
  reasoningField: OpenAiReasoningField,
  includeUsage: boolean,
): SseEvent[] {
  const usage = fullUsage(reply.usage);
  const q = reply.quirks ?? {};
  const base = { id: 'chatcmpl-fake01', object: 'chat.completion.chunk', created: 1767225600, model };
  const chunk = (delta: Record<string, unknown>, finish: string | null = null, extra: Record<string, unknown> = {}): SseEvent => ({
    data: JSON.stringify({ ...base, choices: [{ index: 0, delta, finish_reason: finish }], usage: null, ...extra }),
  });
  const out: SseEvent[] = [];
  if (q.emptyChoicesFirst) out.push({ data: JSON.stringify({ ...base, id: '', model: '', choices: [], prompt_filter_results: [] }) });
  out.push(chunk({ role: 'assistant', content: '' }));
  if (reply.contentParts) {
    // Mistral's reasoning models: content arrays; the last thinking part shares a chunk with the
    // first text part, and the rest of the answer comes as plain strings.
    const thoughts = pieces(reply.thinking ?? '');
    const words = pieces(reply.text ?? '');
    const thinkingPart = (p: string) => ({ type: 'thinking', thinking: [{ type: 'text', text: p }], closed: true });
    thoughts.slice(0, -1).forEach((p) => out.push(chunk({ content: [thinkingPart(p)] })));
    const lastThought = thoughts.at(-1);
    const firstWord = words[0];
    const mixed = [...(lastThought ? [thinkingPart(lastThought)] : []), ...(firstWord ? [{ type: 'text', text: firstWord }] : [])];
    if (mixed.length > 0) out.push(chunk({ content: mixed }));
    words.slice(1).forEach((p) => out.push(chunk({ content: p })));
  } else if (reply.thinking !== undefined) {
    for (const p of pieces(reply.thinking, reply.pieceChars)) {
      if (reasoningField === 'reasoning_details') {
        out.push(chunk({ content: null, reasoning: p, reasoning_details: [{ type: 'reasoning.text', text: p, format: 'unknown', index: 0 }] }));
      } else out.push(chunk({ content: null, [reasoningField]: p }));
    }
  }
  if (reply.text !== undefined && !reply.contentParts) for (const p of pieces(reply.text, reply.pieceChars)) out.push(chunk({ content: p }));
  if (reply.refusal !== undefined) for (const p of pieces(reply.refusal)) out.push(chunk({ content: null, refusal: p }));
  (reply.toolCalls ?? []).forEach((call, i) => {
    const id = q.omitToolIds ? undefined : toolId(reply, i, 'call_fake');
    const args = argumentText(call.input);
    const extra = call.extraContent ? { extra_content: call.extraContent } : {};
    if (q.wholeToolCalls || q.argumentsAsObject) {
      const argValue = q.argumentsAsObject && typeof call.input !== 'string' ? call.input : args;
      out.push(chunk({ tool_calls: [{ index: i, id, type: 'function', function: { name: call.name, arguments: argValue }, ...extra }] }));
      return;
    }
    out.push(chunk({ tool_calls: [{ index: i, id, type: 'function', function: { name: call.name, arguments: '' }, ...extra }] }));
    for (const p of pieces(args, reply.pieceChars)) out.push(chunk({ tool_calls: [{ index: i, function: { arguments: p } }] }));
  });
  const stop = stopOf(reply);
  const finish = stop === 'tool_use' ? 'tool_calls' : stop === 'max_tokens' ? 'length' : 'stop';
  const prompt = usage.input + usage.cacheRead + usage.cacheWrite;
  const wireUsage: Record<string, unknown> = reply.wireUsage ?? {
    prompt_tokens: prompt,
    completion_tokens: usage.output,
    total_tokens: prompt + usage.output,
    prompt_tokens_details: { cached_tokens: usage.cacheRead, ...(usage.cacheWrite ? { cache_write_tokens: usage.cacheWrite } : {}) },
  };
  if (q.deepseekUsage && !reply.omitUsage) {
    if (!reply.wireUsage) {
      wireUsage['prompt_cache_hit_tokens'] = usage.cacheRead;
      wireUsage['prompt_cache_miss_tokens'] = usage.input + usage.cacheWrite;
    }
    out.push({ ...chunk({ content: '', reasoning_content: null }, finish, { usage: wireUsage }), terminal: true });
  } else {
    out.push({ ...chunk({}, finish), terminal: true });
    if (includeUsage && !reply.omitUsage) out.push({ data: JSON.stringify({ ...base, choices: [], usage: wireUsage }), terminal: true });
  }
  if (!q.omitDone) out.push({ data: '[DONE]', terminal: true });
  return out;
}
