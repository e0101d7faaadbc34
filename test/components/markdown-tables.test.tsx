/**
 * Markdown tables in the transcript, through the real app at explicit sizes: aligned columns on a
 * wide screen (CJK measured as two cells), cells wrapped inside their column when the table is
 * wider than the screen, a list of "header: value" lines when even that would not be readable,
 * and the same rows while the table streams as once it is finished.
 */
import stringWidth from 'string-width';
import { describe, expect, it } from 'vitest';
import { LineCache } from '../../components/transcript/line-cache.js';
import { formatBlock } from '../../components/transcript/format-block.js';
import { lineText } from '../../components/text/styled-line.js';
import { renderApp, settle } from './render-app.js';

const TABLE = [
  'Prices this week:',
  '',
  '| Item | Qty | Unit price |',
  '|:-----|:---:|-----------:|',
  '| apple | 3 | 1.20 |',
  '| 苹果 (Fuji, from the hills north of the river) | 12 | 0.35 |',
  '| `pear` with **bold** | 1 | 10.00 |',
  '',
  'That is all.',
].join('\n');

async function show(columns: number, rows: number, text: string): Promise<string[]> {
  const r = renderApp({ columns, rows });
  r.engine.emit(
    { type: 'turn.start', blockId: 'u1', text: 'prices?' },
    { type: 'assistant.delta', blockId: 'a1', text },
    { type: 'turn.end', blockId: 'e1', status: 'finished' },
  );
  await settle();
  return r.frame().split('\n');
}

/** The rows of the drawn table: from its top border to its bottom one. */
function tableRows(frame: readonly string[]): string[] {
  const top = frame.findIndex((l) => l.startsWith('┌'));
  const bottom = frame.findIndex((l) => l.startsWith('└'));
  return top >= 0 && bottom > top ? frame.slice(top, bottom + 1) : [];
}

describe('markdown tables', () => {
  it('lines the columns up on a wide screen, with CJK measured as two cells and the alignment kept', async () => {
    const frame = await show(100, 30, TABLE);
    const table = tableRows(frame);
    expect(table.length).toBe(7);
    // Every row of the table is exactly as wide as its border, in terminal cells.
    const widths = table.map((l) => stringWidth(l.trimEnd()));
    expect(new Set(widths).size).toBe(1);
    // The column separators sit at the same cell on every row.
    const bars = (l: string): number[] => {
      const out: number[] = [];
      let cell = 0;
      for (const ch of l) {
        if ('│┼┬┴├┤┌┐└┘'.includes(ch)) out.push(cell);
        cell += stringWidth(ch);
      }
      return out;
    };
    const columns = bars(table[1]!);
    for (const row of table) expect(bars(row)).toEqual(columns);
    const header = table[1]!;
    expect(header).toMatch(/│ Item\s+│ Qty │ Unit price │/);
    expect(frame.join('\n')).toContain('│ apple ');
    // Centred and right-aligned as the delimiter row asks; inline markup rendered, not shown.
    expect(table.find((l) => l.includes('apple'))).toMatch(/│\s+3\s+│\s+1\.20 │$/);
    expect(table.find((l) => l.includes('pear'))).toContain('pear with bold');
    expect(frame.join('\n')).not.toMatch(/\|[-:]+\|/);
    expect(frame.join('\n')).toContain('That is all.');
  });

  it('wraps cells inside their columns when the table is wider than the screen', async () => {
    const frame = await show(44, 30, TABLE);
    const table = tableRows(frame);
    expect(table.length).toBeGreaterThan(7);
    for (const row of table) expect(stringWidth(row.trimEnd())).toBeLessThanOrEqual(44);
    expect(new Set(table.map((l) => stringWidth(l.trimEnd()))).size).toBe(1);
    // The long cell continues on the rows below, inside the first column.
    const start = table.findIndex((l) => l.includes('苹果'));
    expect(table[start + 1]).toMatch(/^│ \S/);
    expect(table.slice(start, start + 4).join(' ')).toMatch(/hills/);
    // Rows that wrap are ruled off from each other.
    expect(table.filter((l) => l.startsWith('├')).length).toBeGreaterThan(1);
  });

  it('falls back to a list of header: value lines on a narrow screen', async () => {
    const frame = await show(24, 40, TABLE);
    expect(tableRows(frame)).toEqual([]);
    const text = frame.join('\n');
    expect(text).toContain('• Item: apple');
    expect(text).toMatch(/ {2}Qty: 3/);
    expect(text).toMatch(/ {2}Unit price: 1\.20/);
    expect(text).toContain('• Item: 苹果');
    for (const row of frame) expect(stringWidth(row)).toBeLessThanOrEqual(24);
  });

  it('keeps a table of wide characters aligned', async () => {
    const frame = await show(60, 20, '| 名前 | 値 |\n|---|---|\n| 東京 | 一 |\n| a | 二二二二 |');
    const table = tableRows(frame);
    expect(table.length).toBe(6);
    expect(new Set(table.map((l) => stringWidth(l.trimEnd()))).size).toBe(1);
  });

  it('leaves a line with pipes that is not a table alone', async () => {
    const frame = (await show(80, 16, 'run `a | b` then x | y\nand more')).join('\n');
    expect(frame).toContain('run a | b then x | y');
    expect(frame).not.toContain('┌');
  });

  it('shows, while the table streams, the rows it will have once finished', () => {
    const cache = new LineCache();
    const opts = { markdown: true, expandReasoning: false };
    for (let n = 0; n <= TABLE.length; n += 3) {
      const text = TABLE.slice(0, n);
      const streamed = cache.rows({ kind: 'assistant', id: 'a1', version: n, text, streaming: true }, 50, opts).map(lineText);
      const final = formatBlock({ kind: 'assistant', id: 'a1', version: n, text, streaming: false }, 50, opts).map(lineText);
      expect(streamed, `after ${n} characters`).toEqual(final);
    }
  });
});
