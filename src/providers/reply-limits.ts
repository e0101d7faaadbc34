/**
 * What a stream must do to count as alive and how much of it a reply may be: comments and
 * pings keep a connection open but are not an answer; a reply past max_reply_bytes is a runaway
 * (an endless stream once grew a process to 2.7 GB, and the session could not be saved).
 */
import type { SseMessage } from './sse-reader.js';
import { ProviderError, type AssistantMessage, type StreamEvent } from './types.js';

/** The default of max_reply_bytes (config/defaults.ts), for callers that give none. */
export const DEFAULT_MAX_REPLY_BYTES = 8 * 1024 * 1024;

/** Anthropic's keep-alive event: like a comment, a sign of a connection, not of an answer. */
export function isPing(msg: SseMessage): boolean {
  return msg.event === 'ping' || /^\s*\{\s*"type"\s*:\s*"ping"\s*\}\s*$/.test(msg.data);
}

/** The bytes of answer, reasoning or arguments an event adds. */
export function replyBytes(ev: StreamEvent): number {
  if (ev.type === 'text_delta' || ev.type === 'thinking_delta') return Buffer.byteLength(ev.text, 'utf8');
  if (ev.type === 'tool_call_delta') return Buffer.byteLength(ev.fragment, 'utf8');
  return 0;
}

export function formatBytes(n: number): string {
  const mib = 1024 * 1024;
  if (n >= mib) return n % mib === 0 ? `${n / mib} MiB` : `${(n / mib).toFixed(1)} MiB`;
  return n >= 1024 ? `${Math.round(n / 1024)} KiB` : `${n} bytes`;
}

export function tooLarge(max: number, partial: AssistantMessage | undefined): ProviderError {
  return new ProviderError(
    'too_large',
    `The reply was cut off: it passed max_reply_bytes (${formatBytes(max)} of answer, reasoning and tool arguments), ` +
      'so the stream was stopped. What arrived before is kept; raise max_reply_bytes if such a long reply is expected.',
    undefined,
    partial,
  );
}
