/**
 * Re-indexes files the agent edits in a worker thread that stays up between edits. A warm start
 * never parsed anything in this thread, so the first edit of a TypeScript file would load the
 * compiler here (about a second with the event loop stopped: the screen freezes); in the worker
 * it loads while typing goes on, and later edits cost a message each. A plugin stuck on a file is
 * cut off as in a batch (the worker is replaced on the next edit); the worker goes away after a
 * while without edits, and it never keeps the process alive.
 *
 * The same worker holds the TypeScript checker the symbol tools ask (built on the first question,
 * never at start-up, so a one-shot run that asks none never waits for it).
 */
import { Worker } from 'node:worker_threads';
import { answerCheckerRequest } from './checker-host.js';
import type { CheckerAnswer, CheckerRequest } from './checker-protocol.js';
import { indexPath, type FileOutcome } from './index-file.js';
import type { PluginSet } from './plugin-set.js';
import type { IndexJob, IndexResult } from './run-indexing.js';
import { bundledWorker, HANG_SLACK_MS, STARTUP_MS, type WorkerChoice } from './worker-runner.js';
import type { WorkerInput, WorkerMessage, WorkerRequest } from './worker-protocol.js';
import { orderOnly } from '../diagnostics/ignore-error.js';

/** A worker with the compiler loaded holds tens of MB: let it go when edits stop. */
const IDLE_MS = 120_000;
/** With a checker built (hundreds of MB on a large project, seconds to build again), it stays longer. */
const CHECKER_IDLE_MS = 15 * 60_000;
/** Building the checker of a large project on a busy machine can take this long. */
const QUERY_MS = 120_000;

