/**
 * Keys typed while the view is still loading, echoed at once. The CLI paints the first frame
 * before Ink and React are loaded (early-paint.ts); loading them takes a few hundred
 * milliseconds, and keys typed meanwhile used to wait unseen. This reader takes them from the
 * first frame on: plain text and Backspace are applied to the input and redrawn into the frame
 * (through the same pure layout the view uses, so the view's first frame is the same frame), and
 * everything else — Enter, Tab, arrows, a paste, any escape sequence, a character whose width
 * only Ink can measure — ends the echo and is kept, byte for byte, for the view. At the hand-over
 * the text typed goes to the view's input as the key commands it was, and the kept bytes go back
 * into stdin in front of whatever arrived since, so nothing is lost, repeated or reordered.
 * Ctrl+C (outside a paste) leaves at once: nothing has started yet that it could stop.
 *
 * No Ink, no React: this runs on the CLI's path, in the chunk that paints the first frame.
 */
import { EMPTY_BUFFER, backspace, insert, type EditBuffer } from '../composer/edit-buffer.js';
import { KNOWN_WIDTH_CHAR } from '../first-frame.js';

/** The part of a terminal's stdin (a Readable in paused mode) the reader uses. */
export interface EarlyStdin {
  on(event: 'readable', listener: () => void): unknown;
  off(event: 'readable', listener: () => void): unknown;
  read(): Buffer | string | null;
  unshift(chunk: Buffer): void;
}

/** The keys the echo applies: the input's key commands (keys/key-commands.ts) for them. */
export type TypedKey = { readonly name: 'text'; readonly text: string } | { readonly name: 'backspace' };

/** What was typed before the hand-over: the input's text, and the commands that typed it. */
export interface EarlyTyped {
  readonly buffer: EditBuffer;
  readonly commands: readonly TypedKey[];
}

export const NOTHING_TYPED: EarlyTyped = { buffer: EMPTY_BUFFER, commands: [] };

const CTRL_C = 0x03;
const PASTE_START = Buffer.from('\x1b[200~', 'latin1');
const PASTE_END = Buffer.from('\x1b[201~', 'latin1');

/** How many bytes the UTF-8 sequence starting with `lead` has; 0 for a byte that cannot start one. */
function sequenceLength(lead: number): number {
  if (lead < 0x80) return 1;
  if (lead >= 0xc2 && lead <= 0xdf) return 2;
  if (lead >= 0xe0 && lead <= 0xef) return 3;
  if (lead >= 0xf0 && lead <= 0xf4) return 4;
  return 0;
}

/**
 * The rules, byte by byte: what is typed, what is kept for the view, and whether Ctrl+C came.
 * Each read costs its own length (a long paste arrives in hundreds of reads).
 */
export class EarlyKeys {
  private buffer: EditBuffer = EMPTY_BUFFER;
  private readonly commands: TypedKey[] = [];
  /** Bytes for the view, in the order they came; while still echoing, only a split character. */
  private kept: Buffer[] = [];
  /** The echo has ended: every further byte is kept. */
  private over = false;
  private pasting = false;
  /** The last bytes kept, for a paste marker split across reads. */
  private tail = Buffer.alloc(0);
  /** Ctrl+C came (outside a bracketed paste). */
  interrupted = false;

  get typed(): EarlyTyped {
    return { buffer: this.buffer, commands: [...this.commands] };
  }

  get ended(): boolean {
    return this.over;
  }

  /** Ends the echo (the frame could not be redrawn): from here on every byte is kept. */
  end(): void {
    this.over = true;
  }

  /** Takes the bytes kept so far, for the view. */
  takeKept(): Buffer {
    const kept = Buffer.concat(this.kept);
    this.kept = [];
    return kept;
  }

  /** Applies the bytes of one read; true when the input's text changed. */
  push(chunk: Buffer): boolean {
    if (this.over) {
      this.keep(chunk);
      return false;
    }
    const bytes = this.kept.length > 0 ? Buffer.concat([...this.kept, chunk]) : chunk;
    this.kept = [];
    const before = this.buffer;
    for (let i = 0; i < bytes.length; ) {
      const lead = bytes[i]!;
      if (lead === 0x7f || lead === 0x08) {
        this.buffer = backspace(this.buffer);
        this.commands.push({ name: 'backspace' });
        i++;
        continue;
      }
      const length = sequenceLength(lead);
      if (length > 1 && i + length > bytes.length) {
        // A character split across reads waits for its other bytes.
        this.kept.push(Buffer.from(bytes.subarray(i)));
        break;
      }
      const ch = length === 0 ? '' : bytes.toString('utf8', i, i + length);
      // A slash command gets a hint row the view draws from the engine's commands: the view echoes it.
      const slash = ch === '/' && this.buffer.text === '';
      if (ch.length !== 1 || !KNOWN_WIDTH_CHAR.test(ch) || slash) {
        this.over = true;
        this.keep(Buffer.from(bytes.subarray(i)));
        break;
      }
      this.buffer = insert(this.buffer, ch);
      this.commands.push({ name: 'text', text: ch });
      i += length;
    }
    return this.buffer !== before;
  }

  private keep(chunk: Buffer): void {
    this.kept.push(chunk);
    // Scanned with the tail of the bytes before, so a marker split across reads is seen; a byte
    // is looked at once (a Ctrl+C only in this chunk, a marker only if it ends in it).
    const bytes = this.tail.length > 0 ? Buffer.concat([this.tail, chunk]) : chunk;
    const from = this.tail.length;
    for (let i = 0; i < bytes.length; i++) {
      const b = bytes[i]!;
      if (b === 0x1b) {
        if (i + PASTE_START.length > from && bytes.subarray(i, i + PASTE_START.length).equals(PASTE_START)) this.pasting = true;
        else if (i + PASTE_END.length > from && bytes.subarray(i, i + PASTE_END.length).equals(PASTE_END)) this.pasting = false;
      } else if (b === CTRL_C && i >= from && !this.pasting) {
        this.interrupted = true;
      }
    }
    this.tail = Buffer.from(bytes.subarray(Math.max(0, bytes.length - (PASTE_START.length - 1))));
  }
}

export interface EarlyInput {
  /**
   * Stops reading and puts the kept bytes back at the front of stdin, for the view to read next;
   * returns what was typed. Idempotent.
   */
  handOver(): EarlyTyped;
}

export interface EarlyInputOptions {
  /** Redraws the frame with this text in the input; false when it cannot (the echo then ends). */
  readonly echo: (buffer: EditBuffer) => boolean;
  /** Ctrl+C: the caller leaves at once. */
  readonly interrupt: () => void;
}

/** Starts reading `stdin` (already in raw mode) for the view. */
export function startEarlyInput(stdin: EarlyStdin, opts: EarlyInputOptions): EarlyInput {
  const keys = new EarlyKeys();
  let reading = true;
  const stop = (): void => {
    if (!reading) return;
    reading = false;
    stdin.off('readable', onReadable);
  };
  function onReadable(): void {
    let chunk: Buffer | string | null;
    while (reading && (chunk = stdin.read()) !== null) {
      const changed = keys.push(typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk);
      if (keys.interrupted) {
        stop();
        opts.interrupt();
        return;
      }
      if (changed && !opts.echo(keys.typed.buffer)) keys.end();
    }
  }
  stdin.on('readable', onReadable);
  return {
    handOver() {
      if (reading) {
        stop();
        const kept = keys.takeKept();
        if (kept.length > 0) stdin.unshift(kept);
      }
      return keys.typed;
    },
  };
}
