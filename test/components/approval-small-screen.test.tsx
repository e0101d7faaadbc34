/** The approval modal on short and narrow terminals: what is asked stays readable and answerable. */
import { describe, expect, it } from 'vitest';
import type { ApprovalRequest } from '../../src/policy/types.js';
import { KEYS, renderApp, settle } from './render-app.js';

// What createPatch (src/tools/apply-change.ts) produces, preamble included.
const bigDiff = [
  'Index: big.txt',
  '===================================================================',
  '--- big.txt',
  '+++ big.txt',
  '@@ -0,0 +1,30 @@',
  ...Array.from({ length: 30 }, (_, i) => `+line ${i} of the new file`),
].join('\n');

const write: ApprovalRequest = {
  id: 'ap1',
  kind: 'write',
  tool: 'write_file',
  path: '/home/dev/shop/big.txt',
  summary: 'create big.txt (+30)',
  reason: 'default write=confirm',
  diff: `${bigDiff}\n`,
};

describe('approval modal on a small screen', () => {
  it('shows the path, part of the diff and every answer key at 40x10', async () => {
    const r = renderApp({ columns: 40, rows: 10 });
    r.engine.emit({ type: 'turn.start', blockId: 'u1', text: 'make big' }, { type: 'approval.request', request: write });
    await settle();
    const f = r.frame();
    expect(f.split('\n').length).toBeLessThanOrEqual(10);
    expect(f).toContain('WRITE requested');
    expect(f).toContain('path /home/dev/shop/big.txt');
    expect(f).toMatch(/\[y\]es \[n\]o \[a\]lways \[q\]uit/);
    await r.type(KEYS.pageDown, KEYS.pageDown);
    expect(r.frame()).toMatch(/\+line \d+ of the new file/);
  });

  it('keeps y/n/a/q visible when even the short labels do not fit', async () => {
    const r = renderApp({ columns: 20, rows: 12 });
    r.engine.emit({ type: 'approval.request', request: write });
    await settle();
    expect(r.frame()).toMatch(/y\/n\/a\/q/);
  });

  it('leaves out the patch preamble that repeats the path', async () => {
    const r = renderApp({ columns: 80, rows: 24 });
    r.engine.emit({ type: 'approval.request', request: write });
    await settle();
    expect(r.frame()).not.toContain('Index: big.txt');
    expect(r.frame()).not.toContain('=====');
    expect(r.frame()).toContain('--- big.txt');
  });

  it('scrolled to the end, the last diff line sits right above the keys (no empty row)', async () => {
    const r = renderApp({ columns: 80, rows: 24 });
    r.engine.emit({ type: 'approval.request', request: write });
    await settle();
    for (let i = 0; i < 10; i++) await r.type(KEYS.pageDown);
    const lines = r.frame().split('\n');
    const keys = lines.findIndex((l) => l.includes('[y]es'));
    expect(lines[keys - 1]).toContain('+line 29 of the new file');
    // One more line down changes nothing: the end is the end.
    await r.type(KEYS.down);
    expect(r.frame().split('\n')[keys - 1]).toContain('+line 29 of the new file');
  });
});

describe('Ctrl+C at an approval', () => {
  it('stops the turn, and a second Ctrl+C leaves as anywhere else', async () => {
    const r = renderApp({ columns: 80, rows: 24 });
    r.engine.emit({ type: 'turn.start', blockId: 'u1', text: 'make big' }, { type: 'approval.request', request: write });
    await settle();
    await r.type(KEYS.ctrlC);
    expect(r.engine.answers).toEqual([{ id: 'ap1', decision: 'quit' }]);
    expect(r.exits()).toBe(0);
    expect(r.frame()).toContain('Press Ctrl+C again to leave');
    await r.type(KEYS.ctrlC);
    expect(r.exits()).toBe(1);
  });
});

describe('[a]lways for a path outside the project', () => {
  it('says it allows just this once, since nothing outside is remembered', async () => {
    const r = renderApp({ columns: 100, rows: 30 });
    r.engine.emit({
      type: 'approval.request',
      request: { id: 'r1', kind: 'read', tool: 'read_file', path: '/etc/hostname', summary: 'read /etc/hostname', reason: 'read_outside=confirm (outside the project)' },
    });
    await settle();
    expect(r.frame()).toContain('[a]lways (outside the project: just this once)');
    expect(r.frame()).not.toContain('inside the project');
  });

  it('keeps the usual label inside the project', async () => {
    const r = renderApp({ columns: 100, rows: 30 });
    r.engine.emit({ type: 'approval.request', request: { ...write, path: '/home/dev/shop/src/a.ts' } });
    await settle();
    expect(r.frame()).toContain('[a]lways (write, inside the project)');
  });
});
