/**
 * The full screen's first frame as Ink would draw it, computed without Ink or React. Pure.
 *
 * Why: loading the view (Ink, React, the app: ~900 KB) and Ink's first layout take ~200 ms, most
 * of the time to the first frame. The CLI paints these rows the moment the config is read, then
 * loads the view, whose FrameWriter starts from them: when Ink's first frame is the same, nothing
 * is redrawn, and when it is not (an unusual terminal), the differing rows are simply rewritten.
 *
 * It renders the same pure parts the components do (headerLines, meterSegments, the composer's
 * layout) and encodes them as Ink's output does: one SGR run per style, truncated with "…" that
 * takes the style of the last character kept. test/components/first-frame.test.tsx compares it
 * with Ink's real first frame at many sizes; a component change that breaks the match fails there.
 */
import type { SessionState } from '../src/agent/state.js';
import { EMPTY_BUFFER, type EditBuffer } from './composer/edit-buffer.js';
import { composerPlaceholder, composerWindow, layoutComposer, separatorLine } from './composer/composer-layout.js';
import { headerLines } from './header-lines.js';
import { MAX_COMPOSER_ROWS, computeLayout } from './layout.js';
import { BUSY_STYLE, STARTING_TEXT, busyText, indexingText, meterBarWidth, meterSegments, usageText } from './status/status-segments.js';
import { FG } from './text/ansi.js';
import { visibleStyle } from './text/color-mode.js';
import type { Segment, StyledLine, TextStyle } from './text/styled-line.js';
import { theme } from './theme.js';

/** Smallest terminal the early frame is drawn for; a smaller one waits for Ink. */
export const FIRST_FRAME_MIN = { columns: 20, rows: 6 } as const;

// Characters whose width is certain (one column, one UTF-16 unit, the same for Ink's string-width
// and the composer's layout): printable ASCII, the frame's own symbols, and the Latin letters and
// signs of Latin-1 and Latin Extended-A/B (no combining marks, no soft hyphen). A row with anything
// else (a project path in another script, an emoji in a preset name) is left to Ink, which
// measures it properly. components/terminal/early-input.ts echoes only these characters too.
export const KNOWN_WIDTH_CHAR = /^[\x20-\x7e\u00a1-\u00ac\u00ae-\u024f…·─›█]$/;
const KNOWN_WIDTH = /^[\x20-\x7e\u00a1-\u00ac\u00ae-\u024f…·─›█]*$/;

/** The frame's rows, each as Ink writes it, and where the view puts the terminal's cursor. */
export interface FirstFrame {
  readonly lines: string[];
  readonly cursor: { readonly row: number; readonly column: number };
}

/**
 * The rows of the first frame for `state` on a terminal of the given size, each as Ink would
 * write it; undefined when the frame cannot be known for sure without Ink.
 */
export function firstFrameRows(state: SessionState, columns: number, rows: number): string[] | undefined {
  return firstFrame(state, columns, rows)?.lines;
}

/**
 * The first frame with `typed` in the input (keys typed before the view is loaded, one line of
 * known-width characters): what the view's first frame will be once it takes that text over.
 */
export function firstFrame(state: SessionState, columns: number, rows: number, typed: EditBuffer = EMPTY_BUFFER): FirstFrame | undefined {
  if (columns < FIRST_FRAME_MIN.columns || rows < FIRST_FRAME_MIN.rows) return undefined;
  if (state.blocks.length > 0 || state.pendingApproval !== null) return undefined;
  // The view puts the terminal's own cursor at the caret, so the caret is not drawn.
  const composer = layoutComposer(typed, columns, composerPlaceholder(state.busy), { marker: false, maxRows: MAX_COMPOSER_ROWS });
  const layout = computeLayout({ rows, reasoning: false, composerRows: composer.totalRows, composerExtras: 0 });
  // As the composer area lays it out: the input's rows around the caret, then the rule above them.
  const input = composerWindow(composer, Math.max(1, Math.min(layout.composerRows, layout.bottom)));
  const room = layout.bottom - input.rows.length;

  const lines: StyledLine[] = [];
  lines.push(...headerLines(state, columns, layout.header));
  for (let i = 0; i < layout.transcript; i++) lines.push([]);
  if (layout.status > 0) lines.push(statusLine(state, columns));
  if (room > 0) lines.push(separatorLine(columns));
  lines.push(...input.rows);
  while (lines.length < rows) lines.push([]);

  const out: string[] = [];
  for (const line of lines) {
    if (!line.every((seg) => KNOWN_WIDTH.test(seg.text))) return undefined;
    out.push(encodeAsInk(line, columns));
  }
  return { lines: out, cursor: { row: rows - input.rows.length + input.cursorRow, column: composer.cursorColumn } };
}

