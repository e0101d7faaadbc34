/** A streaming answer looks, at every moment, the way the same text looks once finished. */
import { describe, expect, it } from 'vitest';
import { LineCache } from '../../components/transcript/line-cache.js';
import { formatBlock } from '../../components/transcript/format-block.js';
import { lineText, type StyledLine } from '../../components/text/styled-line.js';

const answer = [
  '## Plan',
  '- read **prices.py**',
  '- rewrite `total()` as a sum',
  '1. run the tests',
  '```python',
  'def total(items):',
  '\treturn sum(i["price"] for i in items)',
  '',
  '```',
  '> note: 中文字符 and 🎉 wrap too',
  'Done.\r',
  '',
].join('\n');

const show = (rows: readonly StyledLine[]): string[] => rows.map((r) => r.map((s) => `${s.text}${s.style ? JSON.stringify(s.style) : ''}`).join('|'));

describe('streaming markdown', () => {
  it.each([true, false])('gives the finished layout for every prefix (markdown %s)', (markdown) => {
    const cache = new LineCache();
    const opts = { markdown, expandReasoning: false };
    for (let n = 0; n <= answer.length; n++) {
      const text = answer.slice(0, n);
      const streamed = cache.rows({ kind: 'assistant', id: 'a1', version: n, text, streaming: true }, 24, opts);
      const final = formatBlock({ kind: 'assistant', id: 'a1', version: n, text, streaming: false }, 24, opts);
      expect(show(streamed), `after ${n} characters`).toEqual(show(final));
    }
  });

  it('shows a list and an open code block rendered before the answer has a blank line', () => {
    const cache = new LineCache();
    const text = '- first **bold** item\n- second\n```ts\nconst x = 1;\n';
    const rows = cache.rows({ kind: 'assistant', id: 'a1', version: 1, text, streaming: true }, 40, { markdown: true, expandReasoning: false }).map(lineText);
    expect(rows).toContain('• first bold item');
    expect(rows).toContain('╭─ ts');
    expect(rows).toContain('│ const x = 1;');
    expect(rows.join('\n')).not.toContain('```');
  });
});
