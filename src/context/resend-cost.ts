/**
 * What re-sending the conversation costs once the provider's cache no longer holds it — after a
 * summary rewrote its start, or to a model whose cache never saw it — in the preset's own prices,
 * beside what a request costs while the cache holds it. One wording for the notice before an
 * automatic summary, /compact, and /model, so the three never disagree.
 */
import type { Preset } from '../config/types.js';
import { cacheWritePrice } from '../providers/cost.js';
import { promptCacheFor } from '../providers/anthropic-cache.js';
import { isDeepSeek } from '../providers/anthropic-models.js';
import { formatCount, formatDollars } from './format-count.js';
import type { SummaryPlan } from './types.js';

const PER = 1_000_000;

/** Dollars per token for a prompt the cache does not hold (cold), one it does (warm), and output. */
export interface ResendRates {
  readonly cold: number;
  readonly warm: number;
  readonly output: number;
}

type PricedPreset = Pick<Preset, 'name' | 'format' | 'baseUrl' | 'model' | 'prices' | 'promptCache' | 'cacheTtl'>;

/**
 * Cold: with cache breakpoints (Claude) a prompt is written to the cache, at the write price;
 * elsewhere it is billed as fresh input (DeepSeek's cache miss, OpenAI's automatic caching).
 * Warm: the cache-read price, except on an Anthropic-format endpoint that caches nothing
 * (breakpoints off, not DeepSeek), where every request is fresh input.
 */
export function resendRates(preset: PricedPreset): ResendRates | undefined {
  const prices = preset.prices;
  if (!prices) return undefined;
  const breakpoints = promptCacheFor(preset) !== undefined;
  const cold = breakpoints ? cacheWritePrice(prices, preset) : prices.input;
  const uncached = preset.format === 'anthropic' && !breakpoints && !isDeepSeek(preset.baseUrl, preset.model);
  const warm = uncached ? prices.input : (prices.cacheRead ?? prices.input);
  return { cold: cold / PER, warm: warm / PER, output: prices.output / PER };
}

/** A summary's usual length, for the estimate made before it exists. */
export function expectedSummaryTokens(olderTokens: number, maxTokens: number): number {
  return Math.min(maxTokens, 3_000, Math.max(300, Math.round(olderTokens / 20)));
}

export interface CompactionEstimate {
  /** The conversation after the summary, as the next request sends it. */
  readonly tokensAfter: number;
  /** That request, cold; the summary request itself; a request after that, warm; a request now, warm. Null without prices. */
  readonly coldAfter: number | null;
  readonly summaryRequest: number | null;
  readonly warmAfter: number | null;
  readonly warmNow: number | null;
}

export function estimateCompaction(plan: SummaryPlan, preset: PricedPreset, summaryTokens: number): CompactionEstimate {
  const tokensAfter = plan.prefixTokens + summaryTokens + plan.keptTokens;
  const r = resendRates(preset);
  if (!r) return { tokensAfter, coldAfter: null, summaryRequest: null, warmAfter: null, warmNow: null };
  return {
    tokensAfter,
    coldAfter: tokensAfter * r.cold,
    // It re-reads the cached prefix and the older part, then writes the summary.
    summaryRequest: (plan.prefixTokens + plan.olderTokens) * r.warm + summaryTokens * r.output,
    warmAfter: tokensAfter * r.warm,
    warmNow: plan.usedTokens * r.warm,
  };
}

const noPrices = (preset: PricedPreset): string => `preset ${preset.name} has no prices, so no cost is shown`;

/** The sentence about money, for the notice before a summary (and /compact after one). */
export function describeResend(tokensAfter: number, tokensNow: number, preset: PricedPreset, summaryRequest?: number | null): string {
  const r = resendRates(preset);
  const size = `Afterwards the conversation is about ${formatCount(tokensAfter)} tokens (now ${formatCount(tokensNow)}), sent once without cache`;
  if (!r) return `${size}; ${noPrices(preset)}.`;
  const summary = summaryRequest === undefined || summaryRequest === null ? '' : ` (the summary request itself ≈ ${formatDollars(summaryRequest)})`;
  // Where a cached prompt costs what a fresh one does (no cache, or no cache-read price), there is
  // no cheaper "from cache" to promise.
  const later = r.warm < r.cold ? 'a request from cache' : 'a request after that (no cheaper cached rate in these prices)';
  return (
    `${size}: ≈ ${formatDollars(tokensAfter * r.cold)}${summary}, then ≈ ${formatDollars(tokensAfter * r.warm)} ${later}, ` +
    `against ≈ ${formatDollars(tokensNow * r.warm)} a request now (${preset.name}'s prices).`
  );
}

/** The notice before an automatic summary: what happens, what it costs, what the choices mean. */
export function describeCompaction(plan: SummaryPlan, preset: PricedPreset, summaryTokens: number): string[] {
  const e = estimateCompaction(plan, preset, summaryTokens);
  const turns = plan.olderTurns === 1 ? '1 turn' : `${plan.olderTurns} turns`;
  return [
    `The context is at ${formatCount(plan.usedTokens)} of ${formatCount(plan.window)} tokens. To free room, the earlier conversation ` +
      `(${plan.olderMessages} messages in ${turns}, about ${formatCount(plan.olderTokens)} tokens) is about to be summarized; ` +
      'those turns are archived word for word, and recall can search them.',
    describeResend(e.tokensAfter, plan.usedTokens, preset, e.summaryRequest),
  ];
}

/** Before /model switches: the new model's cache has never seen this conversation. */
export function describeSwitch(tokens: number, from: PricedPreset, to: PricedPreset): string {
  const size = `The next request re-sends the conversation (about ${formatCount(tokens)} tokens) to ${to.name} without cache`;
  const next = resendRates(to);
  const now = resendRates(from);
  if (!next) return `${size}; ${noPrices(to)}.`;
  const against = now ? `, against ≈ ${formatDollars(tokens * now.warm)} from cache on ${from.name}` : '';
  return `${size}: ≈ ${formatDollars(tokens * next.cold)} at ${to.name}'s prices${against}.`;
}
