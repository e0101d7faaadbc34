/**
 * Parse workers started ahead of their files (while the walk goes on): real worker threads, real
 * files. A pool takes them and indexes everything as a pool of its own would; workers that died
 * before being taken are passed over; and a cold index big enough to start them ahead gives the
 * same map as indexing in one thread.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { openCodeMap } from '../../src/codemap/code-map.js';
import { runPool, startStandby } from '../../src/codemap/parse-pool.js';
import { PRESTART_FILES } from '../../src/codemap/worker-runner.js';
import { tempProject, writeModuleChain, type TempProject } from './helpers.js';

const bootstrap = new URL('./ts-worker-bootstrap.mjs', import.meta.url);
let tp: TempProject;
beforeEach(async () => {
  tp = await tempProject();
});
afterEach(async () => {
  await tp.cleanup();
});

it('a pool takes the workers started ahead and indexes every file with them', { timeout: 120_000 }, async () => {
  const jobs = await writeModuleChain(tp, 120);
  const setup = { url: bootstrap, execArgv: [], external: [], timeoutMs: 10_000 };
  const standby = startStandby(setup, 2);
  const outcome = await runPool(jobs, { ...setup, workers: 2 }, standby);
  expect(standby.taken()).toBe(2);
  expect(outcome.left).toEqual([]);
  expect(outcome.results.map((r) => r?.rel)).toEqual(jobs.map((j) => j.rel));
  expect(outcome.results.every((r) => r?.outcome.ok === true)).toBe(true);
  // Nothing left to take once the pool has run.
  expect(standby.take()).toBeUndefined();
});

it('passes over workers that died before the pool came, and starts its own', { timeout: 120_000 }, async () => {
  const jobs = await writeModuleChain(tp, 40);
  const dying = join(tp.root, 'dies-at-once.mjs');
  await writeFile(dying, 'process.exit(3);\n');
  const standby = startStandby({ url: pathToFileURL(dying), execArgv: [], external: [], timeoutMs: 10_000 }, 2);
  // Long enough for both to have exited.
  await new Promise((r) => setTimeout(r, 1500));
  const outcome = await runPool(jobs, { url: bootstrap, execArgv: [], external: [], timeoutMs: 10_000, workers: 2 }, standby);
  expect(standby.taken()).toBe(0);
  expect(outcome.left).toEqual([]);
  expect(outcome.results.every((r) => r?.outcome.ok === true)).toBe(true);
});

it(`a cold index of ${PRESTART_FILES}+ files, its workers started during the walk, makes the map indexing in one thread makes`, { timeout: 240_000 }, async () => {
  await writeModuleChain(tp, PRESTART_FILES + 50);
  const config = await tp.config();
  const alone = await openCodeMap({ projectRoot: tp.project, cacheDir: join(tp.root, 'cache-alone'), config, worker: 'off' });
  const expected = alone.mapText(8000);
  await alone.close();
  const pooled = await openCodeMap({ projectRoot: tp.project, cacheDir: join(tp.root, 'cache-pooled'), config, worker: { url: bootstrap, workers: 2 } });
  try {
    expect(pooled.warnings).toEqual([]);
    expect(pooled.stats).toMatchObject({ files: PRESTART_FILES + 50, reparsed: PRESTART_FILES + 50, failed: 0 });
    expect(pooled.mapText(8000)).toBe(expected);
  } finally {
    await pooled.close();
  }
});
