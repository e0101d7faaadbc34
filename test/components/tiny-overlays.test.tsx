/** Panels on a screen too short for their border: nothing is drawn over the input or its rule. */
import { describe, expect, it } from 'vitest';
import { KEYS, renderApp, settle } from './render-app.js';

const sessions = [
  { id: 'aaaa1111', updatedAt: '2026-11-30T04:00:00.000Z', firstPrompt: 'fix the parser', turns: 3, tokens: 12_000, cost: null },
  { id: 'bbbb2222', updatedAt: '2026-11-29T04:00:00.000Z', firstPrompt: 'write docs', turns: 1, tokens: 800, cost: null },
];

// A rule or border character right next to text means one row was drawn over another.
const OVERDRAWN = /[^─\s┌└╭╰┐┘╮╯]─|─[^─\s┌└╭╰┐┘╮╯]/;

describe.each([
  [20, 4],
  [30, 5],
  [40, 7],
  [12, 3],
])('at %ix%i', (columns, rows) => {
  it('/help and /sessions leave the input whole', async () => {
    const r = renderApp({ columns, rows });
    r.engine.slashReply = () => ({ panel: 'sessions', sessions });
    for (const command of ['/help', '/sessions']) {
      await r.type(command, KEYS.enter);
      await settle();
      for (const frame of r.app.frames.slice(-3)) {
        const lines = frame.replace(/\x1b\[[0-9;]*m/g, '').split('\n'); // eslint-disable-line no-control-regex
        expect(lines.length).toBeLessThanOrEqual(rows);
        for (const line of lines) expect(line, `${command}: ${JSON.stringify(line)}`).not.toMatch(OVERDRAWN);
      }
      expect(r.frame()).toMatch(/^› /m);
      await r.type(KEYS.escape);
    }
  });

  it('the approval modal keeps its keys on a row of their own', async () => {
    const r = renderApp({ columns, rows });
    r.engine.emit({ type: 'approval.request', request: { id: 'x', kind: 'bash', tool: 'bash', command: 'ls -la', summary: 'run ls -la', reason: 'bash=confirm' } });
    await settle();
    const f = r.frame();
    expect(f.split('\n').length).toBeLessThanOrEqual(rows);
    const keys = f.split('\n').find((l) => /^│(y\/n\/a\/q|\[y\]es)/.test(l));
    expect(keys, f).toBeDefined();
    expect(keys).not.toContain('requested');
    if (columns >= 20) expect(f).toContain('BASH');
  });
});

it('a panel two rows high still says what it is and how to close it', async () => {
  const r = renderApp({ columns: 40, rows: 6 });
  await r.type('/help', KEYS.enter);
  await settle();
  expect(r.frame()).toContain('/help · Esc closes');
});
