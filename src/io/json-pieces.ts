/**
 * JSON.stringify's text of a value, in pieces. A value holding a string of many megabytes (a long
 * reply, a write_file call's content) would otherwise become one more string of its whole size
 * (escaped, so a little larger) at every place it is serialized: the session line, the request
 * body, an estimate. The pieces joined are exactly JSON.stringify(value) (plain data and toJSON);
 * only subtrees holding a large string are walked here, everything else is serialized natively.
 */

/** Pieces are about this long: under V8's large-object size, so each dies young where it was made. */
export const PIECE_CHARS = 64 * 1024;

/**
 * A JSON text as a string value: serializes as JSON.stringify(JSON.stringify(value)) — the
 * OpenAI format sends a call's arguments so — without making the inner text either.
 */
export class JsonText {
  constructor(readonly value: unknown) {}

  toJSON(): string {
    return JSON.stringify(this.value) ?? 'null';
  }
}

/** Whether the strings in `value` (keys included) reach `limit` characters; stops as soon as they do. */
export function holdsChars(value: unknown, limit: number): boolean {
  let left = limit;
  const walk = (v: unknown, depth: number): boolean => {
    if (typeof v === 'string') return (left -= v.length) <= 0;
    if (typeof v !== 'object' || v === null || depth > 64) return false;
    if (v instanceof JsonText) return walk(v.value, depth + 1);
    if (Array.isArray(v)) {
      for (const item of v) if (walk(item, depth + 1)) return true;
      return false;
    }
    for (const key of Object.keys(v)) {
      left -= key.length;
      if (walk((v as Record<string, unknown>)[key], depth + 1)) return true;
    }
    return left <= 0;
  };
  return walk(value, 0);
}

/** The pieces of JSON.stringify(value); `undefined` (a value JSON has no text for) yields nothing. */
export function* jsonPieces(value: unknown): Generator<string> {
  yield* pieces(value, '');
}

function* pieces(raw: unknown, key: string): Generator<string> {
  const value = withToJson(raw, key);
  if (typeof value === 'string') {
    if (value.length <= PIECE_CHARS) yield JSON.stringify(value);
    else yield* stringPieces(value);
    return;
  }
  if (value instanceof JsonText) {
    yield* jsonTextPieces(value.value);
    return;
  }
  if (typeof value !== 'object' || value === null || !holdsChars(value, PIECE_CHARS)) {
    const text = JSON.stringify(value);
    if (text !== undefined) yield text;
    return;
  }
  if (Array.isArray(value)) {
    yield '[';
    for (let i = 0; i < value.length; i++) {
      if (i > 0) yield ',';
      let wrote = false;
      for (const piece of pieces(value[i], String(i))) {
        wrote = true;
        yield piece;
      }
      if (!wrote) yield 'null';
    }
    yield ']';
    return;
  }
  yield '{';
  let first = true;
  const obj = value as Record<string, unknown>;
  for (const k of Object.keys(obj)) {
    let started = false;
    for (const piece of pieces(obj[k], k)) {
      if (!started) {
        started = true;
        yield `${first ? '' : ','}${JSON.stringify(k)}:`;
        first = false;
      }
      yield piece;
    }
  }
  yield '}';
}

function withToJson(value: unknown, key: string): unknown {
  if (typeof value === 'object' && value !== null && !(value instanceof JsonText)) {
    const toJson = (value as { toJSON?: unknown }).toJSON;
    if (typeof toJson === 'function') return (toJson as (key: string) => unknown).call(value, key);
  }
  return value;
}

/** The quoted, escaped string in slices that never split a surrogate pair (each slice escapes alone). */
function* stringPieces(text: string): Generator<string> {
  yield '"';
  for (const slice of slices(text)) yield JSON.stringify(slice).slice(1, -1);
  yield '"';
}

/** A JSON text (itself in pieces) as a JSON string. */
function* jsonTextPieces(value: unknown): Generator<string> {
  yield '"';
  for (const piece of jsonPieces(value)) {
    for (const slice of piece.length > PIECE_CHARS ? slices(piece) : [piece]) yield JSON.stringify(slice).slice(1, -1);
  }
  yield '"';
}

/** `text` in slices of about PIECE_CHARS, never between the halves of a surrogate pair. */
export function* slices(text: string, size: number = PIECE_CHARS): Generator<string> {
  for (let i = 0; i < text.length; ) {
    let end = Math.min(text.length, i + size);
    const last = text.charCodeAt(end - 1);
    if (end < text.length && last >= 0xd800 && last <= 0xdbff) end++;
    yield text.slice(i, end);
    i = end;
  }
}