function statusLine(state: SessionState, columns: number): StyledLine {
  const segments: Segment[] = [...meterSegments(state.context, meterBarWidth(columns))];
  segments.push({ text: usageText(state.lastUsage, state.sessionCost, state.sessionUsage.unreported ?? 0), style: theme.dim });
  if (state.indexing) segments.push({ text: indexingText(state.indexing), style: theme.dim });
  // The busy timer has not ticked yet in a first frame.
  if (state.starting) segments.push({ text: STARTING_TEXT, style: theme.dim });
  else if (state.busy) segments.push({ text: busyText(0), style: BUSY_STYLE });
  return segments;
}

/** A row as Ink 6 writes it: truncated at `width` with "…", one open/close pair per style run, its end trimmed. */
export function encodeAsInk(line: StyledLine, width: number): string {
  // Segments that differ only in colour are one run when colour is off, as Ink draws them.
  const runs = mergeRuns(line.map((seg) => (seg.style === undefined ? seg : { ...seg, style: visibleStyle(seg.style) })));
  let total = 0;
  for (const run of runs) total += run.text.length;
  const kept = total > width ? truncate(runs, width) : runs;
  let out = '';
  for (const run of kept) {
    const [open, close] = sgr(run.style);
    out += open + run.text + close;
  }
  // Ink trims each row's end: spaces after the last style's closing code stay, unstyled ones go.
  return out.trimEnd();
}

function mergeRuns(line: StyledLine): Segment[] {
  const runs: Segment[] = [];
  for (const seg of line) {
    if (seg.text === '') continue;
    const last = runs[runs.length - 1];
    if (last && sameStyle(last.style, seg.style)) runs[runs.length - 1] = { ...last, text: last.text + seg.text };
    else runs.push(seg);
  }
  return runs;
}

/** Keeps width-1 columns and adds "…" to the run holding the last character kept. */
function truncate(runs: readonly Segment[], width: number): Segment[] {
  const out: Segment[] = [];
  let room = Math.max(0, width - 1);
  for (const run of runs) {
    if (room === 0) break;
    const text = run.text.slice(0, room);
    room -= text.length;
    out.push({ ...run, text });
  }
  const last = out[out.length - 1];
  if (last) out[out.length - 1] = { ...last, text: `${last.text}…` };
  else out.push({ text: '…' });
  return out;
}

/**
 * Opening and closing codes in the order Ink's Text nests them (dim innermost, then colour, bold,
 * italic, underline, inverse outermost), each closed by its own reset code.
 */
function sgr(style: TextStyle | undefined): [string, string] {
  if (style === undefined) return ['', ''];
  const pairs: [number, number][] = [];
  if (style.dim) pairs.push([2, 22]);
  const fg = style.color === undefined ? undefined : FG[style.color];
  if (fg !== undefined) pairs.push([fg, 39]);
  const bg = style.backgroundColor === undefined ? undefined : FG[style.backgroundColor];
  if (bg !== undefined) pairs.push([bg + 10, 49]);
  if (style.bold) pairs.push([1, 22]);
  if (style.italic) pairs.push([3, 23]);
  if (style.underline) pairs.push([4, 24]);
  if (style.inverse) pairs.push([7, 27]);
  let open = '';
  let close = '';
  for (const [on, off] of pairs) {
    open = `\x1b[${on}m${open}`;
    close += `\x1b[${off}m`;
  }
  return [open, close];
}

function sameStyle(a: TextStyle | undefined, b: TextStyle | undefined): boolean {
  if (a === b) return true;
  if (a === undefined || b === undefined) return false;
  return (
    a.color === b.color &&
    a.backgroundColor === b.backgroundColor &&
    Boolean(a.bold) === Boolean(b.bold) &&
    Boolean(a.dim) === Boolean(b.dim) &&
    Boolean(a.italic) === Boolean(b.italic) &&
    Boolean(a.underline) === Boolean(b.underline) &&
    Boolean(a.inverse) === Boolean(b.inverse)
  );
}
