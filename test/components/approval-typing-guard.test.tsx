/** An approval that opens while the user types ahead is not answered by the letters of their prompt. */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ApprovalRequest } from '../../src/policy/types.js';
import { TYPING_PAUSE_MS } from '../../components/keys/typing-guard.js';
import { renderApp, settle } from './render-app.js';

const request: ApprovalRequest = {
  id: 'ap1',
  kind: 'write',
  tool: 'write_file',
  path: '/home/dev/shop/notes.txt',
  summary: 'create notes.txt (+1)',
  reason: 'default write=confirm',
  diff: '--- notes.txt\n+++ notes.txt\n@@ -0,0 +1 @@\n+hello\n',
};

describe('approval while typing ahead', () => {
  let clock = 1_000_000;
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(clock);
  });
  afterEach(() => vi.useRealTimers());
  const tick = (ms: number): void => {
    clock += ms;
    vi.setSystemTime(clock);
  };

  it('keeps the typed letters in the input until the typing pauses, then takes answers', async () => {
    const r = renderApp({ columns: 80, rows: 24 });
    r.engine.emit({ type: 'turn.start', blockId: 'u1', text: 'write notes' });
    await settle();
    for (const ch of 'an') {
      tick(120);
      await r.type(ch);
    }
    r.engine.emit({ type: 'approval.request', request });
    await settle();
    expect(r.frame()).toContain('WRITE requested');
    for (const ch of 'y ideas') {
      tick(120);
      await r.type(ch);
    }
    expect(r.engine.answers).toEqual([]);
    expect(r.frame()).toContain('WRITE requested');

    tick(TYPING_PAUSE_MS + 100);
    await r.type('n');
    expect(r.engine.answers).toEqual([{ id: 'ap1', decision: 'no' }]);
    await settle();
    expect(r.frame()).toContain('› any ideas');
  });

  it('answers at once when nothing was being typed as it opened', async () => {
    const r = renderApp({ columns: 80, rows: 24 });
    await r.type('x');
    tick(TYPING_PAUSE_MS + 1);
    r.engine.emit({ type: 'approval.request', request });
    await settle();
    tick(10);
    await r.type('y');
    expect(r.engine.answers).toEqual([{ id: 'ap1', decision: 'yes' }]);
  });
});

describe('approval right after sending', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(5_000_000);
  });
  afterEach(() => vi.useRealTimers());

  it('answers at once when the prompt was just sent with Enter', async () => {
    const r = renderApp({ columns: 80, rows: 24 });
    await r.type('write notes', '\r');
    vi.setSystemTime(5_000_100);
    r.engine.emit({ type: 'approval.request', request });
    await settle();
    vi.setSystemTime(5_000_200);
    await r.type('y');
    expect(r.engine.answers).toEqual([{ id: 'ap1', decision: 'yes' }]);
  });
});

describe('approvals one after another', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(9_000_000);
  });
  afterEach(() => vi.useRealTimers());

  it('answers the second at once after the first was answered', async () => {
    const r = renderApp({ columns: 80, rows: 24 });
    r.engine.emit({ type: 'approval.request', request });
    await settle();
    await r.type('y');
    vi.setSystemTime(9_000_100);
    r.engine.emit({ type: 'approval.request', request: { ...request, id: 'ap2' } });
    await settle();
    vi.setSystemTime(9_000_200);
    await r.type('n');
    expect(r.engine.answers).toEqual([
      { id: 'ap1', decision: 'yes' },
      { id: 'ap2', decision: 'no' },
    ]);
  });
});
