/**
 * The parse pool's workers step aside while a prompt's request is on its way (src/io/request-gate.ts):
 * real worker threads, a real index of small files; between the gate shutting and opening, no
 * worker finishes a batch beyond the file it was on, and every file is indexed in the end.
 */
import { afterEach, beforeEach, expect, it } from 'vitest';
import { runPool } from '../../src/codemap/parse-pool.js';
import { holdForRequest, requestDispatched, requestPendingFlag } from '../../src/io/request-gate.js';
import { tempProject, writeModuleChain, type TempProject } from './helpers.js';

const bootstrap = new URL('./ts-worker-bootstrap.mjs', import.meta.url);
let tp: TempProject;
beforeEach(async () => {
  tp = await tempProject();
});
afterEach(async () => {
  await tp.cleanup();
});

it('holds its workers while a request is pending and carries on once it has left', { timeout: 120_000 }, async () => {
  const jobs = await writeModuleChain(tp, 400);
  const progress: { at: number; done: number }[] = [];
  let heldAt: number | undefined;
  let openedAt: number | undefined;
  const outcome = await runPool(jobs, {
    url: bootstrap, execArgv: [], workers: 1, external: [], timeoutMs: 10_000, requestPending: requestPendingFlag(),
    onProgress: (done) => {
      progress.push({ at: performance.now(), done });
      // Once the worker is warm (a few batches in), a prompt is submitted; its request leaves 200 ms later.
      if (progress.length === 40) {
        heldAt = performance.now();
        holdForRequest();
        setTimeout(() => {
          openedAt = performance.now();
          requestDispatched();
        }, 200);
      }
    },
  });
  expect(outcome.left).toEqual([]);
  expect(outcome.results.filter((r) => r?.outcome.ok)).toHaveLength(400);
  // While held: at most the batch (32 files here) of the file under way when the gate shut; a
  // warm worker indexes such small files by the hundred in that time when nothing holds it.
  const during = progress.filter((p) => p.at > heldAt! && p.at < openedAt!);
  expect(during.length).toBeLessThanOrEqual(32);
  expect(progress.at(-1)!.done).toBe(400);
});
