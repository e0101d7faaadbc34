import { describe, expect, it } from 'vitest';
import { RECLAIM_FROM_CHARS, reclaimBefore } from '../../src/io/reclaim-memory.js';
import { parseToolInput } from '../../src/providers/tool-input.js';

describe('a collection before copying a huge tool argument', () => {
  it('parses an argument past the threshold exactly (the collection runs first)', () => {
    const content = 'line with "quotes", a tab\t and é\n'.repeat(Math.ceil(RECLAIM_FROM_CHARS / 30));
    const text = JSON.stringify({ path: 'big.txt', content });
    expect(text.length).toBeGreaterThan(RECLAIM_FROM_CHARS);
    const parsed = parseToolInput(text);
    expect(parsed.inputError).toBeUndefined();
    expect(parsed.input['content']).toBe(content);
    expect(parsed.input['path']).toBe('big.txt');
  });

  it('frees garbage: the heap after it holds less than before it', () => {
    // Garbage of ~40 MB that nothing holds any more; a young-generation pass alone keeps it.
    let junk: string[] | undefined = Array.from({ length: 1200 }, (_, i) => `${i}`.padEnd(32_000, 'x'));
    junk = undefined;
    const before = process.memoryUsage().heapUsed;
    reclaimBefore(RECLAIM_FROM_CHARS);
    expect(process.memoryUsage().heapUsed).toBeLessThan(before - 20_000_000);
    expect(junk).toBeUndefined();
  });

  it('does nothing below the threshold', () => {
    expect(() => reclaimBefore(RECLAIM_FROM_CHARS - 1)).not.toThrow();
  });
});
