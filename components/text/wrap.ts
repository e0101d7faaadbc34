/** Word wrapping of styled text into rows of at most `width` cells. Pure. */
import { codePointWidth, isPlainAscii, textWidth } from './char-width.js';
import type { Segment, StyledLine, TextStyle } from './styled-line.js';

interface Cell {
  readonly ch: string;
  readonly w: number;
  readonly style: TextStyle | undefined;
}

function toCells(segs: readonly Segment[]): Cell[] {
  const cells: Cell[] = [];
  for (const seg of segs) {
    for (const ch of seg.text) cells.push({ ch, w: codePointWidth(ch.codePointAt(0)!), style: seg.style });
  }
  return cells;
}

function toLine(cells: readonly Cell[], prefix: readonly Segment[]): StyledLine {
  const out: Segment[] = [...prefix];
  let text = '';
  let style: TextStyle | undefined;
  for (const cell of cells) {
    if (cell.style !== style && text !== '') {
      out.push(style === undefined ? { text } : { text, style });
      text = '';
    }
    style = cell.style;
    text += cell.ch;
  }
  if (text !== '') out.push(style === undefined ? { text } : { text, style });
  return out;
}

function trimEnd(cells: Cell[]): Cell[] {
  let end = cells.length;
  while (end > 0 && cells[end - 1]!.ch === ' ') end--;
  return end === cells.length ? cells : cells.slice(0, end);
}

export interface WrapOptions {
  /** Segments put in front of the first row (a bullet, a gutter). */
  readonly firstPrefix?: readonly Segment[];
  /** Segments put in front of every following row (hanging indent). */
  readonly restPrefix?: readonly Segment[];
}

function prefixWidth(prefix: readonly Segment[]): number {
  let w = 0;
  for (const seg of prefix) w += textWidth(seg.text);
  return w;
}

/** Wraps one logical line (no '\n' inside) at spaces, breaking long words hard. */
export function wrapSegments(segs: readonly Segment[], width: number, opts: WrapOptions = {}): StyledLine[] {
  const first = opts.firstPrefix ?? [];
  const rest = opts.restPrefix ?? first;
  const firstWidth = Math.max(1, width - prefixWidth(first));
  const restWidth = Math.max(1, width - prefixWidth(rest));

  // Fast path: most lines are short ASCII and need no work.
  if (segs.every((s) => isPlainAscii(s.text))) {
    let total = 0;
    for (const s of segs) total += s.text.length;
    if (total <= firstWidth) return [[...first, ...segs]];
  }

  const cells = toCells(segs);
  const rows: StyledLine[] = [];
  let row: Cell[] = [];
  let rowWidth = 0;
  let lastSpace = -1;
  const limit = (): number => (rows.length === 0 ? firstWidth : restWidth);
  const prefix = (): readonly Segment[] => (rows.length === 0 ? first : rest);

  for (const cell of cells) {
    while (rowWidth + cell.w > limit() && row.length > 0) {
      if (cell.ch === ' ') {
        rows.push(toLine(trimEnd(row), prefix()));
        row = [];
        rowWidth = 0;
        lastSpace = -1;
        break;
      }
      if (lastSpace > 0) {
        const carried = row.slice(lastSpace + 1);
        rows.push(toLine(trimEnd(row.slice(0, lastSpace)), prefix()));
        row = carried;
      } else {
        rows.push(toLine(row, prefix()));
        row = [];
      }
      rowWidth = row.reduce((w, c) => w + c.w, 0);
      lastSpace = -1;
    }
    // A space that ended a row is dropped rather than starting the next one.
    if (cell.ch === ' ' && row.length === 0 && rows.length > 0) continue;
    if (cell.ch === ' ') lastSpace = row.length;
    row.push(cell);
    rowWidth += cell.w;
  }
  rows.push(toLine(trimEnd(row), prefix()));
  return rows;
}

/** Wraps multi-line text with one style. */
export function wrapText(text: string, width: number, style?: TextStyle, opts: WrapOptions = {}): StyledLine[] {
  const out: StyledLine[] = [];
  for (const line of text.split('\n')) {
    out.push(...wrapSegments(line === '' ? [] : [style === undefined ? { text: line } : { text: line, style }], width, opts));
  }
  return out;
}
