/** Lays the composer's text out into rows with a visible cursor. Pure. */
import { codePointWidth, textWidth } from '../text/char-width.js';
import { sanitizeForTerminal } from '../text/sanitize.js';
import type { Segment, StyledLine } from '../text/styled-line.js';
import { theme } from '../theme.js';
import type { EditBuffer } from './edit-buffer.js';
import { chipLabel, type Chips } from './paste-chips.js';

const PROMPT = '› ';
/** What starts the input's first row; the caret of an empty input comes right after it. */
export const COMPOSER_PROMPT = PROMPT;
const CONT = '  ';

/** What the empty input says; while a turn runs (or the session starts), typed text waits. */
export function composerPlaceholder(busy: boolean): string {
  return busy ? 'type ahead; Enter queues it for when this turn ends' : 'ask, or /help';
}

/** The rule above the input. */
export function separatorLine(width: number): StyledLine {
  return [{ text: '─'.repeat(Math.max(0, width)), style: theme.dim }];
}

// eslint-disable-next-line no-control-regex
const UNSAFE_CHAR = /[\x00-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/;

/**
 * What a character of the input looks like on screen: a pasted tab as the spaces the transcript
 * will show (a raw tab jumps to the terminal's tab stop, so the row is wider than laid out and
 * its end is cut off), any other control as a visible escape.
 */
function displayChar(ch: string): string {
  if (!UNSAFE_CHAR.test(ch)) return ch;
  const shown = sanitizeForTerminal(ch);
  return shown === '' ? ' ' : shown;
}

export interface ComposerLayout {
  readonly rows: readonly StyledLine[];
  /** The cursor's row in `rows`, and its column on screen (the prompt included). */
  readonly cursorRow: number;
  readonly cursorColumn: number;
  /**
   * How many rows the whole text takes, counted exactly up to `maxRows` past the cursor's lines
   * and as one per line beyond them (the input never shows more than a few rows anyway).
   */
  readonly totalRows: number;
}

export interface LayoutOptions {
  /** Lay out only the lines that can show in this many rows around the cursor. */
  readonly maxRows?: number;
  readonly chips?: Chips;
  /**
   * Draw the caret as an inverse cell. Off when the terminal's own cursor sits there (an inverse
   * cell under a block cursor would hide it). @default true
   */
  readonly marker?: boolean;
}

interface LineSpan {
  readonly start: number;
  readonly end: number;
}

/** The line holding offset `i`, found without splitting the text (it may be a 5,000-line paste). */
function lineAround(text: string, i: number): LineSpan {
  const start = text.lastIndexOf('\n', i - 1) + 1;
  const nl = text.indexOf('\n', i);
  return { start, end: nl < 0 ? text.length : nl };
}

/**
 * Breaks at the width (no word wrap: what you type stays where you typed it). With `maxRows`, only
 * the lines within that many rows of the cursor are laid out, so a key costs the same in a huge
 * input as in a short one.
 */
export function layoutComposer(buffer: EditBuffer, width: number, placeholder: string, opts: LayoutOptions = {}): ComposerLayout {
  const inner = Math.max(1, width - PROMPT.length);
  const chips = opts.chips;
  const caret = opts.marker === false ? {} : theme.marker;
  const limit = opts.maxRows ?? Number.POSITIVE_INFINITY;
  const { text } = buffer;
  const cursorLine = lineAround(text, buffer.cursor);
  // Lines before the cursor's, nearest first, then the cursor's and those after it.
  const before: LineSpan[] = [];
  for (let s = cursorLine.start; s > 0 && before.length < limit; ) {
    const span = lineAround(text, s - 1);
    before.unshift(span);
    s = span.start;
  }
  const after: LineSpan[] = [cursorLine];
  for (let e = cursorLine.end; e < text.length && after.length <= limit; ) {
    const span = lineAround(text, e + 1);
    after.push(span);
    e = span.end;
  }
  const firstLine = before.length === 0 ? 0 : lineIndexOf(text, before[0]!.start);
  const lastLaid = after[after.length - 1]!;
  const unlaid = firstLine + countNewlines(text, lastLaid.end, text.length);

  const rows: StyledLine[] = [];
  let cursorRow = 0;
  let cursorColumn = PROMPT.length;
  const spans = [...before, ...after];
  spans.forEach((span, k) => {
    let row: Segment[] = [];
    let rowText = '';
    let rowWidth = 0;
    const first = (): boolean => rows.length === 0 && firstLine === 0;
    const push = (): void => {
      if (rowText !== '') row.push({ text: rowText });
      rows.push([{ text: first() ? PROMPT : CONT, style: theme.accent }, ...row]);
      row = [];
      rowText = '';
      rowWidth = 0;
    };
    for (let offset = span.start; offset < span.end; ) {
      const cp = text.codePointAt(offset)!;
      const ch = String.fromCodePoint(cp);
      const chip = chips?.get(ch);
      const shown = chip !== undefined ? chipLabel(chip) : displayChar(ch);
      const w = chip === undefined && shown === ch ? Math.max(1, codePointWidth(cp)) : textWidth(shown);
      if (rowWidth + w > inner && rowWidth > 0) push();
      if (offset === buffer.cursor || chip !== undefined) {
        if (rowText !== '') row.push({ text: rowText });
        rowText = '';
        row.push({ text: shown, style: chip !== undefined ? (offset === buffer.cursor ? { ...theme.accent, ...caret } : theme.accent) : caret });
        if (offset === buffer.cursor) {
          cursorRow = rows.length;
          cursorColumn = PROMPT.length + rowWidth;
        }
      } else {
        rowText += shown;
      }
      rowWidth += w;
      offset += ch.length;
    }
    if (span.end === buffer.cursor && k === before.length) {
      if (rowWidth + 1 > inner) push();
      if (rowText !== '') row.push({ text: rowText });
      rowText = '';
      if (text === '' && placeholder !== '') {
        row.push({ text: placeholder[0]!, style: opts.marker === false ? theme.dim : theme.marker }, { text: placeholder.slice(1), style: theme.dim });
      } else {
        row.push({ text: ' ', style: caret });
      }
      cursorRow = rows.length;
      cursorColumn = PROMPT.length + rowWidth;
    }
    push();
  });
  return { rows, cursorRow, cursorColumn, totalRows: rows.length + unlaid };
}

function countNewlines(text: string, from: number, to: number): number {
  let n = 0;
  for (let i = text.indexOf('\n', from); i >= 0 && i < to; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

function lineIndexOf(text: string, offset: number): number {
  return countNewlines(text, 0, offset);
}

/** The rows to show when there are more than fit: a window that keeps the cursor visible. */
export function composerWindow(layout: ComposerLayout, maxRows: number): { rows: readonly StyledLine[]; cursorRow: number } {
  if (layout.rows.length <= maxRows) return { rows: layout.rows, cursorRow: layout.cursorRow };
  const start = Math.min(Math.max(0, layout.cursorRow - maxRows + 1), layout.rows.length - maxRows);
  return { rows: layout.rows.slice(start, start + maxRows), cursorRow: layout.cursorRow - start };
}
