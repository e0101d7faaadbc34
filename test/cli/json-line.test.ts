/** writeJsonLine: the line jsonLine makes, in pieces, for values holding strings of megabytes. */
import { describe, expect, it } from 'vitest';
import { jsonLine, writeJsonLine } from '../../src/headless/json-line.js';

function written(value: unknown): { line: string; pieces: number; longest: number } {
  const pieces: string[] = [];
  writeJsonLine(value, (p) => pieces.push(p));
  return { line: pieces.join(''), pieces: pieces.length, longest: Math.max(...pieces.map((p) => p.length)) };
}

describe('writeJsonLine', () => {
  it('writes the same line as jsonLine, a big string in slices that never split a character', () => {
    // Surrogate pairs and line separators land on every possible slice boundary.
    const big = 'a\u2028 🐉 "quoted" \\ \u0085\n'.repeat(40_000) + '🐉'.repeat(70_000);
    const value = { type: 'result', result: big, nested: [{ text: big.slice(3) }, 'small', 42, null], after: 'end' };
    const out = written(value);
    expect(out.line).toBe(jsonLine(value));
    expect(JSON.parse(out.line)).toEqual(value);
    expect(out.pieces).toBeGreaterThan(10);
    expect(out.longest).toBeLessThan(300_000);
    expect(out.line).not.toMatch(/[\u0085\u2028\u2029]/);
  });

  it('writes a value without big strings in one piece', () => {
    const value = { type: 'system', text: 'x\u2029y' };
    const out = written(value);
    expect(out.pieces).toBe(1);
    expect(out.line).toBe(jsonLine(value));
  });
});
