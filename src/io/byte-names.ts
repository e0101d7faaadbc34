/**
 * File names that are not valid UTF-8 (a Latin-1 `caf\xe9.txt` from an old archive, bytes a
 * cloned repo chose). Node hands such a name over as a string with U+FFFD in place of the bytes,
 * and that string names no file: a tool would list it and then fail to open it.
 *
 * Such a name is shown in an escaped form, each byte that is not part of valid UTF-8 as `\xNN`
 * and a backslash as `\x5c`, so the form is plain text and exact (control characters in a valid
 * name are left to escapeFileName, whose escapes path-access.ts reads back). `fsPath` turns that form back into the bytes for any file system call. A component
 * is read as escaped only when it is exactly what `escapeName` makes of its bytes: a real name
 * that merely contains the text `\x41` is not one (its escape would be `\x41` → `A`, not itself)
 * and is taken literally.
 */

import { readdirSync, type Dirent } from 'node:fs';
import { readdir } from 'node:fs/promises';

const ESCAPE = /\\x[0-9a-f]{2}/;

/** Length of the valid UTF-8 sequence at `i`, or 0 when the byte there does not start one. */
function sequenceAt(bytes: Uint8Array, i: number): number {
  const b = bytes[i]!;
  if (b < 0x80) return 1;
  const [len, min] = b >= 0xc2 && b <= 0xdf ? [2, 0x80] : b >= 0xe0 && b <= 0xef ? [3, 0x800] : b >= 0xf0 && b <= 0xf4 ? [4, 0x10000] : [0, 0];
  if (len === 0 || i + len > bytes.length) return 0;
  let cp = b & (0xff >> (len + 1));
  for (let k = 1; k < len; k++) {
    const c = bytes[i + k]!;
    if ((c & 0xc0) !== 0x80) return 0;
    cp = (cp << 6) | (c & 0x3f);
  }
  // Overlong forms, surrogates and code points past U+10FFFF are not valid UTF-8.
  if (cp < min || (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff) return 0;
  return len;
}

const hex = (b: number): string => `\\x${b.toString(16).padStart(2, '0')}`;

/** True when the bytes need the escaped form: they are not valid UTF-8. */
function needsEscape(bytes: Uint8Array): boolean {
  for (let i = 0; i < bytes.length; ) {
    const len = sequenceAt(bytes, i);
    if (len === 0) return true;
    i += len;
  }
  return false;
}

/** The name (one path component) as text: itself when valid UTF-8, else the escaped form. */
export function escapeName(bytes: Uint8Array): string {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (!needsEscape(bytes)) return buffer.toString('utf8');
  let out = '';
  for (let i = 0; i < bytes.length; ) {
    const b = bytes[i]!;
    const len = b === 0x5c ? 0 : sequenceAt(bytes, i);
    if (len === 0) {
      out += hex(b);
      i++;
    } else {
      out += buffer.toString('utf8', i, i + len);
      i += len;
    }
  }
  return out;
}

/** A whole path of bytes as text, component by component. */
export function escapePath(bytes: Uint8Array): string {
  const parts: string[] = [];
  let start = 0;
  for (let i = 0; i <= bytes.length; i++) {
    if (i === bytes.length || bytes[i] === 0x2f) {
      parts.push(escapeName(bytes.subarray(start, i)));
      start = i + 1;
    }
  }
  return parts.join('/');
}

/** The bytes an escaped component stands for, or undefined when it is not one escapeName makes. */
function unescapeName(name: string): Buffer | undefined {
  if (!ESCAPE.test(name)) return undefined;
  const parts: Buffer[] = [];
  let last = 0;
  for (const m of name.matchAll(/\\x([0-9a-f]{2})/g)) {
    parts.push(Buffer.from(name.slice(last, m.index), 'utf8'), Buffer.from([parseInt(m[1]!, 16)]));
    last = m.index + m[0].length;
  }
  parts.push(Buffer.from(name.slice(last), 'utf8'));
  const bytes = Buffer.concat(parts);
  return escapeName(bytes) === name ? bytes : undefined;
}

/** True when `path` holds an escaped component (so it names bytes, not this text). */
export function hasEscapedName(path: string): boolean {
  return ESCAPE.test(path) && path.split('/').some((c) => unescapeName(c) !== undefined);
}

/**
 * What to hand the file system for a path that may hold escaped names: the string itself when it
 * holds none (nearly always), else the bytes.
 */
export function fsPath(path: string): string | Buffer {
  if (!ESCAPE.test(path)) return path;
  let escaped = false;
  const parts = path.split('/').map((c) => {
    const bytes = unescapeName(c);
    if (bytes === undefined) return Buffer.from(c, 'utf8');
    escaped = true;
    return bytes;
  });
  if (!escaped) return path;
  const out: Buffer[] = [];
  parts.forEach((p, i) => out.push(...(i === 0 ? [p] : [Buffer.from('/'), p])));
  return Buffer.concat(out);
}

/** A name Node decoded with a loss shows U+FFFD: that folder is read again as bytes. */
const LOSSY = /\ufffd/;

function withEscapedNames(entries: Dirent<Buffer>[]): Dirent[] {
  for (const entry of entries) (entry as unknown as { name: string }).name = escapeName(entry.name);
  return entries as unknown as Dirent[];
}

/** readdir with types, each name exact: as text when it is UTF-8, else in the escaped form. */
export function readdirExactSync(dir: string): Dirent[] {
  const entries = readdirSync(fsPath(dir), { withFileTypes: true });
  // Nearly every folder has only UTF-8 names: the bytes are asked for only when one is not.
  if (!entries.some((e) => LOSSY.test(e.name))) return entries;
  return withEscapedNames(readdirSync(fsPath(dir), { withFileTypes: true, encoding: 'buffer' }));
}

export async function readdirExact(dir: string): Promise<Dirent[]> {
  const entries = await readdir(fsPath(dir), { withFileTypes: true });
  if (!entries.some((e) => LOSSY.test(e.name))) return entries;
  return withEscapedNames(await readdir(fsPath(dir), { withFileTypes: true, encoding: 'buffer' }));
}
