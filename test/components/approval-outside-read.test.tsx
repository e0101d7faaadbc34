/**
 * A read outside the project, asked through the real read_file tool and gate, shown in the app's
 * modal: it names the real destination (not the link the model used), and [a]lways does not
 * claim to cover the project, since the gate remembers nothing outside it.
 */
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { expect, it } from 'vitest';
import { readFileTool } from '../../src/tools/read-file.js';
import type { ApprovalDecision, ApprovalRequest } from '../../src/policy/types.js';
import { makePolicy } from '../tools/make-config.js';
import { makeContext, makeTempDir } from '../tools/make-context.js';
import { FakeEngine, initialState } from './fake-engine.js';
import { renderApp, settle } from './render-app.js';

it('a read through a link out of the project names where it leads, and [a]lways grants just that once', async () => {
  const root = await makeTempDir('lwyrm-view-root-');
  const outside = await makeTempDir('lwyrm-view-out-');
  await mkdir(path.join(outside, 'keys'));
  await writeFile(path.join(outside, 'keys', 'notes.txt'), 'outside text\n');
  await symlink(path.join(outside, 'keys'), path.join(root, 'docs'));

  const engine = new FakeEngine(initialState({ projectRoot: root }));
  const r = renderApp({ engine, columns: 100, rows: 30 });
  // The tool's approver is the view: each request goes to the modal, the key pressed answers it.
  let answer: (d: ApprovalDecision) => void = () => undefined;
  const asked: ApprovalRequest[] = [];
  let onAsk: () => void = () => undefined;
  const nextAsk = () => new Promise<void>((resolve) => (onAsk = resolve));
  const ctx = makeContext(root, {
    config: { policy: makePolicy({ readOutside: 'confirm' }) },
  });
  const viaView = {
    ...ctx,
    approve: (req: ApprovalRequest) =>
      new Promise<ApprovalDecision>((resolve) => {
        asked.push(req);
        answer = resolve;
        engine.emit({ type: 'approval.request', request: req });
        onAsk();
      }),
  };
  engine.answer = (_id: string, decision: ApprovalDecision) => {
    engine.emit({ type: 'approval.resolved', id: asked.at(-1)!.id });
    answer(decision);
  };

  engine.emit({ type: 'turn.start', blockId: 'u1', text: 'read the notes' });
  let asking = nextAsk();
  const first = readFileTool.run({ path: 'docs/notes.txt' }, viaView);
  await asking;
  await settle();
  const f = r.frame();
  expect(f).toContain('READ requested');
  expect(f).toContain(`path ${path.join(outside, 'keys', 'notes.txt')}`);
  expect(f).toContain('[a]lways (outside the project: just this once)');
  expect(f).not.toContain('inside the project');

  await r.type('a');
  const result = await first;
  expect(result.content).toContain('outside text');
  // "Just this once" is what happens: the next read outside is asked about again.
  asking = nextAsk();
  const second = readFileTool.run({ path: 'docs/notes.txt' }, viaView);
  await asking;
  expect(asked).toHaveLength(2);
  answer('no');
  expect((await second).ok).toBe(false);
});
