/** Scrolling back in one session does not leave the next one (/clear, a resumed session) stuck. */
import { expect, it } from 'vitest';
import { KEYS, renderApp, settle } from './render-app.js';
import { initialState } from './fake-engine.js';

it('a new session follows its live output even if the old one was scrolled back', async () => {
  const r = renderApp({ columns: 60, rows: 20 });
  r.engine.emit({ type: 'turn.start', blockId: 'u1', text: 'old' });
  r.engine.emit({ type: 'assistant.delta', blockId: 'a1', text: Array.from({ length: 80 }, (_, i) => `old row ${i}`).join('\n') });
  await settle();
  await r.type(KEYS.pageUp, KEYS.pageUp);
  expect(r.frame()).toMatch(/more lines? below/);

  r.engine.emit({ type: 'session.reset', state: initialState({ sessionId: 'sess-new' }) });
  await settle();
  r.engine.emit({ type: 'turn.start', blockId: 'u2', text: 'new' });
  for (let i = 0; i < 60; i++) r.engine.emit({ type: 'assistant.delta', blockId: 'a2', text: `new row ${i}\n` });
  await settle();
  expect(r.frame()).toContain('new row 59');
  expect(r.frame()).not.toMatch(/more lines? below/);
});
