/** The context meter's numbers and bar. Pure, so tests can check it without rendering. */
import type { ContextGauge } from '../../src/agent/state.js';

export interface MeterReading {
  /** The window's fill. */
  readonly bar: string;
  /** How full the context window is, in percent. */
  readonly percent: number;
  /** Where compaction starts, in percent of the window. */
  readonly compactionPercent: number;
  /** "6% of 200k · compaction at 75%": the fill, and where compaction starts (not the distance to it). */
  readonly label: string;
  /** Colour by how close the fill is to the compaction point. */
  readonly level: 'ok' | 'warn' | 'high';
}

/** 200000 as "200k", 1048576 as "1M": a window's size at a glance. */
export function shortTokens(n: number): string {
  if (n >= 1_000_000) return `${Math.round(n / 100_000) / 10}M`;
  if (n >= 1_000) return `${Math.round(n / 1_000)}k`;
  return String(Math.round(n));
}

export function readMeter(gauge: ContextGauge, barWidth: number): MeterReading {
  // The same figures as /context (src/context/format-context-panel.ts), rounded the same way.
  const fill = gauge.window > 0 ? gauge.usedTokens / gauge.window : 0;
  const percent = Math.max(0, Math.round(fill * 100));
  const compactionPercent = gauge.window > 0 ? Math.round((gauge.threshold / gauge.window) * 100) : 0;
  const filled = Math.min(barWidth, Math.max(0, Math.round(Math.min(1, fill) * barWidth)));
  const bar = '█'.repeat(filled) + '·'.repeat(barWidth - filled);
  const toward = gauge.threshold > 0 ? gauge.usedTokens / gauge.threshold : 0;
  const level = toward >= 0.85 ? 'high' : toward >= 0.6 ? 'warn' : 'ok';
  return { bar, percent, compactionPercent, label: `${percent}% of ${shortTokens(gauge.window)} · compaction at ${compactionPercent}%`, level };
}

/**
 * 1234567 as "1,234,567". Not toLocaleString: its first call loads ICU's locale data, ~30 ms on
 * the path to the first frame.
 */
export function formatTokens(n: number): string {
  const rounded = Math.round(n);
  const digits = String(Math.abs(rounded)).replace(/\B(?=(\d{3})+$)/g, ',');
  return rounded < 0 ? `-${digits}` : digits;
}

export function formatCost(cost: number): string {
  return cost < 0.01 ? `$${cost.toFixed(4)}` : `$${cost.toFixed(2)}`;
}
