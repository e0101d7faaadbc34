/**
 * The code map's indexing progress, on its way to the status line and the verbose log. The index
 * reports once per file; the store coalesces the renders, and the log gets a line every few
 * seconds rather than one per file.
 */
import type { IndexingProgress } from './state.js';

/** How often --verbose reports progress while a cold index runs. */
export const PROGRESS_LOG_MS = 2_000;

export interface IndexingProgressSink {
  /** The indexer's callback. */
  readonly update: (done: number, total: number) => void;
  /** The map opened (or failed): progress is cleared and late reports are ignored. */
  settle(ready: boolean): void;
  /** Where progress goes once the engine exists; the latest report so far is sent at once. */
  attach(dispatch: (progress: IndexingProgress | null) => void): void;
}

export function indexingProgress(log?: (line: string) => void, now: () => number = Date.now): IndexingProgressSink {
  const started = now();
  let latest: IndexingProgress | null = null;
  let settled = false;
  let lastLog = started;
  let dispatch: ((progress: IndexingProgress | null) => void) | undefined;
  return {
    update(done, total) {
      if (settled) return;
      latest = { done, total };
      dispatch?.(latest);
      const t = now();
      if (log && t - lastLog >= PROGRESS_LOG_MS && done < total) {
        lastLog = t;
        log(`code map: indexing ${done}/${total} files`);
      }
    },
    settle(ready) {
      if (settled) return;
      settled = true;
      const files = latest ? ` (${latest.total} files)` : '';
      latest = null;
      dispatch?.(null);
      log?.(ready ? `code map: ready in ${now() - started} ms${files}` : 'code map: unavailable');
    },
    attach(d) {
      dispatch = d;
      if (latest) d(latest);
    },
  };
}
