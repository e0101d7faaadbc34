import { describe, expect, it } from 'vitest';
import { addUsage, computeCost } from '../../src/providers/cost.js';
import { backoffMs, isRetryableStatus, retryDelayMs, serverDelayMs } from '../../src/providers/retry.js';
import { mergeAnthropicUsage, openaiUsage } from '../../src/providers/usage.js';
import { ZERO_USAGE } from '../../src/providers/types.js';

describe('retry rules', () => {
  it('retries 408, 409, 429 and every 5xx; not other 4xx; x-should-retry overrides', () => {
    for (const s of [408, 409, 429, 500, 502, 503, 504, 529]) expect(isRetryableStatus(s, {})).toBe(true);
    for (const s of [400, 401, 402, 403, 404, 413, 422]) expect(isRetryableStatus(s, {})).toBe(false);
    expect(isRetryableStatus(503, { 'x-should-retry': 'false' })).toBe(false);
    expect(isRetryableStatus(400, { 'x-should-retry': 'true' })).toBe(true);
  });

  it('reads retry-after-ms, Retry-After seconds and HTTP dates; distrusts absurd values', () => {
    const now = Date.parse('2026-11-30T05:00:00Z');
    expect(serverDelayMs({ 'retry-after-ms': '1234.5' }, now)).toBe(1234.5);
    expect(serverDelayMs({ 'retry-after-ms': '250', 'retry-after': '9' }, now)).toBe(250);
    expect(serverDelayMs({ 'retry-after': '3' }, now)).toBe(3000);
    expect(serverDelayMs({ 'retry-after': 'Mon, 30 Nov 2026 05:00:07 GMT' }, now)).toBe(7000);
    expect(serverDelayMs({ 'retry-after': 'Mon, 30 Nov 2026 04:59:00 GMT' }, now)).toBe(0);
    expect(serverDelayMs({ 'retry-after': '86400' }, now)).toBeUndefined();
    expect(serverDelayMs({ 'retry-after': 'soon' }, now)).toBeUndefined();
    expect(serverDelayMs({ 'retry-after-ms': '-5' }, now)).toBeUndefined();
  });

  it('backs off exponentially with jitter in [0.75, 1] of the step, capped at 16 steps', () => {
    const lo = { baseMs: 500, random: () => 0.9999 };
    const hi = { baseMs: 500, random: () => 0 };
    expect(backoffMs(0, hi)).toBe(500);
    expect(backoffMs(3, hi)).toBe(4000);
    expect(backoffMs(10, hi)).toBe(8000);
    expect(backoffMs(2, lo)).toBeGreaterThan(1500);
    expect(backoffMs(2, lo)).toBeLessThan(1501);
    const seen = new Set(Array.from({ length: 20 }, () => retryDelayMs(1, {}, { baseMs: 100 })));
    expect(seen.size).toBeGreaterThan(1);
    expect(retryDelayMs(1, { 'retry-after': '2' }, { baseMs: 100 })).toBe(2000);
  });
});

describe('usage normalisation and cost', () => {
  it('Anthropic: cumulative counters overwrite, absent ones keep their value', () => {
    const start = mergeAnthropicUsage(ZERO_USAGE, { input_tokens: 800, cache_read_input_tokens: 2000, cache_creation_input_tokens: 50, output_tokens: 1 });
    const delta = mergeAnthropicUsage(start, { output_tokens: 87 });
    expect(delta).toEqual({ input: 800, cacheRead: 2000, cacheWrite: 50, output: 87 });
    expect(mergeAnthropicUsage(delta, { output_tokens: 90, input_tokens: 800 })).toEqual({ input: 800, cacheRead: 2000, cacheWrite: 50, output: 90 });
  });

  it('OpenAI: cached tokens come out of prompt_tokens; DeepSeek hit/miss take precedence', () => {
    expect(openaiUsage({ prompt_tokens: 1200, completion_tokens: 48, prompt_tokens_details: { cached_tokens: 1024 } })).toEqual({
      input: 176,
      cacheRead: 1024,
      cacheWrite: 0,
      output: 48,
    });
    expect(openaiUsage({ prompt_tokens: 900, completion_tokens: 30, prompt_cache_hit_tokens: 768, prompt_cache_miss_tokens: 132 })).toEqual({
      input: 132,
      cacheRead: 768,
      cacheWrite: 0,
      output: 30,
    });
    expect(openaiUsage({ prompt_tokens: 10, completion_tokens: 2 })).toEqual({ input: 10, cacheRead: 0, cacheWrite: 0, output: 2 });
    expect(openaiUsage(null)).toBeUndefined();
  });

  it('computes cost per million tokens, billing each kind at its own price; null without prices', () => {
    const usage = { input: 1_000_000, cacheRead: 2_000_000, cacheWrite: 0, output: 500_000 };
    expect(computeCost(usage, { input: 0.3, cacheRead: 0.006, output: 1.2 })).toBeCloseTo(0.3 + 0.012 + 0.6, 10);
    expect(computeCost(usage, undefined)).toBeNull();
    // No cache price given: charged at the input price, never as free.
    expect(computeCost({ ...ZERO_USAGE, cacheRead: 1_000_000, cacheWrite: 1_000_000 }, { input: 2, output: 8 })).toBe(4);
    expect(addUsage(usage, usage)).toEqual({ input: 2_000_000, cacheRead: 4_000_000, cacheWrite: 0, output: 1_000_000 });
  });
});
