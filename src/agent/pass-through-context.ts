/**
 * A context manager that keeps everything as it is: used until (or unless) the real one in
 * src/context/ is available. It still does the token accounting the meter needs.
 */
import type { ContextManager, ContextStats } from '../context/types.js';
import type { Message, Usage } from '../providers/types.js';
import { contextTokens } from './usage.js';

export function reclaimThreshold(window: number): number {
  return Math.min(Math.floor(window * 0.75), 200_000);
}

/** Rough tokens of text not yet measured by a provider: about four characters a token. */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

export function createPassThroughContext(window: number): ContextManager {
  let last: Usage | undefined;
  let output = 0;
  let cacheRead = 0;
  let inputTotal = 0;
  const stats = async (messages: readonly Message[], system: string): Promise<ContextStats> => ({
    usedTokens: last ? contextTokens(last) : estimateTokens(system + JSON.stringify(messages)),
    measured: last !== undefined,
    window,
    threshold: reclaimThreshold(window),
    messages: messages.length,
    outputTokens: output,
    cacheReadTokens: cacheRead,
    inputTokensTotal: inputTotal,
    offloadedCount: 0,
    offloadedBytes: 0,
  });
  return {
    onToolResult: async (_tool, content) => content,
    recordUsage(usage) {
      last = usage;
      output += usage.output;
      cacheRead += usage.cacheRead;
      inputTotal += usage.input + usage.cacheRead + usage.cacheWrite;
    },
    beforeRequest: async (messages) => ({ messages, action: 'none' }),
    compact: async (messages) => ({ messages, action: 'none', detail: 'Compaction is not available yet.' }),
    stats,
  };
}
