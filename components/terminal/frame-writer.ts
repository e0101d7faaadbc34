/** Writes Ink's frames to the terminal: line diffs, at most one write per frame interval. */
import { BSU, ESU, diffFrame } from './frame-diff.js';
import { applyOverlay, type OverlayRows, type RowOverlay } from './row-overlay.js';

export interface FrameTarget {
  write(data: string): unknown;
}

export interface FrameWriterOptions {
  /** Minimum time between two writes; frames in between are coalesced. @default 33 */
  readonly minIntervalMs?: number;
  /** Wrap each write in synchronized output, so no half-drawn frame is ever shown. @default true */
  readonly synchronized?: boolean;
  /** Rows drawn into each frame past Ink (the transcript's; see row-overlay.ts). */
  readonly overlay?: RowOverlay;
}

export class FrameWriter {
  private screen: readonly string[] = [];
  private pending: string | undefined;
  private pendingOverlay: OverlayRows | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private lastWrite = -Infinity;
  private full = true;
  private closed = false;
  /** Where the terminal's cursor goes after each frame (the input's caret), or hidden. */
  private cursor: { row: number; column: number } | undefined | null = null;
  private cursorShown = '';
  /** Frames received from Ink and writes sent to the terminal (for the render benchmark). */
  submitted = 0;
  written = 0;
  private readonly interval: number;
  private readonly sync: boolean;
  private readonly overlay: RowOverlay | undefined;

  constructor(
    private readonly target: FrameTarget,
    private rows: number,
    opts: FrameWriterOptions = {},
  ) {
    this.interval = opts.minIntervalMs ?? 33;
    this.sync = opts.synchronized ?? true;
    this.overlay = opts.overlay;
  }

  submit(frame: string): void {
    if (this.closed) return;
    this.submitted += 1;
    this.pending = frame;
    // The overlay as it was when Ink wrote this frame: the transcript set it while rendering it.
    this.pendingOverlay = this.overlay?.snapshot();
    const wait = this.lastWrite + this.interval - performance.now();
    if (wait <= 0) {
      this.flush();
    } else if (this.timer === undefined) {
      this.timer = setTimeout(() => {
        this.timer = undefined;
        this.flush();
      }, wait);
    }
  }

  /**
   * The terminal already shows `rows` (painted before the view was loaded): the next frame is
   * diffed against them instead of repainting the screen.
   */
  assume(rows: readonly string[], cursor?: { row: number; column: number }): void {
    this.screen = rows;
    this.full = false;
    if (cursor) {
      this.cursor = cursor;
      this.cursorShown = this.cursorBytes();
    }
  }

  /** What the terminal shows, as far as this writer knows: one string per row. */
  get shown(): readonly string[] {
    return this.screen;
  }

  /**
   * Puts the real cursor at (row, column) after every frame, shown, so an IME's preedit and a
   * screen reader follow the caret; undefined hides it.
   */
  setCursor(cursor: { row: number; column: number } | undefined): void {
    this.cursor = cursor;
    if (this.pending === undefined && this.timer === undefined && !this.closed) this.writeCursor('');
  }

  /** Draws the whole screen again from what it should show (Ctrl+L, back from Ctrl+Z or an editor). */
  repaint(): void {
    if (this.closed) return;
    this.full = true;
    this.cursorShown = '';
    if (this.pending === undefined) {
      // The screen as shown already holds the overlay's rows.
      this.pending = this.screen.join('\n');
      this.pendingOverlay = undefined;
    }
    this.flush();
  }

  private cursorBytes(): string {
    const c = this.cursor;
    // Never placed: the cursor stays as the screen left it (hidden).
    if (c === null) return '';
    if (!c) return '\x1b[?25l';
    const row = Math.max(0, Math.min(c.row, this.rows - 1));
    return `\x1b[${row + 1};${Math.max(0, c.column) + 1}H\x1b[?25h`;
  }

  private writeCursor(bytes: string): void {
    const cursor = this.cursorBytes();
    // The frame's own writes move the cursor: after any, it is put back; otherwise only on change.
    if (bytes === '' && cursor === this.cursorShown) return;
    this.cursorShown = cursor;
    if (bytes === '' && cursor === '') return;
    const out = bytes + cursor;
    this.written += bytes === '' ? 0 : 1;
    this.target.write(this.sync && bytes !== '' ? BSU + out + ESU : out);
  }

  /** The terminal changed size: its contents are unknown, so the next frame repaints it all. */
  resize(rows: number): void {
    this.rows = rows;
    this.full = true;
  }

  flush(): void {
    if (this.timer !== undefined) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    if (this.pending === undefined || this.closed) return;
    const frame = this.pending;
    this.pending = undefined;
    const lines = applyOverlay(frame.split('\n'), this.pendingOverlay);
    this.pendingOverlay = undefined;
    const { bytes, screen } = diffFrame(this.screen, lines, this.rows, this.full);
    this.full = false;
    this.screen = screen;
    this.lastWrite = performance.now();
    this.writeCursor(bytes);
  }

  /** Writes what is pending and stops; later frames are dropped. */
  close(): void {
    this.flush();
    this.closed = true;
  }
}
