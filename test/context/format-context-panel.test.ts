import { describe, expect, it } from 'vitest';
import { compactionPercent, formatContextPanel, meterBar, percentOfWindow } from '../../src/context/format-context-panel.js';
import type { ContextStats } from '../../src/context/types.js';

const base: ContextStats = {
  usedTokens: 16_240,
  measured: true,
  estimatedTokens: 0,
  window: 1_000_000,
  threshold: 200_000,
  messages: 24,
  outputTokens: 3_120,
  cacheReadTokens: 142_880,
  inputTokensTotal: 152_000,
  offloadedCount: 3,
  offloadedBytes: 131_072,
};

describe('/context panel', () => {
  it('shows the meter, the source of the figure, window, reclaim point, cache share and offloads', () => {
    expect(formatContextPanel(base)).toEqual([
      '█·······················  2% of 1,000,000 · compaction at 20%  (16,240 tokens, measured)',
      'window 1,000,000 · reclaims at 200,000',
      'messages: 24   output so far: 3,120 tokens',
      'served from cache: 142,880 input tokens (94% of input)',
      'offloaded: 3 result(s), 128 KB on disk',
    ]);
  });

  it('says when the figure is estimated, or partly estimated, and when nothing was sent or offloaded', () => {
    const fresh = formatContextPanel({ ...base, measured: false, estimatedTokens: 900, usedTokens: 900, inputTokensTotal: 0, cacheReadTokens: 0, offloadedCount: 0, offloadedBytes: 0, protectedTokens: 50_000 });
    expect(fresh[0]).toMatch(/\(900 tokens, estimated\)$/);
    expect(fresh[3]).toBe('served from cache: nothing sent yet');
    expect(fresh[4]).toBe('offloaded: none');
    expect(fresh[5]).toBe('protected: the last 50,000 tokens are never reclaimed');
    expect(formatContextPanel({ ...base, estimatedTokens: 1_200 })[0]).toMatch(/\(16,240 tokens, measured \+ 1,200 estimated\)$/);
  });

  it('fills the bar in proportion, with one cell for any use and a full bar past the reclaim point', () => {
    expect(meterBar(0)).toBe('·'.repeat(24));
    expect(meterBar(1)).toBe('█' + '·'.repeat(23));
    expect(meterBar(50)).toBe('█'.repeat(12) + '·'.repeat(12));
    expect(meterBar(130)).toBe('█'.repeat(24));
    expect(percentOfWindow({ usedTokens: 150_000, window: 200_000 })).toBe(75);
    expect(compactionPercent({ threshold: 150_000, window: 200_000 })).toBe(75);
  });
});

describe('formatCount', () => {
  it('groups digits by thousands as en-US does, without loading ICU', async () => {
    const { formatCount } = await import('../../src/context/format-count.js');
    for (const n of [0, 7, 999, 1000, 12_345, 999_999, 1_000_000, 1_234_567.6, -1234, 1e12]) {
      expect(formatCount(n)).toBe(Math.round(n).toLocaleString('en-US'));
    }
    expect(formatCount(-0.4)).toBe('0');
  });
});
