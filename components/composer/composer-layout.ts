/** Lays the composer's text out into rows with a visible cursor. Pure. */
import { codePointWidth, textWidth } from '../text/char-width.js';
import { sanitizeForTerminal } from '../text/sanitize.js';
import type { Segment, StyledLine } from '../text/styled-line.js';
import { theme } from '../theme.js';
import type { EditBuffer } from './edit-buffer.js';

const PROMPT = '› ';
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
  readonly cursorRow: number;
}

/** Breaks at the width (no word wrap: what you type stays where you typed it). */
export function layoutComposer(buffer: EditBuffer, width: number, placeholder: string): ComposerLayout {
  const inner = Math.max(1, width - PROMPT.length);
  const rows: StyledLine[] = [];
  let cursorRow = 0;
  let offset = 0;
  const lines = buffer.text.split('\n');
  lines.forEach((line, lineIndex) => {
    const chars = [...line];
    let row: Segment[] = [];
    let rowText = '';
    let rowWidth = 0;
    const push = (): void => {
      if (rowText !== '') row.push({ text: rowText });
      rows.push([{ text: rows.length === 0 ? PROMPT : CONT, style: theme.accent }, ...row]);
      row = [];
      rowText = '';
      rowWidth = 0;
    };
    for (const ch of chars) {
      const shown = displayChar(ch);
      const w = shown === ch ? Math.max(1, codePointWidth(ch.codePointAt(0)!)) : textWidth(shown);
      if (rowWidth + w > inner) push();
      if (offset === buffer.cursor) {
        if (rowText !== '') row.push({ text: rowText });
        rowText = '';
        row.push({ text: shown, style: theme.marker });
        cursorRow = rows.length;
      } else {
        rowText += shown;
      }
      rowWidth += w;
      offset += ch.length;
    }
    if (offset === buffer.cursor) {
      if (rowWidth + 1 > inner) push();
      if (rowText !== '') row.push({ text: rowText });
      rowText = '';
      const empty = buffer.text === '' && lineIndex === 0;
      if (empty && placeholder !== '') {
        row.push({ text: placeholder[0]!, style: theme.marker }, { text: placeholder.slice(1), style: theme.dim });
      } else {
        row.push({ text: ' ', style: theme.marker });
      }
      cursorRow = rows.length;
    }
    push();
    offset += 1; // the '\n'
  });
  return { rows, cursorRow };
}

/** The rows to show when there are more than fit: a window that keeps the cursor visible. */
export function composerWindow(layout: ComposerLayout, maxRows: number): readonly StyledLine[] {
  if (layout.rows.length <= maxRows) return layout.rows;
  const start = Math.min(Math.max(0, layout.cursorRow - maxRows + 1), layout.rows.length - maxRows);
  return layout.rows.slice(start, start + maxRows);
}
