/**
 * A small markdown renderer for answers: headings, lists, quotes, rules, tables, bold, italic,
 * inline code and fenced code with syntax highlighting. Pure (given the highlighter's loaded
 * languages); line-based, so a text cut at newlines renders as the whole does.
 */
import { codeSegments } from '../highlight/code-segments.js';
import { languageOfFence, type CodeLanguage } from '../highlight/languages.js';
import type { Segment, StyledLine, TextStyle } from '../text/styled-line.js';
import { wrapSegments } from '../text/wrap.js';
import { theme } from '../theme.js';
import { delimiterRow, renderTable, splitRow, type Align } from './markdown-table.js';

const FENCE = /^\s*(```|~~~)/;
const HEADING = /^(#{1,6})\s+(.*)$/;
const LIST = /^(\s*)([-*+]|\d{1,3}[.)])\s+(.*)$/;
const QUOTE = /^\s*>\s?(.*)$/;
const RULE = /^\s*([-*_])(\s*\1){2,}\s*$/;

/** Inline spans: `code`, **bold**, *italic* / _italic_. Unclosed markers stay literal. */
export function parseInline(text: string, base?: TextStyle): Segment[] {
  const out: Segment[] = [];
  let plain = '';
  const flush = (): void => {
    if (plain !== '') out.push(base === undefined ? { text: plain } : { text: plain, style: base });
    plain = '';
  };
  let i = 0;
  while (i < text.length) {
    const ch = text[i]!;
    if (ch === '`') {
      const end = text.indexOf('`', i + 1);
      if (end > i + 1) {
        flush();
        out.push({ text: text.slice(i + 1, end), style: { ...base, ...theme.inlineCode } });
        i = end + 1;
        continue;
      }
    } else if (ch === '*' && text[i + 1] === '*') {
      const end = text.indexOf('**', i + 2);
      if (end > i + 2) {
        flush();
        for (const seg of parseInline(text.slice(i + 2, end), { ...base, bold: true })) out.push(seg);
        i = end + 2;
        continue;
      }
    } else if ((ch === '*' || ch === '_') && text[i + 1] !== ' ' && text[i + 1] !== ch) {
      const prevIsWord = i > 0 && /\w/.test(text[i - 1]!);
      const end = text.indexOf(ch, i + 1);
      if (!prevIsWord && end > i + 1 && text[end - 1] !== ' ' && !(ch === '_' && /\w/.test(text[end + 1] ?? ''))) {
        flush();
        for (const seg of parseInline(text.slice(i + 1, end), { ...base, italic: true })) out.push(seg);
        i = end + 1;
        continue;
      }
    }
    plain += ch;
    i++;
  }
  flush();
  return out;
}

/** A code fence that is open: its marker, language, and the code lines not yet laid out. */
interface OpenFence {
  readonly char: string;
  readonly length: number;
  readonly indent: number;
  readonly lang: CodeLanguage | undefined;
  /** The chunk before `pending`, highlighted with it so a string or comment carries over. */
  context: string[];
  pending: string[];
}

/**
 * What a line's rendering depends on from the lines before it: an open code fence, a table still
 * collecting rows, a line that may be a table's header (it waits for the next line). Rendering
 * goes line by line carrying only this, so a text cut at newlines renders as the whole does.
 */
export interface MarkdownState {
  fence?: OpenFence;
  table?: { header: string[]; align: Align[]; rows: string[][] };
  held?: string;
}

/**
 * Code is highlighted in chunks of this many lines, each with the chunk before it as context: the
 * same rule whether the text streams or is finished (so both look the same), and a frame of a
 * long streaming block costs two chunks, not the whole block.
 */
export const CODE_CHUNK_LINES = 40;

const FENCE_OPEN = /^( *)(`{3,}|~{3,})(.*)$/;
const FENCE_CLOSE = /^ *(`{3,}|~{3,})\s*$/;

export function copyMarkdownState(state: MarkdownState): MarkdownState {
  const out: MarkdownState = {};
  if (state.fence) out.fence = { ...state.fence, context: [...state.fence.context], pending: [...state.fence.pending] };
  if (state.table) out.table = { ...state.table, rows: [...state.table.rows] };
  if (state.held !== undefined) out.held = state.held;
  return out;
}

/** Renders markdown source (sanitized already) into wrapped rows. */
export function renderMarkdown(source: string, width: number): StyledLine[] {
  const state: MarkdownState = {};
  const rows = renderMarkdownLines(source.split('\n'), width, state);
  rows.push(...flushMarkdown(width, state));
  return rows;
}

function codeRows(fence: OpenFence, width: number): StyledLine[] {
  const rows: StyledLine[] = [];
  for (const segs of codeSegments(fence.pending, fence.lang, fence.context)) {
    rows.push(...wrapSegments(segs, width, { firstPrefix: [{ text: '│ ', style: theme.codeFrame }] }));
  }
  fence.context = fence.pending;
  fence.pending = [];
  return rows;
}

