/**
 * jsonPieces is JSON.stringify in pieces: the session line, the request body and the estimates of
 * a multi-megabyte reply are made from it, and they must be the bytes JSON.stringify made.
 */
import { describe, expect, it } from 'vitest';
import { holdsChars, JsonText, jsonPieces, PIECE_CHARS } from '../../src/io/json-pieces.js';

const joined = (value: unknown): string | undefined => {
  const pieces = [...jsonPieces(value)];
  return pieces.length === 0 ? undefined : pieces.join('');
};

/** A long string whose slice boundaries fall on surrogate pairs, quotes, escapes and separators. */
function awkward(chars: number): string {
  const unit = 'a"b\\c\n\t\u0001é—🐉\u2028\ud800x';
  let s = '';
  while (s.length < chars) s += unit;
  // A high surrogate exactly where a slice would end.
  return `${'x'.repeat(PIECE_CHARS - 1)}🐉${s}`;
}

describe('jsonPieces', () => {
  it('joins to JSON.stringify for small values of every kind', () => {
    const values: unknown[] = [
      'plain',
      '',
      0,
      -0,
      1.5e300,
      Number.NaN,
      true,
      null,
      [1, undefined, () => 1, Symbol('s'), 'x'],
      { a: 1, b: undefined, c: () => 1, d: [null], '1': 'int key', 'é"': 'k' },
      { date: new Date(0), nested: { toJSON: (key: string) => `key=${key}` } },
    ];
    for (const value of values) expect(joined(value)).toBe(JSON.stringify(value));
    expect(joined(undefined)).toBeUndefined();
  });

  it('joins to JSON.stringify for multi-megabyte strings, in bounded pieces', () => {
    const big = awkward(3 * 1024 * 1024);
    const message = {
      role: 'assistant',
      content: [
        { type: 'text', text: big },
        { type: 'tool_use', id: 't1', name: 'write_file', input: { path: 'a.txt', content: big, skip: undefined } },
      ],
      list: [big, undefined, 1],
    };
    expect(joined(message)).toBe(JSON.stringify(message));
    for (const piece of jsonPieces(message)) expect(piece.length).toBeLessThan(PIECE_CHARS * 2 + 64);
  });

  it('a JsonText serializes as the JSON text of its value, as a string', () => {
    const big = awkward(PIECE_CHARS * 3);
    const value = { arguments: new JsonText({ content: big, n: 1 }) };
    const expected = JSON.stringify({ arguments: JSON.stringify({ content: big, n: 1 }) });
    expect(joined(value)).toBe(expected);
    expect(JSON.stringify(value)).toBe(expected);
  });
});

describe('holdsChars', () => {
  it('counts the characters of strings and keys, and stops early', () => {
    expect(holdsChars({ ab: 'cd' }, 4)).toBe(true);
    expect(holdsChars({ ab: 'cd' }, 5)).toBe(false);
    expect(holdsChars([1, 2, null, 'x'.repeat(10)], 10)).toBe(true);
    expect(holdsChars(new JsonText({ k: 'x'.repeat(10) }), 11)).toBe(true);
  });
});
