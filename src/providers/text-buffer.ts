/**
 * Text that arrives in many small pieces (a reply's deltas, a tool call's argument fragments).
 * `s += piece` keeps every piece alive as its own heap string plus a 32-byte rope node per piece:
 * for token-sized deltas that is 10–20 bytes of memory per character of the reply, for as long as
 * the rope lives. Here the pieces are joined into flat chunks as they come, and the whole text is
 * one flat string once asked for, which is then the only copy kept.
 */

/** Pieces are joined once this many characters wait (a few tens of KB: cheap to copy, few chunks). */
export const CHUNK_CHARS = 32 * 1024;

export class TextBuffer {
  private chunks: string[] = [];
  private pending: string[] = [];
  private pendingChars = 0;
  private total = 0;

  constructor(initial = '') {
    if (initial) this.append(initial);
  }

  get length(): number {
    return this.total;
  }

  /** Appends `piece`; returns the chunk it completed, when it did (the buffer keeps that string). */
  append(piece: string): string | undefined {
    if (!piece) return undefined;
    this.pending.push(piece);
    this.pendingChars += piece.length;
    this.total += piece.length;
    return this.pendingChars >= CHUNK_CHARS ? this.seal() : undefined;
  }

  /** Replaces the whole text (a server that sends a call's arguments as one object). */
  set(text: string): void {
    this.chunks = text ? [text] : [];
    this.pending = [];
    this.pendingChars = 0;
    this.total = text.length;
  }

  /** The whole text as one string; the buffer keeps that string (and nothing else) from then on. */
  toString(): string {
    this.seal();
    if (this.chunks.length > 1) this.chunks = [this.chunks.join('')];
    return this.chunks[0] ?? '';
  }

  private seal(): string | undefined {
    if (this.pending.length === 0) return undefined;
    const chunk = this.pending.length === 1 ? this.pending[0]! : this.pending.join('');
    this.chunks.push(chunk);
    this.pending = [];
    this.pendingChars = 0;
    return chunk;
  }
}
