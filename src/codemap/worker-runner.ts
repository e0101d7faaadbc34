/**
 * Runs indexing off the main thread: a pool of parse workers (parse-pool.ts) sized to the cores,
 * or this thread for a handful of files or where no worker can start.
 */
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { runPool } from './parse-pool.js';
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

type Runner = (jobs: readonly IndexJob[], plugins: PluginSet, opts: RunOptions) => Promise<IndexResult[]>;

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
  return async (jobs, plugins, run) => {
    if (choice === 'off' || jobs.length < WORKER_MIN_JOBS) return indexInThread(jobs, plugins, run);
    const url = choice === 'auto' ? bundledWorker() : choice.url;
    if (!url) return indexInThread(jobs, plugins, run);
    const forced = choice === 'auto' ? undefined : choice.workers;
    const { results, left } = await runPool(jobs, {
      ...run, url, execArgv: choice === 'auto' ? [] : choice.execArgv ?? [], external: plugins.external,
      workers: forced ?? poolSize(jobs.length, opts.background === true),
      // Behind a session, the pool also waits while a prompt's request is on its way.
      ...(opts.background ? { niceness: BACKGROUND_NICENESS, requestPending: requestPendingFlag() } : {}),
      ...(opts.codeCacheDir ? { codeCacheDir: opts.codeCacheDir } : {}),
    });
    if (left.length === 0) return results as IndexResult[];
    // No worker would start (odd bundling, a sandbox): the same results, in this thread.
    const before = jobs.length - left.length;
    const here = await indexInThread(left.map((pos) => jobs[pos]!), plugins, {
      timeoutMs: run.timeoutMs, ...(run.onProgress ? { onProgress: (done: number) => run.onProgress!(before + done, jobs.length) } : {}),
    });
    const all = [...results];
    left.forEach((pos, i) => { all[pos] = here[i]; });
    return all.filter((r): r is IndexResult => r !== undefined);
  };
}
