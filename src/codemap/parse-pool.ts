/**
 * Parses a batch of files on a pool of worker threads. Files go out in small batches, a few per
 * worker at a time, so a worker never waits on the main thread and the last files spread over
 * every worker; each answer is stored at its file's place in the job list, so the results (and
 * the cache and map made from them) are the same bytes whatever worker finished first.
 *
 * Each worker raises a shared counter before each file. A watchdog reads it: a worker whose
 * counter stays put past the plugin timeout is stuck on that file, which is reported and skipped,
 * and a new worker takes the rest of its batches. A worker that dies before starting any file is
 * not replaced; once none is left, the files still to do are handed back (indexed in this thread).
 */
import { Worker } from 'node:worker_threads';
import { lowerInliningBudget } from './v8-flags.js';
import type { IndexJob, IndexResult, RunOptions } from './run-indexing.js';
import type { WorkerInput, WorkerMessage, WorkerRequest } from './worker-protocol.js';

export interface PoolOptions extends RunOptions {
  readonly url: URL;
  readonly execArgv: readonly string[];
  readonly workers: number;
  /** Plugin module URLs beyond the built-ins. */
  readonly external: readonly string[];
  /** Lowers the workers' OS priority (Linux): see thread-priority.ts. */
  readonly niceness?: number;
  /** Where the workers keep V8's code cache of the TypeScript compiler (code-cache.ts); none when absent. */
  readonly codeCacheDir?: string;
  /** The workers step aside while a prompt's request is pending (src/io/request-gate.ts). */
  readonly requestPending?: SharedArrayBuffer;
}

export interface PoolOutcome {
  /** By position in the job list; undefined where `left` says so. */
  readonly results: readonly (IndexResult | undefined)[];
  /** Positions of the jobs no worker could do (none would start). */
  readonly left: readonly number[];
}

/** Extra time over the plugin timeout before a silent worker is presumed stuck. */
export const HANG_SLACK_MS = 2000;
/** Starting a worker loads the plugins; on a busy machine that can take seconds. */
export const STARTUP_MS = 60_000;
/** Most files per request: big enough that messages cost little, small enough to even out the end. */
const BATCH_FILES = 32;
/** Requests a worker holds at once, so it has its next batch before it finishes one. */
const IN_FLIGHT = 2;

interface Slot {
  readonly worker: Worker;
  readonly started: Int32Array;
  /** Job positions sent to it, in order; the first `received` are answered. */
  readonly sent: number[];
  /** Sizes of the batches sent and not yet answered. */
  readonly batches: number[];
  received: number;
  /** The counter as last seen, and when it last moved. */
  seen: number;
  since: number;
  alive: boolean;
}

/** What starting a pool worker needs (the files come later, in requests). */
export type WorkerSetup = Pick<PoolOptions, 'url' | 'execArgv' | 'external' | 'timeoutMs' | 'niceness' | 'codeCacheDir' | 'requestPending'>;

interface StartedWorker {
  readonly worker: Worker;
  readonly started: SharedArrayBuffer;
}

function startWorker(opts: WorkerSetup): StartedWorker | undefined {
  const started = new SharedArrayBuffer(4);
  const input: WorkerInput = {
    jobs: [], external: opts.external, timeoutMs: opts.timeoutMs,
    pool: { started, ...(opts.niceness ? { niceness: opts.niceness } : {}), ...(opts.codeCacheDir ? { codeCacheDir: opts.codeCacheDir } : {}),
      ...(opts.requestPending ? { requestPending: opts.requestPending } : {}) },
  };
  try {
    return { worker: new Worker(opts.url, { workerData: input, execArgv: [...opts.execArgv] }), started };
  } catch {
    return undefined;
  }
}

/**
 * Pool workers started before their files are known: a worker's first half second goes to loading
 * the compiler and its warm-up, which can overlap the walk of the project. A later runPool takes
 * them (`take`); what it does not take, `release` ends. Until taken they never keep the process up.
 */
export interface Standby {
  take(): StartedWorker | undefined;
  /** Ends the workers not taken. */
  release(): void;
  /** How many were taken so far. */
  taken(): number;
}

export function startStandby(opts: WorkerSetup, count: number): Standby {
  const ready: { w: StartedWorker; dead: boolean; adopt: () => void }[] = [];
  // Before the first batch, as for the pool's own workers: their compilers are optimized under it.
  lowerInliningBudget();
  for (let i = 0; i < count; i++) {
    const w = startWorker(opts);
    if (!w) break;
    const gone = (): void => { entry.dead = true; };
    const fatal = (m: WorkerMessage): void => { if (m.type === 'fatal') gone(); };
    const entry = {
      w, dead: false,
      adopt: () => w.worker.off('error', gone).off('exit', gone).off('message', fatal).ref(),
    };
    w.worker.unref();
    w.worker.on('error', gone).on('exit', gone).on('message', fatal);
    ready.push(entry);
  }
  let taken = 0;
  return {
    take() {
      for (let e = ready.shift(); e; e = ready.shift()) {
        if (e.dead) continue;
        e.adopt();
        taken++;
        return e.w;
      }
      return undefined;
    },
    release() {
      for (const e of ready.splice(0)) void e.w.worker.terminate();
    },
    taken: () => taken,
  };
}

