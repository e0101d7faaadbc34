import { expect, it } from 'vitest';
import { KEYS, renderApp, settle } from './render-app.js';

it('works in a tiny terminal without overflowing it', async () => {
  for (const [columns, rows] of [[20, 6], [30, 10], [12, 3]] as const) {
    const r = renderApp({ columns, rows });
    r.engine.emit(
      { type: 'turn.start', blockId: 'u1', text: 'a fairly long prompt that wraps' },
      { type: 'reasoning.delta', blockId: 'r1', text: 'thinking hard' },
      { type: 'approval.request', request: { id: 'x', kind: 'bash', tool: 'bash', command: 'ls -la', summary: 'run ls -la', reason: 'bash=confirm' } },
    );
    await settle();
    await r.type('y', 'typed', KEYS.pageUp);
    for (const frame of r.app.frames) expect(frame.split('\n').length).toBeLessThanOrEqual(rows);
    r.app.unmount();
  }
});
