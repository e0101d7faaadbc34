/** The live reasoning pane on screens of every height. */
import { describe, expect, it } from 'vitest';
import { renderApp, settle } from './render-app.js';

const thoughts = Array.from({ length: 12 }, (_, i) => `thought ${i}`).join('\n');

describe('live reasoning', () => {
  it.each([
    [15, true],
    [24, true],
    // No pane below 14 rows: the transcript's thinking row carries the latest thought (reasoning-inline.test.tsx).
    [11, true],
  ])('on %i rows: shown live = %s, and the screen stays whole', async (rows, shown) => {
    const r = renderApp({ columns: 60, rows });
    r.engine.emit({ type: 'turn.start', blockId: 'u1', text: 'think' }, { type: 'reasoning.delta', blockId: 'r1', text: thoughts });
    await settle();
    const f = r.frame();
    expect(f.split('\n').length).toBeLessThanOrEqual(rows);
    expect(f.includes('thought 11')).toBe(shown);
    expect(f).toMatch(/^─+$/m);
    expect(f).toMatch(/^› /m);
  });
});
