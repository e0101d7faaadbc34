/**
 * Dollar cost of a request's usage. Without prices the cost is unknown (null), never a guess.
 */
import type { Prices } from '../config/types.js';
import type { Usage } from './types.js';

const PER = 1_000_000;

export function computeCost(usage: Usage, prices?: Prices): number | null {
  if (!prices) return null;
  // A missing cache price falls back to the input price: overstating is the safer error.
  const cacheRead = prices.cacheRead ?? prices.input;
  const cacheWrite = prices.cacheWrite ?? prices.input;
  return (
    (usage.input * prices.input + usage.cacheRead * cacheRead + usage.cacheWrite * cacheWrite + usage.output * prices.output) / PER
  );
}

export function addUsage(a: Usage, b: Usage): Usage {
  return {
    input: a.input + b.input,
    cacheRead: a.cacheRead + b.cacheRead,
    cacheWrite: a.cacheWrite + b.cacheWrite,
    output: a.output + b.output,
  };
}
