/** Messages between the indexing worker and the main thread. */
import type { CheckerAnswer, CheckerRequest } from './checker-protocol.js';
import type { FileOutcome } from './index-file.js';
import type { IndexJob, IndexResult } from './run-indexing.js';

/** A worker of the parse pool (src/codemap/parse-pool.ts). */
export interface PoolInput {
  /** One Int32: the files this worker has started, raised before each (the main thread's watchdog reads it). */
  readonly started: SharedArrayBuffer;
  /** Lower this thread's OS priority by this much (Linux), so the main thread and the user's work go first. */
  readonly niceness?: number;
  /** Load the TypeScript compiler through V8's code cache in this folder (code-cache.ts). */
  readonly codeCacheDir?: string;
  /** One Int32, 1 while a prompt's request is pending (src/io/request-gate.ts): the worker waits before its next file. */
  readonly requestPending?: SharedArrayBuffer;
}

export interface WorkerInput {
  readonly jobs: readonly IndexJob[];
  /** Plugin module URLs beyond the built-ins. */
  readonly external: readonly string[];
  readonly timeoutMs: number;
  /** Stay up after `jobs` and index each WorkerRequest's jobs as it comes (re-indexing edits). */
  readonly serve?: boolean;
  /** One Int32: the main thread sets it when it sends a request, so a warm-up under way gives way. */
  readonly waiting?: SharedArrayBuffer;
  /** A serving worker loads the TypeScript compiler through V8's code cache in this folder (code-cache.ts). */
  readonly codeCacheDir?: string;
  /** A parse-pool worker: each `index` request is answered with one `batch` message. */
  readonly pool?: PoolInput;
}

/**
 * To a serving worker: index these files (answered with start / done per file, then finished), or
 * ask its TypeScript checker (answered with `answer` carrying the same id).
 */
export type WorkerRequest =
  | { readonly type: 'index'; readonly jobs: readonly IndexJob[] }
  | { readonly type: 'query'; readonly id: number; readonly request: CheckerRequest };

export type WorkerMessage =
  | { readonly type: 'start'; readonly rel: string }
  | { readonly type: 'done'; readonly rel: string; readonly outcome: FileOutcome }
  | { readonly type: 'finished' }
  /** A pool worker's answer to one `index` request, in its order (ok outcomes carry the index as JSON text). */
  | { readonly type: 'batch'; readonly results: readonly IndexResult[] }
  | { readonly type: 'answer'; readonly id: number; readonly answer: CheckerAnswer }
  | { readonly type: 'fatal'; readonly error: string };
