/**
 * Where history may be cut. Both APIs reject a tool call without its result, so the only safe
 * cuts are at the start of a user turn: a user message that is a real prompt, not tool results.
 */
import type { Message } from '../providers/types.js';
import { estimateMessage } from './estimate-tokens.js';

/** A user message that starts a turn (it answers no tool call). */
export function isPrompt(message: Message): boolean {
  return message.role === 'user' && !message.content.some((b) => b.type === 'tool_result');
}

/**
 * Index of the first message of the protected zone: the shortest tail of the conversation holding
 * at least `protectedTokens` tokens. Zero when the whole conversation fits in the zone.
 */
export function protectedStart(messages: readonly Message[], protectedTokens: number): number {
  let tail = 0;
  for (let i = messages.length - 1; i >= 0; i--) {
    tail += estimateMessage(messages[i]!);
    if (tail >= protectedTokens) return i;
  }
  return 0;
}

/**
 * The latest turn boundary at or before `limit` that leaves something older to summarize, or
 * undefined when there is none. The message before it must be the assistant's, so the older part
 * ends on a complete exchange.
 */
export function cutPoint(messages: readonly Message[], limit: number): number | undefined {
  for (let c = Math.min(limit, messages.length - 1); c >= 1; c--) {
    if (isPrompt(messages[c]!) && messages[c - 1]!.role === 'assistant') return c;
  }
  return undefined;
}

/** The calls that the results in message `index` answer: those of the assistant message before it. */
export function callsAnsweredBy(
  messages: readonly Message[],
  index: number,
): Map<string, { name: string; input: Readonly<Record<string, unknown>> }> {
  const calls = new Map<string, { name: string; input: Readonly<Record<string, unknown>> }>();
  const prev = messages[index - 1];
  if (prev?.role !== 'assistant') return calls;
  for (const b of prev.content) if (b.type === 'tool_use') calls.set(b.id, { name: b.name, input: b.input });
  return calls;
}
