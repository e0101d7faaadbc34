/** Pasted text in the input: what is on screen is what was pasted, nothing cut off or interpreted. */
import { describe, expect, it } from 'vitest';
import { layoutComposer } from '../../components/composer/composer-layout.js';
import { lineText } from '../../components/text/styled-line.js';
import { textWidth } from '../../components/text/char-width.js';
import { renderApp } from './render-app.js';

describe('composer with pasted text', () => {
  it('shows a pasted tab as spaces and keeps every character of the row on screen', async () => {
    const r = renderApp({ columns: 30, rows: 12 });
    await r.type('\treturn 1\t# tab', 'END');
    const f = r.frame();
    expect(f).toContain('›     return 1    # tabEND');
    expect(f).not.toContain('\t');
  });

  it('lays out no row wider than the screen, whatever the characters', () => {
    const text = '\tx\u0007y\u009bz 中文字符中文字符 🎉🎉\u202etail\tend'.repeat(3);
    for (const width of [10, 17, 30]) {
      const { rows } = layoutComposer({ text, cursor: 5 }, width, '');
      for (const row of rows) {
        const shown = lineText(row);
        expect(textWidth(shown)).toBeLessThanOrEqual(width);
        // eslint-disable-next-line no-control-regex
        expect(shown).not.toMatch(/[\x00-\x1f\x7f-\x9f\u202e]/);
      }
    }
  });
});
