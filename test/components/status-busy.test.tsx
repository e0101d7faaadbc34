/** The status line keeps "working Ns (Ctrl+C stops)" whole however long its figures get. */
import { expect, it } from 'vitest';
import { renderApp, settle } from './render-app.js';
import { FakeEngine, initialState } from './fake-engine.js';

it('cuts the figures, not the busy timer, on an 80-column screen', async () => {
  const engine = new FakeEngine(
    initialState({
      context: { usedTokens: 34_567, measured: true, window: 128_000, threshold: 96_000 },
      lastUsage: { input: 34_000, cacheRead: 567, cacheWrite: 0, output: 1_234 },
      sessionCost: 0.0456,
    }),
  );
  const r = renderApp({ engine, columns: 80, rows: 24 });
  engine.emit({ type: 'turn.start', blockId: 'u1', text: 'work' });
  await settle();
  const status = r.frame().split('\n').find((l) => l.includes('compaction at'));
  expect(status).toBeDefined();
  expect(status!.length).toBeLessThanOrEqual(80);
  expect(status).toMatch(/working \d+s \(Ctrl\+C stops\)$/);
  expect(status).toContain('…');
});
