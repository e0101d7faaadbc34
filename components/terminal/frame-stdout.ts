/**
 * The stdout Ink renders into. Ink 6.8 renders in debug mode here, so every write is one complete
 * frame; the FrameWriter diffs it against the screen and writes only what changed.
 *
 * Why not Ink's own output: Ink 6.8 has no alternate-screen mode; a frame as tall as the terminal
 * makes it clear the whole screen on every frame (the flicker), and its incremental mode writes
 * one row too low when the frame is shorter (seen in tmux). Addressing rows absolutely avoids all
 * three.
 */
import { EventEmitter } from 'node:events';
import { FrameWriter, type FrameTarget, type FrameWriterOptions } from './frame-writer.js';

// eslint-disable-next-line no-control-regex
const CURSOR_TOGGLE = /^\x1b\[\?25[hl]$/;

export class FrameStdout extends EventEmitter {
  readonly isTTY = true;
  readonly writer: FrameWriter;

  constructor(
    target: FrameTarget,
    public columns: number,
    public rows: number,
    opts: FrameWriterOptions = {},
  ) {
    super();
    this.writer = new FrameWriter(target, rows, opts);
  }

  write(chunk: unknown, encodingOrCallback?: unknown, callback?: unknown): boolean {
    const text = typeof chunk === 'string' ? chunk : String(chunk);
    // Ink also writes cursor show/hide; the view keeps the cursor hidden itself.
    if (text !== '' && !CURSOR_TOGGLE.test(text)) this.writer.submit(text);
    const done = typeof encodingOrCallback === 'function' ? encodingOrCallback : callback;
    if (typeof done === 'function') queueMicrotask(() => (done as () => void)());
    return true;
  }

  setSize(columns: number, rows: number): void {
    if (columns === this.columns && rows === this.rows) return;
    this.columns = columns;
    this.rows = rows;
    this.writer.resize(rows);
    this.emit('resize');
  }
}
