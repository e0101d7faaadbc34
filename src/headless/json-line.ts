/**
 * One value as one line of JSON. JSON.stringify already escapes newlines and control characters
 * in strings; NEL (U+0085) and the Unicode line and paragraph separators (U+2028, U+2029) it
 * leaves as they are, and readers that split lines the Unicode way (Python's splitlines) would
 * cut a message there. They are escaped too, which is still the same JSON.
 */
import { randomBytes } from 'node:crypto';

const SEPARATORS = /[\u0085\u2028\u2029]/g;
const escapeSeparators = (json: string): string => json.replace(SEPARATORS, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

export function jsonLine(value: unknown): string {
  return `${escapeSeparators(JSON.stringify(value))}\n`;
}

/** Strings longer than this are written in slices, not copied into the line. */
const BIG_CHARS = 256 * 1024;
const SLICE_CHARS = 64 * 1024;

/**
 * The same line as jsonLine, handed to `write` in pieces: a string value of many megabytes (a
 * reply's text, a tool call's argument) is escaped slice by slice, so the line never exists
 * whole in memory beside the value (for a 50 MB answer, that is 100 MB and more not allocated).
 */
export function writeJsonLine(value: unknown, write: (piece: string) => void): void {
  const big: string[] = [];
  const mark = `\u0000lwyrm-${randomBytes(6).toString('hex')}-`;
  const json = JSON.stringify(value, (_key, v: unknown) => {
    if (typeof v !== 'string' || v.length <= BIG_CHARS) return v;
    big.push(v);
    return `${mark}${big.length - 1}`;
  });
  if (big.length === 0) {
    write(`${escapeSeparators(json)}\n`);
    return;
  }
  // A placeholder serializes as "\u0000lwyrm-…-N": find each, write the string it stands for.
  const quoted = JSON.stringify(mark).slice(0, -1);
  let at = 0;
  for (;;) {
    const found = json.indexOf(quoted, at);
    if (found === -1) break;
    const end = json.indexOf('"', found + quoted.length);
    write(escapeSeparators(json.slice(at, found)));
    writeString(big[Number(json.slice(found + quoted.length, end))] ?? '', write);
    at = end + 1;
  }
  write(`${escapeSeparators(json.slice(at))}\n`);
}

function writeString(text: string, write: (piece: string) => void): void {
  write('"');
  for (let i = 0; i < text.length; ) {
    let end = Math.min(text.length, i + SLICE_CHARS);
    // A slice must not end between the two halves of a surrogate pair.
    const last = text.charCodeAt(end - 1);
    if (end < text.length && last >= 0xd800 && last <= 0xdbff) end++;
    write(escapeSeparators(JSON.stringify(text.slice(i, end)).slice(1, -1)));
    i = end;
  }
  write('"');
}
