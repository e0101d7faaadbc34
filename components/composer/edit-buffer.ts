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

/** Text cut out of the buffer, for the kill ring. */
export interface Killed {
  readonly buffer: EditBuffer;
  readonly killed: string;
}

function cut(b: EditBuffer, from: number, to: number): Killed {
  return { buffer: { text: b.text.slice(0, from) + b.text.slice(to), cursor: from }, killed: b.text.slice(from, to) };
}

export function killToStart(b: EditBuffer): Killed {
  return cut(b, lineStartOf(b.text, b.cursor), b.cursor);
}

export function killToEnd(b: EditBuffer): Killed {
  const end = lineEndOf(b.text, b.cursor);
  // At the end of a line Ctrl+K joins the next one, as in readline.
  return cut(b, b.cursor, end === b.cursor && end < b.text.length ? end + 1 : end);
}

/** Ctrl+W: back over spaces, then over the word (whitespace-delimited, as readline's unix-word-rubout). */
export function killWord(b: EditBuffer): Killed {
  let i = b.cursor;
  while (i > 0 && /\s/.test(b.text[i - 1]!)) i--;
  while (i > 0 && !/\s/.test(b.text[i - 1]!)) i--;
  return cut(b, i, b.cursor);
}

// Readline's words: letters and digits (so Alt+Backspace stops at _ . / - in a path or a name).
const WORD_CHAR = /[\p{L}\p{N}]/u;
const isWord = (ch: string | undefined): boolean => ch !== undefined && WORD_CHAR.test(ch);

/** Where Alt+B / Ctrl+← lands: the start of this or the previous word. */
export function wordStartBefore(text: string, i: number): number {
  while (i > 0 && !isWord(text[i - 1])) i--;
  while (i > 0 && isWord(text[i - 1])) i--;
  return i;
}

/** Where Alt+F / Ctrl+→ lands: the end of this or the next word. */
export function wordEndAfter(text: string, i: number): number {
  while (i < text.length && !isWord(text[i])) i++;
  while (i < text.length && isWord(text[i])) i++;
  return i;
}

export function wordLeft(b: EditBuffer): EditBuffer {
  return { ...b, cursor: wordStartBefore(b.text, b.cursor) };
}

export function wordRight(b: EditBuffer): EditBuffer {
  return { ...b, cursor: wordEndAfter(b.text, b.cursor) };
}

/** Alt+Backspace: the word before the cursor, stopping at punctuation (a path's last part). */
export function killWordBack(b: EditBuffer): Killed {
  return cut(b, wordStartBefore(b.text, b.cursor), b.cursor);
}

/** Alt+D: to the end of the word after the cursor. */
export function killWordForward(b: EditBuffer): Killed {
  return cut(b, b.cursor, wordEndAfter(b.text, b.cursor));
}

/** The Delete key: the character under the cursor. */
export function deleteForward(b: EditBuffer): EditBuffer {
  if (b.cursor >= b.text.length) return b;
  return { text: b.text.slice(0, b.cursor) + b.text.slice(nextBoundary(b.text, b.cursor)), cursor: b.cursor };
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
