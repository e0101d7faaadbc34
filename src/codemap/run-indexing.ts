/** Indexes a batch of files: in a worker thread when one is available and the batch is large, else here. */
import { indexPath, type FileOutcome } from './index-file.js';
import type { PluginSet } from './plugin-set.js';

export interface IndexJob {
  readonly rel: string;
  readonly abs: string;
  /** The content hash of the cached index for this file: if the bytes still hash to it, nothing is parsed (`unchanged`). */
  readonly hash?: string;
}

export interface IndexResult {
  readonly rel: string;
  readonly outcome: FileOutcome;
}

export interface RunOptions {
  readonly timeoutMs: number;
  readonly onProgress?: (done: number, total: number) => void;
}

/** In this thread, one file at a time, yielding between files so the event loop keeps turning. */
export async function indexInThread(jobs: readonly IndexJob[], plugins: PluginSet, opts: RunOptions): Promise<IndexResult[]> {
  const results: IndexResult[] = [];
  let done = 0;
  for (const job of jobs) {
    const plugin = plugins.forFile(job.rel);
    const outcome: FileOutcome = plugin
      ? await indexPath(plugin, job.rel, job.abs, opts.timeoutMs, job.hash ? { knownHash: job.hash } : {})
      : { ok: false, error: `no plugin for ${job.rel}` };
    results.push({ rel: job.rel, outcome });
    done++;
    opts.onProgress?.(done, jobs.length);
    if (done % 25 === 0) await new Promise<void>((resolve) => setImmediate(resolve));
  }
  return results;
}
