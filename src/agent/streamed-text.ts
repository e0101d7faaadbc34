/**
 * The text of a transcript block that grows by deltas. `old + piece` at every delta keeps each
 * delta alive as its own string plus a rope node (10–20 bytes per character for token-sized
 * deltas, for as long as the block lives). Here the newest deltas are joined into one flat chunk
 * every CHUNK_CHARS characters, so a block costs about its own size; the reducer stays pure (the
 * parts are a cache beside each block object, rebuilt from the text when missing).
 */
import { CHUNK_CHARS } from '../providers/text-buffer.js';

interface Parts {
  /** Flat chunks, joined as a rope (a handful of nodes per megabyte). */
  readonly head: string;
  /** The deltas since the last chunk. */
  readonly tail: string;
}

const partsOf = new WeakMap<object, Parts>();

/** A copy of `rope` as one flat string: its pieces are garbage afterwards. */
function flat(rope: string): string {
  // Taking a substring makes V8 flatten the (new) rope it is taken from; the slice shares that copy.
  return (` ${rope}`).slice(1);
}

/** The text of `block` (now `text`) with `piece` appended; call `keep` with the block that holds it. */
export function appendStreamed(block: object, text: string, piece: string): { readonly text: string; keep(next: object): void } {
  const known = partsOf.get(block) ?? { head: text, tail: '' };
  let head = known.head;
  let tail = known.tail + piece;
  if (tail.length >= CHUNK_CHARS) {
    head += flat(tail);
    tail = '';
  }
  const parts: Parts = { head, tail };
  return { text: tail ? head + tail : head, keep: (next) => partsOf.set(next, parts) };
}