export function runPool(jobs: readonly IndexJob[], opts: PoolOptions, standby?: Standby): Promise<PoolOutcome> {
  return new Promise((resolve) => {
    const results: (IndexResult | undefined)[] = new Array<IndexResult | undefined>(jobs.length);
    const queue: number[] = jobs.map((_, i) => i);
    let next = 0;
    let done = 0;
    const slots = new Set<Slot>();
    const workers = Math.max(1, opts.workers);
    const batchSize = Math.max(1, Math.min(BATCH_FILES, Math.ceil(jobs.length / (workers * 4))));
    let finished = false;

    const finish = (): void => {
      if (finished) return;
      finished = true;
      clearInterval(watchdog);
      for (const s of slots) retire(s);
      const left: number[] = [];
      for (let i = 0; i < jobs.length; i++) if (!results[i]) left.push(i);
      resolve({ results, left });
    };
    const record = (pos: number, r: IndexResult): void => {
      if (results[pos]) return;
      results[pos] = r;
      done++;
      opts.onProgress?.(done, jobs.length);
    };
    const take = (): number[] => {
      const batch: number[] = [];
      while (batch.length < batchSize && next < queue.length) {
        const pos = queue[next++]!;
        if (!results[pos]) batch.push(pos);
      }
      return batch;
    };
    const retire = (s: Slot): void => {
      s.alive = false;
      slots.delete(s);
      void s.worker.terminate();
    };
    const settle = (): void => {
      if (done === jobs.length || slots.size === 0) finish();
    };
    const feed = (s: Slot): void => {
      while (s.alive && s.batches.length < IN_FLIGHT) {
        const batch = take();
        if (batch.length === 0) break;
        if (s.batches.length === 0) s.since = performance.now();
        s.sent.push(...batch);
        s.batches.push(batch.length);
        s.worker.postMessage({ type: 'index', jobs: batch.map((pos) => jobs[pos]!) } satisfies WorkerRequest);
      }
      // Nothing more for it: let it go (its memory, its compiler) rather than idle to the end.
      if (s.alive && s.batches.length === 0) retire(s);
    };
    /** A worker gone (stuck, crashed, or never started): its unanswered files go back in the queue. */
    const lost = (s: Slot, stuck: boolean): void => {
      if (!s.alive) return;
      retire(s);
      const started = Atomics.load(s.started, 0);
      // The file it was on when it stopped: the plugin hung or crashed on it.
      const culprit = started > s.received ? s.sent[started - 1] : undefined;
      if (culprit !== undefined) {
        const rel = jobs[culprit]!.rel;
        const error = stuck ? `plugin for ${rel} did not finish within ${opts.timeoutMs} ms; file skipped` : `the indexing worker stopped while parsing ${rel}; file skipped`;
        record(culprit, { rel, outcome: { ok: false, error } });
      }
      for (const pos of s.sent.slice(s.received)) if (!results[pos]) queue.push(pos);
      // It got through files before this one: a new worker carries on. One that never started
      // any is not replaced (the same would happen again): the others, or this thread, do its files.
      if (started > 0 && done < jobs.length) spawn();
      for (const other of slots) feed(other);
      settle();
    };
    const spawn = (): void => {
      const w = standby?.take() ?? startWorker(opts);
      if (!w) return; // cannot start one here (odd bundling, a sandbox): the files are handed back
      const { worker, started } = w;
      const s: Slot = { worker, started: new Int32Array(started), sent: [], batches: [], received: 0, seen: 0, since: performance.now(), alive: true };
      slots.add(s);
      worker.on('message', (m: WorkerMessage) => {
        if (!s.alive) return;
        if (m.type === 'batch') {
          const n = s.batches.shift() ?? 0;
          const positions = s.sent.slice(s.received, s.received + n);
          s.received += n;
          m.results.forEach((r, i) => record(positions[i]!, r));
          feed(s);
          settle();
        } else if (m.type === 'fatal') lost(s, false);
      });
      worker.on('error', () => lost(s, false));
      worker.on('exit', () => lost(s, false));
      feed(s);
    };

    const hangMs = opts.timeoutMs + HANG_SLACK_MS;
    const watchdog = setInterval(() => {
      const now = performance.now();
      for (const s of [...slots]) {
        const started = Atomics.load(s.started, 0);
        if (started !== s.seen) {
          s.seen = started;
          s.since = now;
        } else if (s.batches.length > 0 && now - s.since > (started === 0 ? STARTUP_MS : hangMs)) {
          lost(s, started > 0);
        }
      }
    }, Math.max(25, Math.min(500, hangMs / 8)));

    if (jobs.length === 0) {
      standby?.release();
      return finish();
    }
    // Before the workers start: their compilers are optimized under it from the first file.
    lowerInliningBudget();
    for (let i = 0; i < Math.min(workers, Math.ceil(jobs.length / batchSize)); i++) spawn();
    // More were started ahead than these files need: their memory goes now, not at the end.
    standby?.release();
    settle();
  });
}
