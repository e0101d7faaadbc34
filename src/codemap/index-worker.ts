/** Worker thread entry: indexes files so parsing never blocks the main thread (typing stays live). */
import { parentPort, workerData } from 'node:worker_threads';
import { builtinPlugins } from './builtin-plugins.js';
import { answerCheckerRequest, clearWaiting, useWaitingFlag } from './checker-host.js';
import { indexPath } from './index-file.js';
import { importPlugin } from './load-plugins.js';
import { saveCodeCache, useCodeCache } from './load-typescript.js';
import { createPluginSet } from './plugin-set.js';
import { servePool } from './pool-worker.js';
import type { IndexJob } from './run-indexing.js';
import type { WorkerInput, WorkerMessage, WorkerRequest } from './worker-protocol.js';

async function main(): Promise<void> {
  const input = workerData as WorkerInput;
  const post = (m: WorkerMessage): void => parentPort!.postMessage(m);
  const plugins = [...builtinPlugins()];
  for (const url of input.external) {
    try {
      plugins.push(await importPlugin(url));
    } catch {
      // The main thread loaded the same modules and already reported any failure.
    }
  }
  const set = createPluginSet(plugins);
  if (input.pool) return servePool(set, input.pool, input.timeoutMs);
  // The checker's first question and the first edit start by loading the compiler: from the code cache, ~0.3 s sooner.
  if (input.codeCacheDir) useCodeCache(input.codeCacheDir);
  let asked = false;
  const run = async (jobs: readonly IndexJob[]): Promise<void> => {
    for (const job of jobs) {
      post({ type: 'start', rel: job.rel });
      const plugin = set.forFile(job.rel);
      const outcome = plugin
        ? await indexPath(plugin, job.rel, job.abs, input.timeoutMs)
        : { ok: false as const, error: `no plugin for ${job.rel}` };
      post({ type: 'done', rel: job.rel, outcome });
    }
    post({ type: 'finished' });
    // Written only when there was none (or V8 refused it), after parsing, as a pool worker writes it; never
    // after the checker's work, which would make every parse worker's load read the checker's functions too.
    if (!asked) saveCodeCache();
  };
  await run(input.jobs);
  if (!input.serve) return;
  if (input.waiting) useWaitingFlag(new Int32Array(input.waiting));
  // One request at a time, in order: the checker reads files an edit being indexed may be writing.
  let queue = Promise.resolve();
  parentPort!.on('message', (m: WorkerRequest) => {
    if (m?.type === 'index') queue = queue.then(() => { clearWaiting(); return run(m.jobs); });
    else if (m?.type === 'query') {
      queue = queue.then(async () => {
        if (m.request.op !== 'warm') clearWaiting();
        asked = true;
        post({ type: 'answer', id: m.id, answer: await answerCheckerRequest(m.request, m.id) });
      });
    }
  });
}

main().catch((err: unknown) => {
  parentPort?.postMessage({ type: 'fatal', error: err instanceof Error ? err.message : String(err) } satisfies WorkerMessage);
});
