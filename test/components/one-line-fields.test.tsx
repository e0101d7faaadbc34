/** Fields the view shows on one line (a tool's title, an approval's summary) cannot add rows. */
import { expect, it } from 'vitest';
import { renderApp, settle } from './render-app.js';

const statusRow = (frame: string): number => frame.split('\n').findIndex((l) => /\d+% of \d/.test(l));

it('a tool title or approval summary with newlines keeps the screen layout', async () => {
  const r = renderApp({ columns: 60, rows: 20 });
  await settle();
  const before = statusRow(r.frame());
  r.engine.emit(
    { type: 'turn.start', blockId: 'u1', text: 'go' },
    { type: 'tool.start', blockId: 't1', callId: 'c1', name: 'weird\ntool\nname', title: 'weird\ntool\nname x' },
  );
  await settle();
  expect(statusRow(r.frame())).toBe(before);
  expect(r.frame()).toContain('→ weird tool name x');

  r.engine.emit({
    type: 'approval.request',
    request: { id: 'a1', kind: 'bash', tool: 'bash', command: 'ls', summary: 'run ls\n\n\n\nfake line', reason: 'bash=confirm\nsecond' },
  });
  await settle();
  const f = r.frame();
  expect(f.split('\n').length).toBeLessThanOrEqual(20);
  expect(f).toMatch(/│\[y\]es/);
  expect(f).toContain('run ls fake line');
});

it('shows a newline in a file name as \\n in the approval', async () => {
  const r = renderApp({ columns: 80, rows: 24 });
  r.engine.emit({
    type: 'approval.request',
    request: { id: 'a2', kind: 'write', tool: 'write_file', path: '/home/dev/shop/a\nb.txt', summary: 'create a b.txt', reason: 'write=confirm', diff: '' },
  });
  await settle();
  expect(r.frame()).toContain('path /home/dev/shop/a\\nb.txt');
});
