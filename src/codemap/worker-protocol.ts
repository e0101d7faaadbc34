/** Messages between the indexing worker and the main thread. */
import type { FileOutcome } from './index-file.js';
import type { IndexJob } from './run-indexing.js';

export interface WorkerInput {
  readonly jobs: readonly IndexJob[];
  /** Plugin module URLs beyond the built-ins. */
  readonly external: readonly string[];
  readonly timeoutMs: number;
}

export type WorkerMessage =
  | { readonly type: 'start'; readonly rel: string }
  | { readonly type: 'done'; readonly rel: string; readonly outcome: FileOutcome }
  | { readonly type: 'finished' }
  | { readonly type: 'fatal'; readonly error: string };
