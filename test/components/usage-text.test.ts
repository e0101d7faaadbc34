import { describe, expect, it } from 'vitest';
import { usageText } from '../../components/status/status-segments.js';

describe('the status line for usage a server never reported', () => {
  it('says "usage not reported" instead of 0 tokens, and never shows an unknown cost as complete', () => {
    const unknown = { input: 0, cacheRead: 0, cacheWrite: 0, output: 0, unreported: 1 };
    expect(usageText(unknown, null, 1)).toBe(' · last: usage not reported');
    expect(usageText(unknown, 0.42, 1)).toBe(' · last: usage not reported · $0.42 + usage not reported');
    expect(usageText({ input: 1200, cacheRead: 0, cacheWrite: 0, output: 30 }, 0.42, 0)).not.toMatch(/not reported/);
  });
});
