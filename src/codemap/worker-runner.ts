/**
 * Runs indexing off the main thread: a pool of parse workers (parse-pool.ts) sized to the cores,
 * or this thread for a handful of files or where no worker can start.
 */
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { runPool, startStandby, type Standby, type WorkerSetup } from './parse-pool.js';
import type { PluginSet } from './plugin-set.js';
import { indexInThread, type IndexJob, type IndexResult, type RunOptions } from './run-indexing.js';
import { PER_THREAD_PRIORITY } from './thread-priority.js';
import { requestPendingFlag } from '../io/request-gate.js';

export { HANG_SLACK_MS, STARTUP_MS } from './parse-pool.js';

/** `workers`: the pool's size, instead of one per core (benchmarks, tests). */
export type WorkerChoice = 'auto' | 'off' | { readonly url: URL; readonly execArgv?: readonly string[]; readonly workers?: number };

export interface RunnerOptions {
  /**
   * The index is built behind a session the user is typing into: the workers run at a lower OS
   * priority (Linux), or where that cannot be done per thread, the pool leaves the main thread a core.
   */
  readonly background?: boolean;
  /** The folder for V8's code cache of the TypeScript compiler the parse workers load (code-cache.ts). */
  readonly codeCacheDir?: string;
}

/** Small batches (a warm start with a few edits) are faster here than a worker's start-up. */
export const WORKER_MIN_JOBS = 16;
/** A worker costs its start and a compiler of its own (~0.3 s of CPU, tens of MB): one per this many files at most. */
const FILES_PER_WORKER = 200;
/** Past this, more workers mostly add memory: the main thread's merging and the disk set the pace. */
const MAX_WORKERS = 4;
/** The background pool's nice value: the main thread (screen, requests) and the user's other work go first. */
export const BACKGROUND_NICENESS = 10;

/** A cold index of at least this many files starts its pool's workers while the walk goes on (Runner.prestart). */
export const PRESTART_FILES = MAX_WORKERS * FILES_PER_WORKER;

export interface Runner {
  (jobs: readonly IndexJob[], plugins: PluginSet, opts: RunOptions): Promise<IndexResult[]>;
  /**
   * At least PRESTART_FILES files are coming to be parsed: the pool's workers start now and load the
   * compiler while the walk goes on; the next call takes them (and ends any it does not need).
   */
  prestart(plugins: PluginSet, timeoutMs: number): void;
}

/** Next to the bundle (dist/codemap-worker.js); absent when running from source, then indexing stays in-thread. */
export function bundledWorker(): URL | undefined {
  const url = new URL('./codemap-worker.js', import.meta.url);
  return url.protocol === 'file:' && existsSync(fileURLToPath(url)) ? url : undefined;
}

/** How many parse workers for `jobs` files: one per core, fewer for a small batch; a background pool without per-thread priority leaves one core. */
export function poolSize(jobs: number, background: boolean, cores = availableParallelism()): number {
  const usable = background && !PER_THREAD_PRIORITY ? cores - 1 : cores;
  return Math.max(1, Math.min(MAX_WORKERS, usable, Math.ceil(jobs / FILES_PER_WORKER)));
}

export function chooseRunner(choice: WorkerChoice, opts: RunnerOptions = {}): Runner {
  const url = choice === 'off' ? undefined : choice === 'auto' ? bundledWorker() : choice.url;
  const forced = choice === 'off' || choice === 'auto' ? undefined : choice.workers;
  const setup = (plugins: PluginSet, timeoutMs: number): WorkerSetup & { url: URL } => ({
    url: url!, execArgv: choice === 'off' || choice === 'auto' ? [] : choice.execArgv ?? [], external: plugins.external, timeoutMs,
    // Behind a session, the pool also waits while a prompt's request is on its way.
    ...(opts.background ? { niceness: BACKGROUND_NICENESS, requestPending: requestPendingFlag() } : {}),
    ...(opts.codeCacheDir ? { codeCacheDir: opts.codeCacheDir } : {}),
  });
  let standby: Standby | undefined;
  const run = async (jobs: readonly IndexJob[], plugins: PluginSet, runOpts: RunOptions): Promise<IndexResult[]> => {
    const ahead = standby;
    standby = undefined;
    if (!url || jobs.length < WORKER_MIN_JOBS) {
      ahead?.release();
      return indexInThread(jobs, plugins, runOpts);
    }
    const { results, left } = await runPool(jobs, {
      ...runOpts, ...setup(plugins, runOpts.timeoutMs),
      workers: forced ?? poolSize(jobs.length, opts.background === true),
    }, ahead);
    if (left.length === 0) return results as IndexResult[];
    // No worker would start (odd bundling, a sandbox): the same results, in this thread.
    const before = jobs.length - left.length;
    const here = await indexInThread(left.map((pos) => jobs[pos]!), plugins, {
      timeoutMs: runOpts.timeoutMs, ...(runOpts.onProgress ? { onProgress: (done: number) => runOpts.onProgress!(before + done, jobs.length) } : {}),
    });
    const all = [...results];
    left.forEach((pos, i) => { all[pos] = here[i]; });
    return all.filter((r): r is IndexResult => r !== undefined);
  };
  return Object.assign(run, {
    prestart(plugins: PluginSet, timeoutMs: number): void {
      if (!url || standby) return;
      standby = startStandby(setup(plugins, timeoutMs), forced ?? poolSize(PRESTART_FILES, opts.background === true));
    },
  });
}
