/**
 * Markdown (GFM) tables: recognising their rows, and laying them out for a width. Columns are
 * measured in terminal cells (CJK and emoji count two), padded to their alignment, and wrapped
 * inside their column when the table is wider than the screen; when even wrapped columns would be
 * too narrow to read, each row becomes a small list of "header: value" lines instead. Pure.
 */
import { textWidth } from '../text/char-width.js';
import type { Segment, StyledLine, TextStyle } from '../text/styled-line.js';
import { wrapSegments } from '../text/wrap.js';
import { theme } from '../theme.js';

export type Align = 'left' | 'center' | 'right';

export interface TableSource {
  readonly header: readonly string[];
  readonly align: readonly Align[];
  readonly rows: readonly (readonly string[])[];
}

/** Narrowest a wrapped column may get before the table is shown as a list instead. */
export const MIN_COLUMN = 6;

/**
 * The cells of a table row, or undefined when the line has no cell separator. A leading and a
 * trailing pipe are optional; `\|` and pipes inside `code` do not separate cells.
 */
export function splitRow(line: string): string[] | undefined {
  const text = line.trim();
  if (!text.includes('|')) return undefined;
  const cells: string[] = [];
  let cell = '';
  let code = false;
  let sawPipe = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (ch === '\\' && text[i + 1] === '|') {
      cell += '|';
      i++;
    } else if (ch === '`') {
      code = !code;
      cell += ch;
    } else if (ch === '|' && !code) {
      sawPipe = true;
      cells.push(cell);
      cell = '';
    } else {
      cell += ch;
    }
  }
  if (!sawPipe) return undefined;
  cells.push(cell);
  if (text.startsWith('|')) cells.shift();
  if (text.endsWith('|') && !text.endsWith('\\|') && cells.length > 0) cells.pop();
  return cells.map((c) => c.trim());
}

const DELIMITER_CELL = /^:?-+:?$/;

/** The alignments a delimiter row (|---|:--:|--:|) gives, or undefined when the line is not one. */
export function delimiterRow(line: string): Align[] | undefined {
  const cells = splitRow(line);
  if (!cells || cells.length === 0 || !cells.every((c) => DELIMITER_CELL.test(c.replace(/\s+/g, '')))) return undefined;
  return cells.map((c) => {
    const t = c.replace(/\s+/g, '');
    const left = t.startsWith(':');
    const right = t.endsWith(':');
    return left && right ? 'center' : right ? 'right' : 'left';
  });
}

type Inline = (text: string, base?: TextStyle) => Segment[];

function widthOf(segs: readonly Segment[]): number {
  let w = 0;
  for (const s of segs) w += textWidth(s.text);
  return w;
}

function longestWord(segs: readonly Segment[]): number {
  let longest = 0;
  for (const word of segs.map((s) => s.text).join('').split(/\s+/)) longest = Math.max(longest, textWidth(word));
  return longest;
}

/** Column widths that fit `room` cells: narrow columns keep their width, wide ones share the rest. */
function fitWidths(natural: readonly number[], room: number): number[] {
  const order = natural.map((w, i) => [w, i] as const).sort((a, b) => a[0] - b[0]);
  const out = new Array<number>(natural.length).fill(0);
  let left = room;
  order.forEach(([w, i], k) => {
    const share = Math.floor(left / (order.length - k));
    out[i] = Math.max(1, Math.min(w, share));
    left -= out[i]!;
  });
  return out;
}

function pad(segs: readonly Segment[], width: number, align: Align): Segment[] {
  const gap = Math.max(0, width - widthOf(segs));
  const before = align === 'right' ? gap : align === 'center' ? Math.floor(gap / 2) : 0;
  const after = gap - before;
  return [...(before > 0 ? [{ text: ' '.repeat(before) }] : []), ...segs, ...(after > 0 ? [{ text: ' '.repeat(after) }] : [])];
}

function border(widths: readonly number[], left: string, mid: string, right: string): StyledLine {
  return [{ text: left + widths.map((w) => '─'.repeat(w + 2)).join(mid) + right, style: theme.tableBorder }];
}

/** One table row as terminal rows: every cell wrapped in its column, the row as tall as its tallest cell. */
function rowLines(cells: readonly (readonly Segment[])[], widths: readonly number[], align: readonly Align[]): StyledLine[] {
  const wrapped = cells.map((segs, i) => wrapSegments(segs, widths[i]!));
  const height = Math.max(1, ...wrapped.map((w) => w.length));
  const bar: Segment = { text: '│', style: theme.tableBorder };
  const lines: StyledLine[] = [];
  for (let r = 0; r < height; r++) {
    const line: Segment[] = [bar];
    wrapped.forEach((rows, i) => {
      line.push({ text: ' ' }, ...pad(rows[r] ?? [], widths[i]!, align[i] ?? 'left'), { text: ' ' }, bar);
    });
    lines.push(line);
  }
  return lines;
}

/** A row as "header: value" lines under a bullet: the layout for screens too narrow for columns. */
function listLayout(header: readonly (readonly Segment[])[], body: readonly (readonly (readonly Segment[])[])[], width: number): StyledLine[] {
  const out: StyledLine[] = [];
  body.forEach((cells, r) => {
    if (r > 0) out.push([]);
    cells.forEach((cell, i) => {
      const label = header[i] ?? [];
      const labelled: Segment[] = label.length > 0 ? [...label.map((s) => ({ ...s, style: { ...s.style, ...theme.tableHeader } })), { text: ': ' }, ...cell] : [...cell];
      out.push(...wrapSegments(labelled, width, {
        firstPrefix: [{ text: i === 0 ? '• ' : '  ', style: theme.bullet }],
        restPrefix: [{ text: '    ' }],
      }));
    });
  });
  return out;
}

export function renderTable(table: TableSource, width: number, inline: Inline): StyledLine[] {
  const count = table.header.length;
  const fit = (cells: readonly string[]): string[] => Array.from({ length: count }, (_, i) => cells[i] ?? '');
  const header = fit(table.header).map((c) => inline(c, theme.tableHeader));
  const body = table.rows.map((row) => fit(row).map((c) => inline(c)));
  const all = [header, ...body];
  const natural = Array.from({ length: count }, (_, i) => Math.max(1, ...all.map((row) => widthOf(row[i]!))));
  // "│ a │ b │": a bar and a space each side of every cell.
  const room = width - (3 * count + 1);
  const widths = room >= count ? fitWidths(natural, room) : [];
  const tooNarrow =
    widths.length === 0 ||
    widths.some((w, i) => w < Math.min(natural[i]!, MIN_COLUMN) || w < Math.min(longestWord(all.map((r) => r[i]!).flat()), 3));
  if (tooNarrow) return listLayout(header, body, width);
  const align = Array.from({ length: count }, (_, i) => table.align[i] ?? 'left');
  const bodyRows = body.map((cells) => rowLines(cells, widths, align));
  // Rows that wrap onto several lines need a rule between them, or they run together.
  const ruled = bodyRows.some((rows) => rows.length > 1);
  const lines: StyledLine[] = [border(widths, '┌', '┬', '┐'), ...rowLines(header, widths, align), border(widths, '├', '┼', '┤')];
  bodyRows.forEach((rows, i) => {
    if (ruled && i > 0) lines.push(border(widths, '├', '┼', '┤'));
    lines.push(...rows);
  });
  lines.push(border(widths, '└', '┴', '┘'));
  return lines;
}
