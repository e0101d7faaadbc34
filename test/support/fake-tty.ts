/**
 * A terminal for driving the real view (runTui, Ink) in-process: a TTY stdin a test can type
 * into, and an output that keeps what was written and lets a test wait for what it expects.
 */
import { EventEmitter } from 'node:events';
import { PassThrough } from 'node:stream';

/** Enough of a TTY stdin for Ink; raw mode is recorded, not applied. */
export class FakeStdin extends EventEmitter {
  readonly isTTY = true;
  /** Every setRawMode call, in order. */
  readonly rawModes: boolean[] = [];
  private pending: string[] = [];
  type(data: string): void {
    this.pending.push(data);
    this.emit('readable');
  }
  read(): string | null {
    return this.pending.shift() ?? null;
  }
  setRawMode(mode: boolean): this {
    this.rawModes.push(mode);
    return this;
  }
  setEncoding(): this {
    return this;
  }
  resume(): this {
    return this;
  }
  pause(): this {
    return this;
  }
  ref(): this {
    return this;
  }
  unref(): this {
    return this;
  }
  /** The type runTui and Ink expect. */
  get stream(): NodeJS.ReadStream {
    return this as unknown as NodeJS.ReadStream;
  }
}

/**
 * A TTY stdin that is a real stream (paused mode, read(), unshift(), an encoding), as a
 * terminal's is: for the early input, which hands unread bytes back to the stream for Ink.
 */
export class StreamStdin extends PassThrough {
  readonly isTTY = true;
  readonly rawModes: boolean[] = [];
  setRawMode(mode: boolean): this {
    this.rawModes.push(mode);
    return this;
  }
  ref(): this {
    return this;
  }
  unref(): this {
    return this;
  }
  /** Bytes as a terminal sends them (a string is its UTF-8). */
  type(data: string | Buffer): void {
    this.write(typeof data === 'string' ? Buffer.from(data, 'utf8') : data);
  }
  get stream(): NodeJS.ReadStream {
    return this as unknown as NodeJS.ReadStream;
  }
}

/** A terminal of a given size that keeps everything written to it. */
export class FakeTerminal extends EventEmitter {
  readonly isTTY = true;
  text = '';
  constructor(
    public columns = 80,
    public rows = 24,
  ) {
    super();
  }
  write(data: string): boolean {
    this.text += data;
    this.emit('written');
    return true;
  }
  /** Resolves once `check` holds after a write; fails after 5 s showing the end of the output. */
  until(what: string, check: () => boolean): Promise<void> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.off('written', onWrite);
        reject(new Error(`timed out waiting for ${what}; screen so far:\n${this.text.slice(-2000)}`));
      }, 5000);
      const onWrite = (): void => {
        if (!check()) return;
        clearTimeout(timer);
        this.off('written', onWrite);
        resolve();
      };
      this.on('written', onWrite);
      onWrite();
    });
  }
}
