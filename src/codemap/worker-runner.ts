/**
 * Runs indexing in a worker thread. The worker reports each file before parsing it, so a plugin
 * stuck in a loop is noticed: the worker is terminated, the file reported and skipped, and a new
 * worker carries on with the rest.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { PluginSet } from './plugin-set.js';
import { indexInThread, type IndexJob, type IndexResult, type RunOptions } from './run-indexing.js';
import type { WorkerInput, WorkerMessage } from './worker-protocol.js';

export type WorkerChoice = 'auto' | 'off' | { readonly url: URL; readonly execArgv?: readonly string[] };

/** Small batches (a warm start with a few edits) are faster here than a worker's start-up. */
export const WORKER_MIN_JOBS = 16;
/** Extra time over the plugin timeout before a silent worker is presumed stuck. */
export const HANG_SLACK_MS = 2000;
/** Starting a worker loads the plugins; on a busy machine that can take seconds. */
export const STARTUP_MS = 60_000;

type Runner = (jobs: readonly IndexJob[], plugins: PluginSet, opts: RunOptions) => Promise<IndexResult[]>;

/** Next to the bundle (dist/codemap-worker.js); absent when running from source, then indexing stays in-thread. */
export function bundledWorker(): URL | undefined {
  const url = new URL('./codemap-worker.js', import.meta.url);
  return url.protocol === 'file:' && existsSync(fileURLToPath(url)) ? url : undefined;
}

function runBatch(url: URL, execArgv: readonly string[], jobs: readonly IndexJob[], plugins: PluginSet,
  opts: RunOptions, onResult: (r: IndexResult) => void): Promise<{ stuck?: string }> {
  return new Promise((resolve, reject) => {
    const input: WorkerInput = { jobs, external: plugins.external, timeoutMs: opts.timeoutMs };
    const worker = new Worker(url, { workerData: input, execArgv: [...execArgv] });
    let current: string | undefined;
    let timer: NodeJS.Timeout | undefined;
    let settled = false;
    const finish = (fn: () => void): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      fn();
    };
    const arm = (ms: number): void => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        const stuck = current;
        void worker.terminate();
        finish(() => resolve(stuck ? { stuck } : {}));
      }, ms);
    };
    arm(STARTUP_MS);
    worker.on('message', (m: WorkerMessage) => {
      if (m.type === 'start') {
        current = m.rel;
        arm(opts.timeoutMs + HANG_SLACK_MS);
      } else if (m.type === 'done') {
        current = undefined;
        onResult({ rel: m.rel, outcome: m.outcome });
      } else if (m.type === 'finished') {
        void worker.terminate();
        finish(() => resolve({}));
      } else if (m.type === 'fatal') finish(() => reject(new Error(m.error)));
    });
    worker.on('error', (err) => finish(() => reject(err)));
    worker.on('exit', () => finish(() => resolve(current ? { stuck: current } : {})));
  });
}

async function inWorker(url: URL, execArgv: readonly string[], jobs: readonly IndexJob[], plugins: PluginSet, opts: RunOptions): Promise<IndexResult[]> {
  const results = new Map<string, IndexResult>();
  const total = jobs.length;
  let remaining = jobs;
  while (remaining.length > 0) {
    const { stuck } = await runBatch(url, execArgv, remaining, plugins, opts, (r) => {
      results.set(r.rel, r);
      opts.onProgress?.(results.size, total);
    });
    if (stuck) {
      results.set(stuck, { rel: stuck, outcome: { ok: false, error: `plugin for ${stuck} did not finish within ${opts.timeoutMs} ms; file skipped` } });
      opts.onProgress?.(results.size, total);
    }
    const next = remaining.filter((j) => !results.has(j.rel));
    // No progress and nothing stuck: the worker died before starting; finish here instead.
    if (next.length === remaining.length && !stuck) {
      for (const r of await indexInThread(next, plugins, opts)) results.set(r.rel, r);
      break;
    }
    remaining = next;
  }
  return jobs.map((j) => results.get(j.rel)!).filter((r) => r !== undefined);
}

export function chooseRunner(choice: WorkerChoice, _root: string): Runner {
  return async (jobs, plugins, opts) => {
    if (choice === 'off' || jobs.length < WORKER_MIN_JOBS) return indexInThread(jobs, plugins, opts);
    const url = choice === 'auto' ? bundledWorker() : choice.url;
    const execArgv = choice === 'auto' ? [] : choice.execArgv ?? [];
    if (!url) return indexInThread(jobs, plugins, opts);
    try {
      return await inWorker(url, execArgv, jobs, plugins, opts);
    } catch {
      // A worker that cannot start (odd bundling, sandbox): same results, in this thread.
      return indexInThread(jobs, plugins, opts);
    }
  };
}
