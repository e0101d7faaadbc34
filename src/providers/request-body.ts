/**
 * A request's JSON body. Usually one string; a body holding megabytes (a long reply or a
 * write_file call's content sent back in the history) is sent in pieces instead, serialized twice
 * (once to count its bytes for content-length, once while sending) but never held whole: as one
 * string and then one buffer it cost twice its size beside the history it was made from.
 */
import { holdsChars, jsonPieces } from '../io/json-pieces.js';

/** Bodies whose strings stay under this many characters are sent as one string. */
const STREAM_BODY_CHARS = 4 * 1024 * 1024;

export interface StreamedBody {
  /** The value the body is the JSON of (to name a field the server refused). */
  readonly value: object;
  /** Exact length in bytes (sent as content-length: no chunked upload for servers that refuse one). */
  readonly bytes: number;
  /** The body's bytes, made afresh on each call (a retry sends it again). */
  chunks(): Generator<Buffer>;
}

export type RequestBody = string | StreamedBody;

export function requestBody(value: object): RequestBody {
  if (!holdsChars(value, STREAM_BODY_CHARS)) return JSON.stringify(value);
  let bytes = 0;
  for (const piece of jsonPieces(value)) bytes += Buffer.byteLength(piece, 'utf8');
  return {
    value,
    bytes,
    *chunks() {
      for (const piece of jsonPieces(value)) yield Buffer.from(piece, 'utf8');
    },
  };
}

/** What the body says, for an error that names a refused field: the JSON text or the value itself. */
export function sentValue(body: RequestBody): string | object {
  return typeof body === 'string' ? body : body.value;
}
