/** Token counts and their cost, in the shapes the stream-json lines carry. */
import type { Preset } from '../config/types.js';
import { computeCost } from '../providers/cost.js';
import { ZERO_USAGE, type Usage } from '../providers/types.js';

/** lindwyrm's own names, as --json has them. */
export function jsonUsage(u: Usage): Record<string, number> {
  return { input: u.input, cache_read: u.cacheRead, cache_write: u.cacheWrite, output: u.output };
}

/** Anthropic's (and so Claude Code's) names for the same counts. */
export function usageFields(u: Usage): Record<string, number> {
  return {
    input_tokens: u.input,
    cache_creation_input_tokens: u.cacheWrite,
    cache_read_input_tokens: u.cacheRead,
    output_tokens: u.output,
  };
}

/**
 * What one request cost, part by part: fresh input, cache reads, cache writes, output. Null when
 * the preset has no prices (unknown, never a guess).
 */
export function costSplit(u: Usage, preset: Pick<Preset, 'prices' | 'format' | 'baseUrl' | 'model'>): Record<string, number> | null {
  const part = (p: Partial<Usage>): number | null => computeCost({ ...ZERO_USAGE, ...p }, preset.prices, preset);
  const total = computeCost(u, preset.prices, preset);
  if (total === null) return null;
  return {
    fresh: part({ input: u.input }) ?? 0,
    cache_read: part({ cacheRead: u.cacheRead }) ?? 0,
    cache_write: part({ cacheWrite: u.cacheWrite }) ?? 0,
    output: part({ output: u.output }) ?? 0,
    total,
  };
}
