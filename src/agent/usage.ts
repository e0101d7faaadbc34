/** Usage arithmetic and cost, per request, turn and session. */
import type { Prices } from '../config/types.js';
import type { Usage } from '../providers/types.js';
import type { PriceSource } from '../providers/cost.js';

export { addUsage } from '../providers/cost.js';

export function subtractUsage(a: Usage, b: Usage): Usage {
  const unreported = (a.unreported ?? 0) - (b.unreported ?? 0);
  return {
    input: a.input - b.input,
    cacheRead: a.cacheRead - b.cacheRead,
    cacheWrite: a.cacheWrite - b.cacheWrite,
    output: a.output - b.output,
    ...(unreported > 0 ? { unreported } : {}),
  };
}

/** Tokens the last request occupied in the window: everything it read plus what it wrote. */
export function contextTokens(u: Usage): number {
  return u.input + u.cacheRead + u.cacheWrite + u.output;
}

export function addCost(a: number | null, b: number | null): number | null {
  if (a === null) return b;
  if (b === null) return a;
  return a + b;
}

export function formatUsage(u: Usage): string {
  const counts = `in ${u.input} · cache read ${u.cacheRead} · cache write ${u.cacheWrite} · out ${u.output}`;
  if (!u.unreported) return counts;
  const requests = u.unreported === 1 ? '1 request' : `${u.unreported} requests`;
  return `${counts} · usage not reported for ${requests}`;
}

/** `source` (the preset) decides price fallbacks, e.g. the cache-write rate when none is set. */
export type CostFn = (usage: Usage, prices?: Prices, source?: PriceSource) => number | null;

/** Where reclaiming starts: the context manager's own rule, min(75% of the window, 200k tokens). */
export { reclaimPoint as reclaimThreshold } from '../context/settings.js';
