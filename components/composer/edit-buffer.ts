/**
 * The composer's text and cursor, edited by pure functions. (ink-text-input keeps its cursor in
 * private state and reads keys on its own, so it cannot take a newline, a recalled prompt or a
 * completion without losing the cursor, nor share one key router; this is its replacement.)
 */

export interface EditBuffer {
  readonly text: string;
  /** Offset in UTF-16 units, always on a code point boundary. */
  readonly cursor: number;
}

export const EMPTY_BUFFER: EditBuffer = { text: '', cursor: 0 };

export function bufferOf(text: string): EditBuffer {
  return { text, cursor: text.length };
}

export function insert(b: EditBuffer, s: string): EditBuffer {
  return { text: b.text.slice(0, b.cursor) + s + b.text.slice(b.cursor), cursor: b.cursor + s.length };
}

function prevBoundary(text: string, i: number): number {
  if (i <= 0) return 0;
  const code = text.charCodeAt(i - 1);
  return code >= 0xdc00 && code <= 0xdfff && i >= 2 ? i - 2 : i - 1;
}

function nextBoundary(text: string, i: number): number {
  if (i >= text.length) return text.length;
  const code = text.charCodeAt(i);
  return code >= 0xd800 && code <= 0xdbff ? i + 2 : i + 1;
}

export function backspace(b: EditBuffer): EditBuffer {
  if (b.cursor === 0) return b;
  const at = prevBoundary(b.text, b.cursor);
  return { text: b.text.slice(0, at) + b.text.slice(b.cursor), cursor: at };
}

export function left(b: EditBuffer): EditBuffer {
  return { ...b, cursor: prevBoundary(b.text, b.cursor) };
}

export function right(b: EditBuffer): EditBuffer {
  return { ...b, cursor: nextBoundary(b.text, b.cursor) };
}

function lineStartOf(text: string, i: number): number {
  return text.lastIndexOf('\n', i - 1) + 1;
}

function lineEndOf(text: string, i: number): number {
  const nl = text.indexOf('\n', i);
  return nl < 0 ? text.length : nl;
}

export function lineStart(b: EditBuffer): EditBuffer {
  return { ...b, cursor: lineStartOf(b.text, b.cursor) };
}

export function lineEnd(b: EditBuffer): EditBuffer {
  return { ...b, cursor: lineEndOf(b.text, b.cursor) };
}

export function killToStart(b: EditBuffer): EditBuffer {
  const start = lineStartOf(b.text, b.cursor);
  return { text: b.text.slice(0, start) + b.text.slice(b.cursor), cursor: start };
}

export function killToEnd(b: EditBuffer): EditBuffer {
  return { ...b, text: b.text.slice(0, b.cursor) + b.text.slice(lineEndOf(b.text, b.cursor)) };
}

export function killWord(b: EditBuffer): EditBuffer {
  let i = b.cursor;
  while (i > 0 && /\s/.test(b.text[i - 1]!)) i--;
  while (i > 0 && !/\s/.test(b.text[i - 1]!)) i--;
  return { text: b.text.slice(0, i) + b.text.slice(b.cursor), cursor: i };
}

export function isOnFirstLine(b: EditBuffer): boolean {
  return b.text.lastIndexOf('\n', b.cursor - 1) < 0;
}

export function isOnLastLine(b: EditBuffer): boolean {
  return b.text.indexOf('\n', b.cursor) < 0;
}

/** Moves the cursor one line up (-1) or down (+1), keeping the column where the line allows. */
export function moveLine(b: EditBuffer, dir: -1 | 1): EditBuffer {
  const start = lineStartOf(b.text, b.cursor);
  const column = b.cursor - start;
  if (dir < 0) {
    if (start === 0) return b;
    const prevStart = lineStartOf(b.text, start - 1);
    return { ...b, cursor: Math.min(prevStart + column, start - 1) };
  }
  const end = lineEndOf(b.text, b.cursor);
  if (end === b.text.length) return b;
  const nextEnd = lineEndOf(b.text, end + 1);
  return { ...b, cursor: Math.min(end + 1 + column, nextEnd) };
}