export interface EditIndexer {
  /** True when files go to a worker (one exists and has not failed to start). */
  usesWorker(): boolean;
  index(job: IndexJob): Promise<FileOutcome>;
  /** A few files one after another (a warm start with some changed: too few to start a batch worker for). */
  indexAll(jobs: readonly IndexJob[], onProgress?: (done: number, total: number) => void): Promise<IndexResult[]>;
  /** Asks the TypeScript checker (in the worker; in this thread without one). `token`: names the question for giveUp. */
  query(request: CheckerRequest, token?: object): Promise<CheckerAnswer>;
  /**
   * Nobody waits for the question `token` names any more: not started, it is dropped; under way,
   * it goes on until another request comes (its types stay with the program for the next question).
   */
  giveUp(token: object): void;
  /** Changes each time a new worker starts: it has no checker state yet. */
  generation(): number;
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

/** `codeCacheDir`: where the worker finds V8's code cache of the TypeScript compiler (code-cache.ts), as the parse pool's workers do. */
export function createEditIndexer(choice: WorkerChoice, plugins: PluginSet, timeoutMs: number, codeCacheDir?: string): EditIndexer {
  const url = choice === 'off' ? undefined : choice === 'auto' ? bundledWorker() : choice.url;
  const execArgv = choice === 'off' || choice === 'auto' ? [] : [...(choice.execArgv ?? [])];
  const here = (job: IndexJob): Promise<FileOutcome> => {
    const plugin = plugins.forFile(job.rel);
    return plugin ? indexPath(plugin, job.rel, job.abs, timeoutMs) : Promise.resolve({ ok: false, error: `no plugin for ${job.rel}` });
  };
  if (!url) {
    return {
      usesWorker: () => false, index: here, indexAll: (jobs, p) => oneByOne(here, jobs, p),
      query: (request) => answerCheckerRequest(request), giveUp: () => undefined, generation: () => 0, close: async () => undefined,
    };
  }

  let worker: Worker | undefined;
  let generation = 0;
  let checkerBuilt = false;
  let nextId = 1;
  /** Set when a worker could not start: edits are indexed here from then on. */
  let broken = false;
  let idle: NodeJS.Timeout | undefined;
  let queue: Promise<unknown> = Promise.resolve();
  /**
   * True while the worker answers the checker (a warm-up, or a question a tool may have stopped
   * waiting for past its budget): closing does not wait for it.
   */
  let checking = false;
  let closing = false;
  const stop = (): void => {
    clearTimeout(idle);
    void worker?.terminate();
    worker = undefined;
  };

  /**
   * [0] raised with every request but a warm-up: a warm-up under way in the worker then stops, as
   * does the question under way whose id is in [1] (nobody waits for its answer any more).
   */
  const waiting = new Int32Array(new SharedArrayBuffer(8));
  /** Questions given up before they started, and the one under way in the worker. */
  const givenUp = new WeakSet<object>();
  let underWay: { token: object; id: number } | undefined;
  const raise = (): void => {
    Atomics.store(waiting, 0, 1);
  };
  const ensureWorker = (): Worker => {
    if (!worker) {
      const input: WorkerInput = {
        jobs: [], external: plugins.external, timeoutMs, serve: true, waiting: waiting.buffer as SharedArrayBuffer,
        ...(codeCacheDir ? { codeCacheDir } : {}),
      };
      worker = new Worker(url, { workerData: input, execArgv });
      worker.unref();
      generation++;
      checkerBuilt = false;
    }
    return worker;
  };

  const queryWorker = (request: CheckerRequest, token: object): Promise<CheckerAnswer> => new Promise((resolve, reject) => {
    const w = ensureWorker();
    const id = nextId++;
    underWay = { token, id };
    // A question holds the process up until answered; a warm-up never does.
    const held = request.op !== 'warm';
    if (held) w.ref();
    const finish = (fn: () => void): void => {
      clearTimeout(timer);
      if (underWay?.id === id) underWay = undefined;
      if (held) w.unref();
      w.off('message', onMessage);
      w.off('error', onError);
      w.off('exit', onExit);
      fn();
    };
    const timer = setTimeout(() => {
      if (worker === w) stop();
      finish(() => resolve({ ok: false, error: `the TypeScript checker did not answer within ${QUERY_MS / 1000} s` }));
    }, QUERY_MS);
    timer.unref();
    const onMessage = (m: WorkerMessage): void => {
      if (m.type === 'answer' && m.id === id) finish(() => resolve(m.answer));
      else if (m.type === 'fatal') finish(() => reject(new Error(m.error)));
    };
    const onError = (err: Error): void => finish(() => reject(err));
    const onExit = (): void => finish(() => reject(new Error('the indexing worker exited')));
    w.on('message', onMessage);
    w.on('error', onError);
    w.on('exit', onExit);
    w.postMessage({ type: 'query', id, request } satisfies WorkerRequest);
  });

  const inWorker = (job: IndexJob): Promise<FileOutcome> => new Promise((resolve, reject) => {
    const w = ensureWorker();
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
    raise();
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
        idleLater();
      }
    });
    queue = run.catch(orderOnly);
    return run;
  };
  const idleLater = (): void => {
    if (!worker) return;
    clearTimeout(idle);
    idle = setTimeout(stop, checkerBuilt ? CHECKER_IDLE_MS : IDLE_MS);
    idle.unref();
  };

  const query = (request: CheckerRequest, token: object = {}): Promise<CheckerAnswer> => {
    if (request.op !== 'warm') raise();
    const run = queue.then(async (): Promise<CheckerAnswer> => {
      if (givenUp.has(token)) return { ok: false, late: true, error: 'given up before the checker started on it' };
      // Warming is for questions to come: none come once closing, and without a worker it would stop this thread.
      if (request.op === 'warm' && (closing || broken)) return { ok: true, results: [] };
      if (broken) return answerCheckerRequest(request);
      clearTimeout(idle);
      checking = true;
      try {
        const answer = await queryWorker(request, token);
        checkerBuilt = true;
        return answer;
      } catch {
        if (closing) return { ok: false, error: 'the code map is closing' };
        stop();
        broken = true;
        generation++;
        return answerCheckerRequest(request);
      } finally {
        checking = false;
        idleLater();
      }
    });
    queue = run.catch(orderOnly);
    return run;
  };
  return {
    usesWorker: () => !broken,
    index,
    indexAll: (jobs, onProgress) => oneByOne(index, jobs, onProgress),
    query,
    giveUp(token) {
      givenUp.add(token);
      if (underWay?.token === token) Atomics.store(waiting, 1, underWay.id);
    },
    generation: () => generation,
    async close() {
      closing = true;
      // A checker answer under way is not waited for: a warm-up, or a question a tool stopped waiting for.
      if (checking) stop();
      await queue;
      stop();
    },
  };
}
