/**
 * The status line's parts as styled segments. Pure: the StatusLine component renders them (each
 * part in its own memoised component, so streaming text re-renders none of them), and the early
 * first frame (first-frame.ts) renders the same segments before Ink is loaded.
 */
import type { BudgetGauge, BudgetReading, ContextGauge, SessionState } from '../../src/agent/state.js';
import type { Segment } from '../text/styled-line.js';
import { formatCost, formatTokens, readMeter } from './context-meter.js';

const METER_COLORS = { ok: 'green', warn: 'yellow', high: 'red' } as const;

export function meterBarWidth(width: number): number {
  return width >= 100 ? 20 : width >= 60 ? 10 : 5;
}

export function meterSegments(gauge: ContextGauge, barWidth: number): Segment[] {
  const reading = readMeter(gauge, barWidth);
  return [
    { text: reading.bar, style: { color: METER_COLORS[reading.level] } },
    { text: ` ${reading.label}` },
    { text: ` (${formatTokens(gauge.usedTokens)} tokens${gauge.measured ? '' : ', estimated'})`, style: { dim: true } },
  ];
}

/**
 * `unreported`: requests of the session whose server sent no usage. Their tokens are unknown, so
 * they are said to be, never shown as 0 or folded silently into a cost that looks complete.
 */
export function usageText(last: SessionState['lastUsage'], cost: number | null, unreported = 0): string {
  const parts: string[] = [];
  if (last?.unreported) parts.push('last: usage not reported');
  else if (last !== null) parts.push(`last ${formatTokens(last.input + last.cacheRead + last.cacheWrite)} in · ${formatTokens(last.output)} out`);
  if (cost !== null) parts.push(unreported > 0 ? `${formatCost(cost)} + usage not reported` : formatCost(cost));
  return parts.length > 0 ? ` · ${parts.join(' · ')}` : '';
}

/** 1,200 / 12k / 1.5M: a budget's figures must fit beside the meter. */
function shortTokens(n: number): string {
  if (n < 10_000) return formatTokens(n);
  if (n < 1_000_000) return `${Math.round(n / 1000)}k`;
  return `${(n / 1_000_000).toFixed(1).replace(/\.0$/, '')}M`;
}

/**
 * Spend against each budget that is set: "turn $0.12/$0.50, 12k/100k tok · session $1.20/$5.00".
 * A dollar figure nobody knows (no prices) shows as "?".
 */
export function budgetText(gauge: BudgetGauge | undefined): string {
  if (!gauge) return '';
  const money = (r: BudgetReading): string => `${r.spent === null ? '?' : formatCost(r.spent)}/${formatCost(r.limit)}`;
  const turn: string[] = [];
  if (gauge.turnCost) turn.push(money(gauge.turnCost));
  if (gauge.turnTokens) turn.push(`${shortTokens(gauge.turnTokens.spent ?? 0)}/${shortTokens(gauge.turnTokens.limit)} tok`);
  const parts = [...(turn.length ? [`turn ${turn.join(', ')}`] : []), ...(gauge.sessionCost ? [`session ${money(gauge.sessionCost)}`] : [])];
  return parts.length ? ` · ${parts.join(' · ')}` : '';
}

/** A budget at or past 80% shows in the warning colour. */
export function budgetLevel(gauge: BudgetGauge | undefined): 'ok' | 'warn' {
  const readings = [gauge?.turnCost, gauge?.sessionCost, gauge?.turnTokens];
  return readings.some((r) => r && r.spent !== null && r.spent >= r.limit * 0.8) ? 'warn' : 'ok';
}

export function indexingText(indexing: NonNullable<SessionState['indexing']>): string {
  return ` · indexing ${indexing.done}/${indexing.total}`;
}

export function busyText(seconds: number): string {
  return ` · working ${seconds}s (Ctrl+C stops)`;
}

/** Kept in sight until a save works again: what is on screen is not on disk. */
export const NOT_SAVED_TEXT = ' · ⚠ session not saved';
export const NOT_SAVED_STYLE = { color: 'red', bold: true } as const;

/** While the session is assembled: nothing runs yet that Ctrl+C could stop. */
export const STARTING_TEXT = ' · starting…';

export const BUSY_STYLE = { color: 'yellow' } as const;
export const HINT_STYLE = { color: 'cyan' } as const;
