/**
 * The approval's answer keys as styled rows, in the longest form that fits the width, so no key
 * is ever cut off and every answer's consequence is said where there is room: the main row
 * (y / n / a / q), then the other answers ([t]ell, [e]very, [s]ave, Esc) and the scroll keys. Pure.
 */
import type { PendingApproval } from '../../src/agent/state.js';
import { textWidth } from '../text/char-width.js';
import { oneLine } from '../text/sanitize.js';
import type { Segment, StyledLine } from '../text/styled-line.js';
import { wrapSegments } from '../text/wrap.js';
import { alwaysLabel } from './approval-rows.js';
import { theme } from '../theme.js';

const KEY = { bold: true } as const;
const YES = theme.keyYes;
const NO = theme.keyNo;
const ALWAYS = theme.keyAlways;
const QUIT = theme.keyQuit;
const DIM = { dim: true };

export type KeysForm = 'full' | 'short' | 'letters';

/** The main row's form for this width (kept apart: tests and the tiny layouts ask for it). */
export function approvalKeysForm(request: PendingApproval, width: number, outside = false): KeysForm {
  const full = `[y]es  [n]o  [a]${alwaysLabel(request, outside).slice(1)}  [q]uit turn`;
  if (full.length <= width) return 'full';
  return '[y]es [n]o [a]lways [q]uit'.length <= width ? 'short' : 'letters';
}

function mainRow(request: PendingApproval, width: number, outside: boolean, extraLetters: string): Segment[] {
  const form = approvalKeysForm(request, width, outside);
  if (form === 'letters') {
    return [
      { text: 'y', style: YES }, { text: '/' }, { text: 'n', style: NO }, { text: '/' }, { text: 'a', style: ALWAYS }, { text: '/' },
      { text: 'q', style: QUIT }, ...(extraLetters !== '' ? [{ text: `/${extraLetters}`, style: KEY }] : []),
    ];
  }
  const gap = form === 'full' ? '  ' : ' ';
  return [
    { text: '[y]', style: YES }, { text: `es${gap}` }, { text: '[n]', style: NO }, { text: `o${gap}` }, { text: '[a]', style: ALWAYS },
    { text: `${form === 'full' ? alwaysLabel(request, outside).slice(1) : 'lways'}${gap}` }, { text: '[q]', style: QUIT },
    { text: form === 'full' ? 'uit turn' : 'uit' },
  ];
}

interface Item {
  readonly key: string;
  /** Forms from the most to the least said; each is the text after the key. */
  readonly forms: readonly string[];
}

function extraItems(request: PendingApproval, scrollable: boolean): Item[] {
  const items: Item[] = [{ key: '[t]', forms: [' no, and tell the model what to do instead', 'ell why (a no with a note)', 'ell why', 'ell'] }];
  if (request.every === true) {
    items.push({ key: '[e]', forms: ['very command: nothing is asked again this session', 'very command: no more asks', 'very: asks no more', 'very'] });
  }
  if (request.save !== undefined) items.push({ key: '[s]', forms: ['ave: [a]lways, and keep it as a rule in your config', 'ave as a rule', 'ave', 'ave'] });
  items.push({ key: 'Esc', forms: [' no', ' no', ' no', ''] });
  if (scrollable) items.push({ key: '', forms: ['↑↓ PgUp/PgDn Home/End scroll', 'PgUp/PgDn Home/End', 'PgDn/End', ''] });
  return items;
}

function itemSegments(items: readonly Item[], level: number, gap: string): Segment[] {
  const segs: Segment[] = [];
  for (const item of items) {
    const text = item.forms[Math.min(level, item.forms.length - 1)] ?? '';
    if (item.key === '' && text === '') continue;
    if (segs.length > 0) segs.push({ text: gap });
    if (item.key !== '') segs.push({ text: item.key, style: item.key === 'Esc' ? NO : KEY });
    if (text !== '') segs.push(item.key === '' ? { text, style: DIM } : { text });
  }
  return segs;
}

function widthOf(segs: readonly Segment[]): number {
  return segs.reduce((w, s) => w + textWidth(s.text), 0);
}

export interface KeyRowsOptions {
  readonly outside?: boolean;
  /** Lines of the body scrolled past, shown on the main row when there is room. */
  readonly above?: number;
  /** The body is longer than its rows: the scroll keys are named. */
  readonly scrollable?: boolean;
  /** No room for the head: the main row says what is asked, after the keys. */
  readonly withSummary?: boolean;
  /** At most this many rows for the other answers (the main row is always one). */
  readonly maxExtraRows?: number;
}

/** The rows under the body: the main keys, then the other answers on one row (two at most). */
export function keyRows(request: PendingApproval, width: number, opts: KeyRowsOptions = {}): StyledLine[] {
  const items = extraItems(request, opts.scrollable === true);
  const letters = items.filter((i) => i.key.startsWith('[')).map((i) => i.key[1]).join('/');
  const form = approvalKeysForm(request, width, opts.outside === true);
  const main: Segment[] = mainRow(request, width, opts.outside === true, letters);
  if ((opts.above ?? 0) > 0 && widthOf(main) + 20 <= width) main.push({ text: `  (${opts.above} lines above)`, style: DIM });
  if (opts.withSummary === true) main.push({ text: ` · ${request.kind.toUpperCase()} ${oneLine(request.summary)}` });
  const rows: StyledLine[] = [main];
  const room = opts.maxExtraRows ?? 2;
  // In the letters form the main row already names every key.
  if (form === 'letters' || room <= 0) return rows;
  for (let level = 0; level < 4; level++) {
    const segs = itemSegments(items, level, level === 0 ? '  ' : ' · ');
    if (widthOf(segs) <= width) return [...rows, segs];
  }
  const wrapped = wrapSegments(itemSegments(items, 2, ' · '), width);
  return [...rows, ...wrapped.slice(0, room)];
}

/** The two rows under the reason field (or its one when there is no room). */
export function reasonKeyRows(width: number): StyledLine[] {
  const full: Segment[] = [{ text: 'Enter', style: KEY }, { text: ' sends the no with these words to the model · ' }, { text: 'Esc', style: NO }, { text: ' just no' }];
  if (widthOf(full) <= width) return [full];
  return [[{ text: 'Enter', style: KEY }, { text: ' send · ' }, { text: 'Esc', style: NO }, { text: ' no' }]];
}

/** The row under the [s]ave preview. */
export function saveKeyRows(width: number): StyledLine[] {
  const full: Segment[] = [{ text: '[y]/Enter', style: YES }, { text: ' write it, and run this · ' }, { text: '[n]/Esc', style: NO }, { text: ' back to the answers' }];
  if (widthOf(full) <= width) return [full];
  return [[{ text: 'y', style: YES }, { text: ' write · ' }, { text: 'n/Esc', style: NO }, { text: ' back' }]];
}
