/**
 * Token estimates for content the provider has not measured yet. Deliberately simple: a
 * tokenizer per model would be a dependency and still wrong for the next model. The figures are
 * replaced by the provider's measured usage as soon as a request has been sent.
 */
import type { ContentBlock, Message, ToolSchema } from '../providers/types.js';
import { jsonPieces } from '../io/json-pieces.js';

/** A vision model bills an image by its pixels, not its base64 size; this is the usual cap. */
export const IMAGE_TOKENS = 1_600;
/** Role markers and block framing that every message costs on the wire. */
const MESSAGE_OVERHEAD = 4;
const BLOCK_OVERHEAD = 3;

/**
 * ASCII text runs at about four characters a token; anything else (CJK, emoji, accented text)
 * at about one a character, so counting it as ASCII would undercount it fourfold.
 */
export function estimateText(text: string): number {
  const counts = { ascii: 0, other: 0 };
  countChars(text, counts);
  return Math.ceil(counts.ascii / 4 + counts.other);
}

function countChars(text: string, counts: { ascii: number; other: number }): void {
  let ascii = 0;
  let other = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 128) ascii++;
    // A surrogate pair is one character: count each half as half.
    else if (code >= 0xd800 && code <= 0xdfff) other += 0.5;
    else other++;
  }
  counts.ascii += ascii;
  counts.other += other;
}

/**
 * JSON is dense in punctuation, each of which tends to be a token of its own. Counted over the
 * JSON in pieces: a write_file call's arguments may be megabytes.
 */
export function estimateJson(value: unknown): number {
  const counts = { ascii: 0, other: 0 };
  for (const piece of jsonPieces(value)) countChars(piece, counts);
  return Math.ceil(Math.ceil(counts.ascii / 4 + counts.other) * 1.3);
}

export function estimateBlock(block: ContentBlock): number {
  switch (block.type) {
    case 'text':
      return BLOCK_OVERHEAD + estimateText(block.text);
    case 'thinking':
      return BLOCK_OVERHEAD + estimateText(block.thinking);
    case 'redacted_thinking':
      return BLOCK_OVERHEAD + Math.ceil(block.data.length / 4);
    case 'tool_use':
      return BLOCK_OVERHEAD + estimateText(block.name) + estimateJson(block.input) + 6;
    case 'tool_result':
      return BLOCK_OVERHEAD + estimateText(block.content) + (block.images?.length ?? 0) * IMAGE_TOKENS + 6;
    case 'image':
      return IMAGE_TOKENS;
  }
}

// Messages are immutable, so each one's estimate is computed once (1,000-message histories are
// estimated before every request).
const cache = new WeakMap<Message, number>();

export function estimateMessage(message: Message): number {
  const known = cache.get(message);
  if (known !== undefined) return known;
  let total = MESSAGE_OVERHEAD;
  for (const block of message.content) total += estimateBlock(block);
  // OpenAI-format reasoning goes back with the turn (DeepSeek, Kimi): often the largest part of it.
  if (message.role === 'assistant' && message.reasoningEcho) {
    const { value } = message.reasoningEcho;
    total += typeof value === 'string' ? estimateText(value) : estimateJson(value);
  }
  cache.set(message, total);
  return total;
}

export function estimateMessages(messages: readonly Message[]): number {
  let total = 0;
  for (const m of messages) total += estimateMessage(m);
  return total;
}

export function estimateTools(tools: readonly ToolSchema[]): number {
  let total = 0;
  for (const t of tools) total += estimateText(t.name) + estimateText(t.description) + estimateJson(t.inputSchema) + 8;
  return total;
}
