/** Ctrl+O while the model is still reasoning: the whole of it streams in the transcript, and back. */
import { expect, it } from 'vitest';
import { KEYS, renderApp, settle } from './render-app.js';

it('toggles the full reasoning while it streams, growing as it arrives', async () => {
  const r = renderApp({ columns: 70, rows: 30 });
  const lines = Array.from({ length: 12 }, (_, i) => `thought number ${i + 1}`);
  r.engine.emit({ type: 'turn.start', blockId: 'u1', text: 'think hard' }, { type: 'reasoning.delta', blockId: 'r1', text: lines.slice(0, 10).join('\n') });
  await settle();
  // The pane shows the tail only.
  expect(r.frame()).toContain('┌ thinking… (Ctrl+O shows all of it)');
  expect(r.frame()).not.toContain('thought number 1\n');

  await r.type(KEYS.ctrlO);
  let f = r.frame();
  expect(f).toContain('▾ reasoning (Ctrl+O hides)');
  for (const line of lines.slice(0, 10)) expect(f).toContain(`│ ${line}`);
  expect(f).not.toContain('┌ thinking');

  r.engine.emit({ type: 'reasoning.delta', blockId: 'r1', text: `\n${lines.slice(10).join('\n')}` });
  await settle();
  f = r.frame();
  expect(f).toContain('│ thought number 12');

  await r.type(KEYS.ctrlO);
  f = r.frame();
  expect(f).toContain('┌ thinking…');
  expect(f).not.toContain('▾ reasoning');
  expect(f).not.toContain('thought number 1\n');
});
