/**
 * The answer text the turn journal has not saved yet, held without a copy of its own where it can
 * be: the model client joins deltas into chunks it keeps for the message, and tells which delta
 * completed one (`sealed`). The deltas since the last chunk are then replaced by that chunk (or
 * the part of it not saved yet) — a string the client holds anyway. Before, a second of deltas was
 * held (then joined) here: the reply's size again, promoted to the old generation only to die.
 *
 * A chunk is taken only when it is exactly the deltas held since the last one (another source
 * interleaved, a replayed block): otherwise the deltas are joined here, as any buffer would.
 */

/** Deltas that wait this long for a chunk are joined here (a client that never says). */
const FALLBACK_CHARS = 64 * 1024;

export class UnsavedText {
  private ready: string[] = [];
  /** The deltas since the client's last chunk, not yet taken by a save. */
  private group: string[] = [];
  private groupChars = 0;
  /** Characters of the client's current chunk already taken by a save. */
  private groupSaved = 0;

  add(text: string, sealed?: string): void {
    if (text) {
      this.group.push(text);
      this.groupChars += text.length;
    }
    if (sealed !== undefined) this.seal(sealed);
    else if (this.groupChars >= FALLBACK_CHARS) this.collapse();
  }

  /** Everything held, oldest first; what is returned is no longer held. */
  take(): readonly string[] {
    const out = this.ready;
    if (this.group.length > 0) out.push(this.joined());
    this.ready = [];
    this.groupSaved += this.groupChars;
    this.group = [];
    this.groupChars = 0;
    return out;
  }

  /** A save that failed: its text goes back in front, to be saved again first. */
  putBack(text: readonly string[]): void {
    this.ready = [...text, ...this.ready];
  }

  private seal(sealed: string): void {
    const rest = this.groupSaved === 0 ? sealed : this.groupSaved <= sealed.length ? sealed.slice(this.groupSaved) : undefined;
    if (rest !== undefined && rest.length === this.groupChars && rest === this.joined()) {
      if (rest) this.ready.push(rest);
      this.group = [];
      this.groupChars = 0;
      this.groupSaved = 0;
      return;
    }
    // Not the deltas held: they are kept as they are, and the next chunk starts here as the client's does.
    this.collapse();
  }

  private collapse(): void {
    if (this.group.length > 0) this.ready.push(this.joined());
    this.group = [];
    this.groupChars = 0;
    this.groupSaved = 0;
  }

  private joined(): string {
    return this.group.length === 1 ? this.group[0]! : this.group.join('');
  }
}
