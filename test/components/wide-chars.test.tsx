/**
 * Rows are laid out with our own width table, and Ink re-wraps any row it measures wider than the
 * pane, pushing the newest rows out of view. So for every character our width must be at least
 * what Ink measures.
 */
import { describe, expect, it } from 'vitest';
import stringWidth from 'string-width';
import { codePointWidth, textWidth } from '../../components/text/char-width.js';
import { renderApp, settle } from './render-app.js';

describe('character widths', () => {
  it('are never narrower than what Ink measures, for any single code point up to plane 3', () => {
    const narrower: string[] = [];
    for (let cp = 0x20; cp < 0x40000; cp++) {
      if (cp >= 0xd800 && cp <= 0xdfff) continue;
      if (codePointWidth(cp) < stringWidth(String.fromCodePoint(cp))) narrower.push(cp.toString(16));
    }
    expect(narrower).toEqual([]);
    // A quarter of a million measurements: seconds on a quiet machine, far longer on a busy one.
  }, 120_000);

  it.each(['⚠️', '✔️', '❤️', '⬆️', '1️⃣', '⚡', '❗', '⭐', '🟢', '🫠'])('%s is as wide as Ink measures it', (emoji) => {
    expect(textWidth(emoji)).toBeGreaterThanOrEqual(stringWidth(emoji));
  });

  it('an answer full of emoji keeps its newest line on screen', async () => {
    const r = renderApp({ columns: 30, rows: 16 });
    r.engine.emit({ type: 'turn.start', blockId: 'u1', text: 'status?' });
    const text = Array.from({ length: 20 }, (_, i) => `step ${i} ⚠️ ⚡ ok ❗ ⭐ done 🟢 go ✔️ next ❤️ fine ⬆️ up`).join('\n');
    r.engine.emit({ type: 'assistant.delta', blockId: 'a1', text: `${text}\nLAST LINE` }, { type: 'turn.end', blockId: 'e1', status: 'finished' });
    await settle();
    const f = r.frame();
    expect(f.split('\n').length).toBeLessThanOrEqual(16);
    expect(f).toContain('LAST LINE');
    expect(f).toContain('finished');
  });
});
