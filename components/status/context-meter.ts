/** The context meter's numbers and bar. Pure, so tests can check it without rendering. */
import type { ContextGauge } from '../../src/agent/state.js';

export interface MeterReading {
  readonly bar: string;
  /** How far toward the compaction threshold, in percent (may exceed 100 just before reclaiming). */
  readonly percent: number;
  readonly label: string;
  readonly level: 'ok' | 'warn' | 'high';
}

export function readMeter(gauge: ContextGauge, barWidth: number): MeterReading {
  const ratio = gauge.threshold > 0 ? gauge.usedTokens / gauge.threshold : 0;
  const percent = Math.max(0, Math.round(ratio * 100));
  const filled = Math.min(barWidth, Math.max(0, Math.round(Math.min(1, ratio) * barWidth)));
  const bar = '█'.repeat(filled) + '·'.repeat(barWidth - filled);
  const level = percent >= 85 ? 'high' : percent >= 60 ? 'warn' : 'ok';
  return { bar, percent, label: `${percent}% to compaction`, level };
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
