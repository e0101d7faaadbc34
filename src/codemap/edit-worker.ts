/**
 * Re-indexes files the agent edits in a worker thread that stays up between edits. A warm start
 * never parsed anything in this thread, so the first edit of a TypeScript file would load the
 * compiler here (about a second with the event loop stopped: the screen freezes); in the worker
 * it loads while typing goes on, and later edits cost a message each. A plugin stuck on a file is
 * cut off as in a batch (the worker is replaced on the next edit); the worker goes away after a
 * while without edits, and it never keeps the process alive.
 */
import { Worker } from 'node:worker_threads';
import { indexPath, type FileOutcome } from './index-file.js';
import type { PluginSet } from './plugin-set.js';
import type { IndexJob, IndexResult } from './run-indexing.js';
import { bundledWorker, HANG_SLACK_MS, STARTUP_MS, type WorkerChoice } from './worker-runner.js';
import type { WorkerInput, WorkerMessage, WorkerRequest } from './worker-protocol.js';
import { orderOnly } from '../diagnostics/ignore-error.js';

/** A worker with the compiler loaded holds tens of MB: let it go when edits stop. */
const IDLE_MS = 120_000;

export interface EditIndexer {
  /** True when files go to a worker (one exists and has not failed to start). */
  usesWorker(): boolean;
  index(job: IndexJob): Promise<FileOutcome>;
  /** A few files one after another (a warm start with some changed: too few to start a batch worker for). */
  indexAll(jobs: readonly IndexJob[], onProgress?: (done: number, total: number) => void): Promise<IndexResult[]>;
  close(): Promise<void>;
}

async function oneByOne(index: (job: IndexJob) => Promise<FileOutcome>, jobs: readonly IndexJob[],
  onProgress?: (done: number, total: number) => void): Promise<IndexResult[]> {
  const results: IndexResult[] = [];
  for (const job of jobs) {
    results.push({ rel: job.rel, outcome: await index(job) });
    onProgress?.(results.length, jobs.length);
  }
  return results;
}

export function createEditIndexer(choice: WorkerChoice, plugins: PluginSet, timeoutMs: number): EditIndexer {
  const url = choice === 'off' ? undefined : choice === 'auto' ? bundledWorker() : choice.url;
  const execArgv = choice === 'off' || choice === 'auto' ? [] : [...(choice.execArgv ?? [])];
  const here = (job: IndexJob): Promise<FileOutcome> => {
    const plugin = plugins.forFile(job.rel);
    return plugin ? indexPath(plugin, job.rel, job.abs, timeoutMs) : Promise.resolve({ ok: false, error: `no plugin for ${job.rel}` });
  };
  if (!url) return { usesWorker: () => false, index: here, indexAll: (jobs, p) => oneByOne(here, jobs, p), close: async () => undefined };

  let worker: Worker | undefined;
  /** Set when a worker could not start: edits are indexed here from then on. */
  let broken = false;
  let idle: NodeJS.Timeout | undefined;
  let queue: Promise<unknown> = Promise.resolve();
  const stop = (): void => {
    clearTimeout(idle);
    void worker?.terminate();
    worker = undefined;
  };

  const inWorker = (job: IndexJob): Promise<FileOutcome> => new Promise((resolve, reject) => {
    if (!worker) {
      const input: WorkerInput = { jobs: [], external: plugins.external, timeoutMs, serve: true };
      worker = new Worker(url, { workerData: input, execArgv });
      worker.unref();
    }
    const w = worker;
    // Held up by this edit while it runs (a one-shot run awaits it), never while idle.
    w.ref();
    let timer: NodeJS.Timeout | undefined;
    const finish = (fn: () => void): void => {
      clearTimeout(timer);
      w.unref();
      w.off('message', onMessage);
      w.off('error', onError);
      w.off('exit', onExit);
      fn();
    };
    const arm = (ms: number): void => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        if (worker === w) stop();
        finish(() => resolve({ ok: false, error: `plugin for ${job.rel} did not finish within ${timeoutMs} ms; file skipped` }));
      }, ms);
      timer.unref();
    };
    const onMessage = (m: WorkerMessage): void => {
      if (m.type === 'start' && m.rel === job.rel) arm(timeoutMs + HANG_SLACK_MS);
      else if (m.type === 'done' && m.rel === job.rel) finish(() => resolve(m.outcome));
      else if (m.type === 'fatal') finish(() => reject(new Error(m.error)));
    };
    const onError = (err: Error): void => finish(() => reject(err));
    const onExit = (): void => finish(() => reject(new Error('the indexing worker exited')));
    w.on('message', onMessage);
    w.on('error', onError);
    w.on('exit', onExit);
    arm(STARTUP_MS);
    w.postMessage({ type: 'index', jobs: [job] } satisfies WorkerRequest);
  });

  const index = (job: IndexJob): Promise<FileOutcome> => {
    const run = queue.then(async (): Promise<FileOutcome> => {
      if (broken) return here(job);
      clearTimeout(idle);
      try {
        return await inWorker(job);
      } catch {
        // A worker that cannot start or died: same result, in this thread.
        stop();
        broken = true;
        return here(job);
      } finally {
        if (worker) {
          idle = setTimeout(stop, IDLE_MS);
          idle.unref();
        }
      }
    });
    queue = run.catch(orderOnly);
    return run;
  };
  return {
    usesWorker: () => !broken,
    index,
    indexAll: (jobs, onProgress) => oneByOne(index, jobs, onProgress),
    async close() {
      await queue;
      stop();
    },
  };
}
