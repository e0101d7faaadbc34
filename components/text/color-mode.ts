/**
 * Whether the view may use colour. NO_COLOR (https://no-color.org), set to anything but the empty
 * string, turns colour off; bold, dim, italic, underline and inverse stay, so emphasis, code and
 * diffs are still told apart. Read on every call, not once at load: a test (or an embedder) may
 * set it after the module was imported, and a row's encoding is cached per mode anyway.
 */
import type { TextStyle } from './styled-line.js';

export function colorEnabled(env: Readonly<Record<string, string | undefined>> = process.env): boolean {
  const value = env['NO_COLOR'];
  return value === undefined || value === '';
}

/** The style as it may be shown: without its colours when colour is off. */
export function visibleStyle(style: TextStyle, color: boolean = colorEnabled()): TextStyle {
  if (color || (style.color === undefined && style.backgroundColor === undefined)) return style;
  const { color: _fg, backgroundColor: _bg, ...rest } = style;
  return rest;
}