/**
 * Rows for what `state` still holds back (a table, a possible header, code lines of an open
 * fence), laid out as if the text ended here; `state` is left with nothing held.
 */
export function flushMarkdown(width: number, state: MarkdownState): StyledLine[] {
  const rows: StyledLine[] = [];
  if (state.fence) rows.push(...codeRows(state.fence, width));
  if (state.table) rows.push(...renderTable(state.table, width, parseInline));
  if (state.held !== undefined) rows.push(...renderLine(state.held, width));
  delete state.table;
  delete state.held;
  return rows;
}

/**
 * Renders lines that follow earlier ones whose effect is `state` (updated in place). Only rows
 * that are final come back; what depends on lines still to come stays in `state` (see
 * flushMarkdown). Rendering a text in pieces cut at newlines gives the rows of the whole.
 */
export function renderMarkdownLines(lines: readonly string[], width: number, state: MarkdownState): StyledLine[] {
  const rows: StyledLine[] = [];
  for (const line of lines) {
    const fence = state.fence;
    if (fence) {
      const close = FENCE_CLOSE.exec(line);
      if (close && close[1]![0] === fence.char && close[1]!.length >= fence.length) {
        rows.push(...codeRows(fence, width), [{ text: '╰─', style: theme.codeFrame }]);
        delete state.fence;
        continue;
      }
      fence.pending.push(line.slice(Math.min(fence.indent, line.length - line.trimStart().length)));
      if (fence.pending.length >= CODE_CHUNK_LINES) rows.push(...codeRows(fence, width));
      continue;
    }
    if (state.table) {
      const cells = line.trim() === '' ? undefined : splitRow(line);
      if (cells) {
        state.table.rows.push(cells);
        continue;
      }
      rows.push(...renderTable(state.table, width, parseInline));
      delete state.table;
    }
    if (state.held !== undefined) {
      const header = splitRow(state.held);
      const align = delimiterRow(line);
      const held = state.held;
      delete state.held;
      if (header && align && align.length === header.length) {
        state.table = { header, align, rows: [] };
        continue;
      }
      rows.push(...renderLine(held, width));
    }
    const open = FENCE_OPEN.exec(line);
    if (open && !(open[2]![0] === '`' && open[3]!.includes('`'))) {
      const info = open[3]!.trim();
      state.fence = { char: open[2]![0]!, length: open[2]!.length, indent: open[1]!.length, lang: info ? languageOfFence(info) : undefined, context: [], pending: [] };
      rows.push([{ text: info !== '' ? `╭─ ${info}` : '╭─', style: theme.codeFrame }]);
      continue;
    }
    // A line with cells may be a table's header: that depends on the next line.
    if (!HEADING.test(line) && !LIST.test(line) && !QUOTE.test(line) && splitRow(line)) {
      state.held = line;
      continue;
    }
    rows.push(...renderLine(line, width));
  }
  return rows;
}

/** One line outside code and tables: a heading, a rule, a list item, a quote or a paragraph line. */
function renderLine(line: string, width: number): StyledLine[] {
  const heading = HEADING.exec(line);
  if (heading) {
    const style = heading[1]!.length <= 2 ? theme.heading1 : theme.heading;
    return wrapSegments(parseInline(heading[2]!, style), width);
  }
  if (RULE.test(line)) return [[{ text: '─'.repeat(Math.max(1, Math.min(width, 40))), style: theme.dim }]];
  const list = LIST.exec(line);
  if (list) {
    const indent = ' '.repeat(Math.min(list[1]!.length, 12));
    const marker = /\d/.test(list[2]!) ? `${list[2]} ` : '• ';
    const hang = ' '.repeat(indent.length + marker.length);
    return wrapSegments(parseInline(list[3]!), width, {
      firstPrefix: [{ text: indent }, { text: marker, style: theme.bullet }],
      restPrefix: [{ text: hang }],
    });
  }
  const quote = QUOTE.exec(line);
  if (quote) {
    return wrapSegments(parseInline(quote[1]!, theme.quote), width, { firstPrefix: [{ text: '▌ ', style: theme.dim }] });
  }
  return wrapSegments(parseInline(line), width);
}

/**
 * Where streaming text can be cut so that the part before renders as final markdown: just after
 * the last blank line that is not inside a code fence. 0 when there is none.
 */
export function findSafeSplit(text: string): number {
  let inFence = false;
  let safe = 0;
  let start = 0;
  while (start < text.length) {
    const nl = text.indexOf('\n', start);
    if (nl < 0) break;
    const line = text.slice(start, nl);
    if (FENCE.test(line)) inFence = !inFence;
    else if (!inFence && line.trim() === '' && start > 0) safe = nl + 1;
    start = nl + 1;
  }
  return safe;
}
