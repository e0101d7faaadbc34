/**
 * Styled rows as one ANSI string each. The transcript hands Ink a single Text node holding all
 * visible rows instead of a tree of nested Text elements per segment: Ink lays out and measures
 * one node instead of hundreds, which is most of a frame's cost while an answer streams.
 */
import { colorEnabled, visibleStyle } from './color-mode.js';
import type { StyledLine, TextStyle } from './styled-line.js';

/** SGR foreground codes of Ink's named colours; a background is the code + 10. */
export const FG: Readonly<Record<string, number>> = {
  black: 30,
  red: 31,
  green: 32,
  yellow: 33,
  blue: 34,
  magenta: 35,
  cyan: 36,
  white: 37,
  gray: 90,
  grey: 90,
  blackBright: 90,
  redBright: 91,
  greenBright: 92,
  yellowBright: 93,
  blueBright: 94,
  magentaBright: 95,
  cyanBright: 96,
  whiteBright: 97,
};

function open(given: TextStyle, color: boolean): string {
  const style = visibleStyle(given, color);
  const codes: number[] = [];
  if (style.bold) codes.push(1);
  if (style.dim) codes.push(2);
  if (style.italic) codes.push(3);
  if (style.underline) codes.push(4);
  if (style.inverse) codes.push(7);
  const fg = style.color === undefined ? undefined : FG[style.color];
  if (fg !== undefined) codes.push(fg);
  const bg = style.backgroundColor === undefined ? undefined : FG[style.backgroundColor];
  if (bg !== undefined) codes.push(bg + 10);
  return codes.length === 0 ? '' : `\x1b[${codes.join(';')}m`;
}

// One cache per colour mode: NO_COLOR may change between two renders (tests do).
const caches = { color: new WeakMap<StyledLine, string>(), plain: new WeakMap<StyledLine, string>() };

/** The row as text with SGR codes; cached per row object, and rows are immutable. */
export function encodeLine(line: StyledLine): string {
  const color = colorEnabled();
  const cache = color ? caches.color : caches.plain;
  let out = cache.get(line);
  if (out !== undefined) return out;
  out = '';
  for (const seg of line) {
    const start = seg.style === undefined ? '' : open(seg.style, color);
    out += start === '' ? seg.text : `${start}${seg.text}\x1b[0m`;
  }
  cache.set(line, out);
  return out;
}
