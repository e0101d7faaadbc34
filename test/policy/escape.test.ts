import { describe, expect, it } from 'vitest';
import { escapeForDisplay } from '../../src/policy/escape.js';

describe('escapeForDisplay', () => {
  it('keeps ordinary text, newlines, tabs and emoji untouched', () => {
    const text = 'def total(items):\n\treturn 1 # café ✓ 👍🏽 ❤️';
    expect(escapeForDisplay(text)).toBe(text);
  });

  it('escapes C0 controls, ESC sequences, CR and DEL', () => {
    expect(escapeForDisplay('a\x1b[2Jb')).toBe('a\\x1b[2Jb');
    expect(escapeForDisplay('rm -rf ~\rls')).toBe('rm -rf ~\\rls');
    expect(escapeForDisplay('\x00\x07\x08\x7f')).toBe('\\x00\\x07\\x08\\x7f');
  });

  it('escapes C1 controls such as CSI and NEL', () => {
    expect(escapeForDisplay('x\u009b31my\u0085z')).toBe('x\\x9b31my\\x85z');
  });

  it('escapes bidi overrides and isolates', () => {
    expect(escapeForDisplay('file\u202etxt.exe')).toBe('file\\u202etxt.exe');
    expect(escapeForDisplay('\u2066a\u2069\u200e\u200f\u061c')).toBe('\\u2066a\\u2069\\u200e\\u200f\\u061c');
  });

  it('escapes zero-width characters and the BOM', () => {
    expect(escapeForDisplay('c\u200burl\u200d\u2060\ufeff')).toBe('c\\u200burl\\u200d\\u2060\\ufeff');
  });

  it('escapes Unicode tag characters that hide ASCII', () => {
    const hidden = 'ok' + String.fromCodePoint(0xe0069, 0xe0067);
    expect(escapeForDisplay(hidden)).toBe('ok\\u{e0069}\\u{e0067}');
  });

  it('escapes every other invisible format character by its category', () => {
    const text = `a\u0600b\u180bc${String.fromCodePoint(0x1d173)}d${String.fromCodePoint(0x1bca0)}e\u2064f`;
    expect(escapeForDisplay(text)).toBe('a\\u0600b\\u180bc\\u{1d173}d\\u{1bca0}e\\u2064f');
  });

  it('escapes lone surrogates and line separators', () => {
    expect(escapeForDisplay('a\ud800b')).toBe('a\\ud800b');
    expect(escapeForDisplay('a\u2028b')).toBe('a\\u2028b');
  });
});
