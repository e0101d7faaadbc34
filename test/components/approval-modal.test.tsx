import { describe, expect, it } from 'vitest';
import type { ApprovalRequest } from '../../src/policy/types.js';
import { KEYS, renderApp, settle } from './render-app.js';

const longDiff = ['--- a/big.ts', '+++ b/big.ts', '@@ -1,40 +1,40 @@', ...Array.from({ length: 40 }, (_, i) => `-old ${i}\n+new ${i}`)].join('\n');

function request(patch: Partial<ApprovalRequest> = {}): ApprovalRequest {
  return {
    id: 'ap1',
    kind: 'write',
    tool: 'edit_file',
    path: '/home/dev/shop/src/prices.py',
    summary: 'edit src/prices.py (+1 -1)',
    reason: 'default write=confirm',
    diff: '--- a/src/prices.py\n+++ b/src/prices.py\n@@ -1 +1 @@\n-    return 0\n+    return 1\n',
    ...patch,
  };
}

describe('approval modal', () => {
  it('shows the real path and the diff in place of the input, and y answers yes', async () => {
    const r = renderApp({ rows: 24, columns: 80 });
    r.engine.emit({ type: 'turn.start', blockId: 'u1', text: 'fix' }, { type: 'approval.request', request: request() });
    await settle();
    const f = r.frame();
    expect(f).toContain('WRITE requested: edit src/prices.py (+1 -1)');
    expect(f).toContain('path /home/dev/shop/src/prices.py');
    expect(f).toContain('+    return 1');
    expect(f).toContain('[y]es  [n]o  [a]lways (write, inside the project)  [q]uit turn');
    expect(f).not.toMatch(/^› /m);
    await r.type('y');
    expect(r.engine.answers).toEqual([{ id: 'ap1', decision: 'yes' }]);
    expect(r.frame()).not.toContain('WRITE requested');
  });

  it('does not promise [a]lways for a file in the project the policy treats as possibly outside', async () => {
    const r = renderApp({ rows: 24, columns: 100 });
    // A file with several hard links: its path is inside, but [a]lways can only answer this once.
    r.engine.emit({ type: 'turn.start', blockId: 'u1', text: 'fix' }, { type: 'approval.request', request: request({ alwaysGrants: false }) });
    await settle();
    expect(r.frame()).toContain('[a]lways (outside the project: just this once)');
    expect(r.frame()).not.toContain('inside the project');
  });

  it.each([
    ['n', 'no'],
    ['a', 'always'],
    ['q', 'quit'],
    [KEYS.ctrlC, 'quit'],
  ])('%j answers %s', async (key, decision) => {
    const r = renderApp({ rows: 24, columns: 80 });
    r.engine.emit({ type: 'approval.request', request: request() });
    await settle();
    await r.type(key);
    expect(r.engine.answers).toEqual([{ id: 'ap1', decision }]);
  });

  it('owns the keyboard: other keys neither type, submit nor scroll the transcript', async () => {
    const r = renderApp({ rows: 24, columns: 80 });
    r.engine.emit({ type: 'approval.request', request: request() });
    await settle();
    await r.type('hello', KEYS.enter, KEYS.pageUp, KEYS.ctrlD);
    expect(r.engine.answers).toEqual([]);
    expect(r.engine.submitted).toEqual([]);
    expect(r.exits()).toBe(0);
    r.engine.emit({ type: 'approval.resolved', id: 'ap1' });
    await settle();
    expect(r.frame()).not.toContain('hello');
  });

  it('scrolls a diff longer than the screen', async () => {
    const r = renderApp({ rows: 24, columns: 80 });
    r.engine.emit({ type: 'approval.request', request: request({ diff: longDiff, summary: 'edit big.ts (+40 -40)' }) });
    await settle();
    expect(r.frame()).toContain('-old 0');
    expect(r.frame()).not.toContain('+new 39');
    expect(r.frame()).toMatch(/↓ \d+ more lines/);
    for (let i = 0; i < 20; i++) await r.type(KEYS.pageDown);
    expect(r.frame()).toContain('+new 39');
    expect(r.frame()).not.toContain('-old 0\n');
    const lines = r.frame().split('\n').length;
    expect(lines).toBeLessThanOrEqual(24);
  });

  it('shows a bash command with its controls escaped', async () => {
    const r = renderApp({ rows: 24, columns: 80 });
    r.engine.emit({
      type: 'approval.request',
      request: request({ kind: 'bash', tool: 'bash', path: undefined, diff: undefined, command: 'echo hi\x1b[2K; rm -rf build', summary: 'bash echo hi' }),
    });
    await settle();
    expect(r.frame()).toContain('$ echo hi␛[2K; rm -rf build');
    expect(r.frame()).toContain('[a]lways (bash)');
  });
});
