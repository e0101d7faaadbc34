import { afterEach, describe, expect, it } from 'vitest';
import type { Preset, Prices } from '../../src/config/types.js';
import { cacheWritePrice, computeCost } from '../../src/providers/cost.js';
import type { Usage } from '../../src/providers/types.js';
import { startFakeProvider, type FakeFormat, type FakeProvider } from '../support/fake-provider.js';
import { collect, fakeClient, fakePreset, lastStop, simpleRequest } from '../support/provider-helpers.js';

let fake: FakeProvider | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

/** $3 in, $15 out per million tokens, no cache prices: the case the fallback is for. */
const NO_CACHE_PRICES: Prices = { input: 3, output: 15 };
const ONE_MILLION_WRITES: Partial<Usage> = { input: 0, cacheRead: 0, cacheWrite: 1_000_000, output: 0 };

/** Streams one reply that reports a million cache-write tokens, and prices the usage the client saw. */
async function costOfWrites(format: FakeFormat, overrides: Partial<Preset>, prices?: Prices): Promise<number | null> {
  fake = await startFakeProvider({ format, replies: [{ text: 'ok', usage: ONE_MILLION_WRITES }] });
  const preset = fakePreset(fake, format, overrides);
  const stop = lastStop(await collect(fakeClient(preset).stream(simpleRequest())));
  expect(stop.usage.cacheWrite).toBe(1_000_000);
  return computeCost(stop.usage, prices, preset);
}

describe('cache-write price when the preset sets none', () => {
  it('Anthropic-format Claude endpoint: 1.25× input (the 5-minute write rate)', async () => {
    expect(await costOfWrites('anthropic', { model: 'claude-sonnet-4-6' }, NO_CACHE_PRICES)).toBeCloseTo(3.75, 10);
  });

  it('any other Anthropic-format endpoint that is not DeepSeek bills like Anthropic', async () => {
    expect(await costOfWrites('anthropic', { model: 'glm-5' }, NO_CACHE_PRICES)).toBeCloseTo(3.75, 10);
  });

  it('DeepSeek (Anthropic endpoint, the default preset): no write charge of its own, input price', async () => {
    expect(await costOfWrites('anthropic', { model: 'deepseek-v4-flash' }, NO_CACHE_PRICES)).toBeCloseTo(3, 10);
    expect(cacheWritePrice(NO_CACHE_PRICES, { format: 'anthropic', baseUrl: 'https://api.deepseek.com/anthropic', model: 'claude-opus-4-6' })).toBe(3);
  });

  it('OpenAI format: input price, except a Claude model behind a gateway', async () => {
    expect(await costOfWrites('openai', { model: 'gpt-5' }, NO_CACHE_PRICES)).toBeCloseTo(3, 10);
    expect(await costOfWrites('openai', { model: 'anthropic/claude-sonnet-4.6' }, NO_CACHE_PRICES)).toBeCloseTo(3.75, 10);
  });

  it('an explicit price_cache_write always wins', async () => {
    expect(await costOfWrites('anthropic', { model: 'claude-opus-4-7' }, { ...NO_CACHE_PRICES, cacheWrite: 6 })).toBeCloseTo(6, 10);
  });

  it('without prices the cost stays unknown (null), whatever the endpoint', async () => {
    expect(await costOfWrites('anthropic', { model: 'claude-opus-4-7' }, undefined)).toBeNull();
    expect(computeCost({ input: 5, cacheRead: 5, cacheWrite: 5, output: 5 }, undefined, undefined)).toBeNull();
  });

  it('a caller that names no endpoint keeps the old input-price fallback', () => {
    expect(cacheWritePrice(NO_CACHE_PRICES)).toBe(3);
  });
});
