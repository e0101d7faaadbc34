/**
 * The worker side of the parse pool: each `index` request is a batch of files, answered with one
 * `batch` message. Files are read with blocking calls (this thread has nothing else to wait for)
 * and their indexes sent as JSON text, the bytes the cache stores. Before each file the shared
 * counter goes up, so the main thread can tell a plugin stuck on a file from a slow batch.
 */
import { parentPort } from 'node:worker_threads';
import { encodeOutcome, indexPath, type FileOutcome } from './index-file.js';
import type { PluginSet } from './plugin-set.js';
import type { IndexResult } from './run-indexing.js';
import { saveCodeCache, useCodeCache } from './load-typescript.js';
import { lowerThreadPriority } from './thread-priority.js';
import { typescriptPlugin } from './ts-plugin.js';
import { warmUpTypeScriptIndexer } from './ts-warm-up.js';
import { waitWhileRequestPending } from '../io/request-gate.js';
import type { PoolInput, WorkerMessage, WorkerRequest } from './worker-protocol.js';

export function servePool(plugins: PluginSet, pool: PoolInput, timeoutMs: number): void {
  if (pool.niceness) lowerThreadPriority(pool.niceness);
  const started = new Int32Array(pool.started);
  if (pool.codeCacheDir) useCodeCache(pool.codeCacheDir);
  // Before the first batch arrives: the parser's feedback complete before V8 optimizes it (ts-warm-up.ts).
  if (plugins.forFile('x.ts') === typescriptPlugin) {
    warmUpTypeScriptIndexer();
    // The parser's functions are compiled by now: the code cache written holds them, not just the top level.
    saveCodeCache();
  }
  const pending = pool.requestPending ? new Int32Array(pool.requestPending) : undefined;
  let queue = Promise.resolve();
  parentPort!.on('message', (m: WorkerRequest) => {
    if (m?.type !== 'index') return;
    queue = queue.then(async () => {
      const results: IndexResult[] = [];
      for (const job of m.jobs) {
        // A prompt's request on its way goes first (the wait is capped, and precedes the
        // counter, so the watchdog never mistakes it for a stuck file).
        if (pending) waitWhileRequestPending(pending);
        Atomics.add(started, 0, 1);
        const plugin = plugins.forFile(job.rel);
        const outcome: FileOutcome = plugin
          ? encodeOutcome(await indexPath(plugin, job.rel, job.abs, timeoutMs, { sync: true, ...(job.hash ? { knownHash: job.hash } : {}) }))
          : { ok: false, error: `no plugin for ${job.rel}` };
        results.push({ rel: job.rel, outcome });
      }
      parentPort!.postMessage({ type: 'batch', results } satisfies WorkerMessage);
    });
  });
}
