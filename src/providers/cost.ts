/**
 * Dollar cost of a request's usage. Without prices the cost is unknown (null), never a guess.
 */
import type { CacheTtl, Prices, WireFormat } from '../config/types.js';
import { claudeThinking, isDeepSeek } from './anthropic-models.js';
import type { Usage } from './types.js';

const PER = 1_000_000;

/** What the price fallbacks depend on; a Preset fits. */
export interface PriceSource {
  readonly format: WireFormat;
  readonly baseUrl: string;
  readonly model: string;
  /** The TTL lindwyrm asks for (cache_ttl); writes for the 1-hour cache cost more. */
  readonly cacheTtl?: CacheTtl;
}

/**
 * Anthropic bills a cache write at 1.25× the input price for the 5-minute TTL and 2× for the
 * 1-hour one (per platform.claude.com about-claude/pricing, prompt caching). Every breakpoint
 * of a request carries the preset's cache_ttl, so that TTL is the rate its writes get.
 */
export const ANTHROPIC_CACHE_WRITE_FACTOR = 1.25;
export const ANTHROPIC_CACHE_WRITE_FACTOR_1H = 2;

/**
 * The price per million cache-write tokens when the preset gives none (price_cache_write unset):
 * - DeepSeek (either format): no write charge of its own; a prompt that is not a cache hit is
 *   billed as a cache miss, at the input price (per api-docs.deepseek.com quick_start/pricing).
 * - Other Anthropic-format endpoints: the Anthropic 5-minute write rate above.
 * - OpenAI-format endpoints: OpenAI's automatic caching has no write charge, so the input price;
 *   but a Claude model behind an OpenAI-format gateway keeps Anthropic's write premium (per
 *   openrouter.ai docs/features/prompt-caching, the only such usage that counts writes).
 * - No source known: the input price, as before callers passed one.
 */
export function cacheWritePrice(prices: Prices, source?: PriceSource): number {
  if (prices.cacheWrite !== undefined) return prices.cacheWrite;
  if (!source || isDeepSeek(source.baseUrl, source.model)) return prices.input;
  const anthropicBilled = source.format === 'anthropic' || claudeThinking(source.model) !== undefined;
  if (!anthropicBilled) return prices.input;
  return prices.input * (source.cacheTtl === '1h' ? ANTHROPIC_CACHE_WRITE_FACTOR_1H : ANTHROPIC_CACHE_WRITE_FACTOR);
}

/** Null without prices, and for usage the server never reported: an unknown cost is not $0. */
export function computeCost(usage: Usage, prices?: Prices, source?: PriceSource): number | null {
  if (!prices || (usage.unreported ?? 0) > 0) return null;
  // A missing cache-read price falls back to the input price: overstating is the safer error.
  const cacheRead = prices.cacheRead ?? prices.input;
  const cacheWrite = cacheWritePrice(prices, source);
  return (
    (usage.input * prices.input + usage.cacheRead * cacheRead + usage.cacheWrite * cacheWrite + usage.output * prices.output) / PER
  );
}

export function addUsage(a: Usage, b: Usage): Usage {
  const unreported = (a.unreported ?? 0) + (b.unreported ?? 0);
  return {
    input: a.input + b.input,
    cacheRead: a.cacheRead + b.cacheRead,
    cacheWrite: a.cacheWrite + b.cacheWrite,
    output: a.output + b.output,
    // Absent rather than 0, so usage records of sessions that never met such a server stay as they were.
    ...(unreported > 0 ? { unreported } : {}),
  };
}
