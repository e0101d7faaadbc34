/** The "more below" marker counts exactly the rows the user cannot see under the window. */
import { expect, it } from 'vitest';
import { KEYS, renderApp, settle } from './render-app.js';

it('counts the rows below the window, the one under the marker included', async () => {
  const r = renderApp({ columns: 60, rows: 20 });
  const id = r.engine.id('a');
  r.engine.emit({ type: 'assistant.delta', blockId: id, text: Array.from({ length: 60 }, (_, i) => `row ${i + 1}`).join('\n') }, { type: 'block.end', blockId: id });
  await settle();
  await r.type(KEYS.pageUp);
  const f = r.frame();
  const visible = [...f.matchAll(/^row (\d+)$/gm)].map((m) => Number(m[1]));
  const lastVisible = Math.max(...visible);
  const marker = /↓ (\d+) more lines? below/.exec(f);
  expect(marker).not.toBeNull();
  expect(Number(marker![1])).toBe(60 - lastVisible);
});
