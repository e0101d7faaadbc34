/**
 * The cost thesis on Claude: over a scripted 30-turn session with tool calls, every request after
 * the first reads the whole previous conversation from cache — asserted on what the fake
 * provider's caching model computed, not on the request text — and without breakpoints nothing
 * is read and the session costs several times as much. lindwyrm's own usage and cost agree with
 * the fake's bill.
 */
import { describe, expect, it } from 'vitest';
import { billOf, cacheShare, runCachedSession } from '../support/cached-session.js';

describe('prompt caching over a 30-turn session with tool calls (anthropic format, Claude)', () => {
  it('reads the whole previous conversation from cache on every request after the first', { timeout: 120_000 }, async () => {
    const run = await runCachedSession({ presetToml: 'prompt_cache = true' });
    expect(run.statuses.every((s) => s === 'finished')).toBe(true);
    expect(run.log.length).toBeGreaterThanOrEqual(70); // 30 turns, tool steps included
    const [first, ...rest] = run.log;
    expect(first?.readTokens).toBe(0);
    expect(first?.writeTokens).toBe(first?.totalTokens);
    rest.forEach((o, i) => {
      const previous = run.log[i];
      // Everything the previous request sent is read back; only the new tail is written.
      expect(o.readTokens, `request ${i + 2}`).toBe(previous?.totalTokens);
      expect(o.readBlocks, `request ${i + 2}`).toBe(previous?.blocks);
      expect(o.inputTokens, `request ${i + 2}`).toBe(0);
      expect(o.breakpoints.length).toBeLessThanOrEqual(4);
    });
    // lindwyrm counted what the server billed, and priced it the same way.
    const sum = (k: 'readTokens' | 'writeTokens' | 'inputTokens') => run.log.reduce((n, o) => n + o[k], 0);
    expect(run.usage).toMatchObject({ cacheRead: sum('readTokens'), cacheWrite: sum('writeTokens'), input: sum('inputTokens') });
    expect(run.cost).toBeCloseTo(billOf(run.log, run.usage.output), 9);
    expect(cacheShare(run.log)).toBeGreaterThan(0.9);
  });

  it('without breakpoints (prompt_cache = false) nothing is read and the session costs several times as much', { timeout: 120_000 }, async () => {
    const withMarkers = await runCachedSession({ presetToml: 'prompt_cache = true', turns: 10 });
    const without = await runCachedSession({ presetToml: 'prompt_cache = false', turns: 10 });
    expect(without.log.every((o) => o.readTokens === 0 && o.writeTokens === 0 && o.breakpoints.length === 0)).toBe(true);
    // The same conversation either way.
    expect(without.log.map((o) => o.totalTokens)).toEqual(withMarkers.log.map((o) => o.totalTokens));
    const cheap = billOf(withMarkers.log, withMarkers.usage.output);
    const full = billOf(without.log, without.usage.output);
    expect(full / cheap).toBeGreaterThan(3);
  });

  it('cache_ttl = "1h" keeps the cache across 10-minute pauses between turns, where 5 minutes loses it', { timeout: 120_000 }, async () => {
    const pauses = { turns: 6, turnGapMs: 10 * 60_000 };
    const hour = await runCachedSession({ presetToml: 'prompt_cache = true\ncache_ttl = "1h"', ...pauses });
    const five = await runCachedSession({ presetToml: 'prompt_cache = true', ...pauses });
    expect(cacheShare(hour.log)).toBeGreaterThan(cacheShare(five.log));
    expect(hour.log.slice(1).every((o, i) => o.readTokens === hour.log[i]?.totalTokens)).toBe(true);
    // Writes for the hour cost 2x input: lindwyrm prices them so when no price_cache_write is set.
    expect(hour.cost).toBeCloseTo(billOf(hour.log, hour.usage.output), 9);
  });
});
