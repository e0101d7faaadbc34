/**
 * The /context panel as plain lines of text: pure, so the TUI and one-shot output show the same.
 */
import { formatSize } from './offload-stub.js';
import type { ContextStats } from './types.js';
import { formatCount } from './format-count.js';

const BAR_CELLS = 24;

const num = formatCount;

/** How full the context window is, 0-100: the status line's meter shows the same figure. */
export function percentOfWindow(stats: Pick<ContextStats, 'usedTokens' | 'window'>): number {
  if (stats.window <= 0) return 0;
  return Math.max(0, Math.round((stats.usedTokens / stats.window) * 100));
}

/** Where compaction starts, in percent of the window. */
export function compactionPercent(stats: Pick<ContextStats, 'threshold' | 'window'>): number {
  return stats.window > 0 ? Math.round((stats.threshold / stats.window) * 100) : 0;
}

export function meterBar(percent: number, cells = BAR_CELLS): string {
  const share = Math.max(0, Math.min(100, percent)) / 100;
  // Anything above zero shows at least one cell, so a fresh session does not look empty.
  const filled = percent > 0 ? Math.max(1, Math.round(share * cells)) : 0;
  return '█'.repeat(filled) + '·'.repeat(cells - filled);
}

/** 'measured', 'estimated', or 'measured + 1,200 estimated' when tool results came in since. */
export function sourceLabel(stats: Pick<ContextStats, 'measured' | 'estimatedTokens'>): string {
  if (!stats.measured) return 'estimated';
  const tail = stats.estimatedTokens ?? 0;
  return tail > 0 ? `measured + ${num(tail)} estimated` : 'measured';
}

export function formatContextPanel(stats: ContextStats): string[] {
  const percent = percentOfWindow(stats);
  const cacheShare = stats.inputTokensTotal > 0 ? Math.round((stats.cacheReadTokens / stats.inputTokensTotal) * 100) : 0;
  const lines = [
    `${meterBar(percent)}  ${percent}% of ${num(stats.window)} · compaction at ${compactionPercent(stats)}%  (${num(stats.usedTokens)} tokens, ${sourceLabel(stats)})`,
    `window ${num(stats.window)} · reclaims at ${num(stats.threshold)}`,
    `messages: ${num(stats.messages)}   output so far: ${num(stats.outputTokens)} tokens`,
    stats.inputTokensTotal > 0
      ? `served from cache: ${num(stats.cacheReadTokens)} input tokens (${cacheShare}% of input)`
      : 'served from cache: nothing sent yet',
    stats.offloadedCount > 0
      ? `offloaded: ${stats.offloadedCount} result(s), ${formatSize(stats.offloadedBytes)} on disk`
      : 'offloaded: none',
  ];
  if (stats.archivedTurns) lines.push(`archived: ${stats.archivedTurns} summarized turn(s), word for word; recall searches them`);
  if (stats.protectedTokens !== undefined) lines.push(`protected: the last ${num(stats.protectedTokens)} tokens are never reclaimed`);
  return lines;
}
