/**
 * A full garbage collection right before a step that allocates a copy of something huge (a
 * tool call's arguments of megabytes, parsed into their object). The pieces the text was joined
 * from are garbage by then, but V8 collects its old space only when its heuristics say so, so
 * without this the pieces, the joined text and the parsed copy share the peak: ~4× the reply
 * instead of ~2×. Below the threshold nothing happens: a collection costs tens of milliseconds.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** Characters from which a collection pays for itself (a few MB of garbage freed). */
export const RECLAIM_FROM_CHARS = 8_000_000;

let collect: (() => void) | null | undefined;

/** Collects garbage when `chars` (the size of what is about to be copied) is past the threshold. */
export function reclaimBefore(chars: number): void {
  if (chars < RECLAIM_FROM_CHARS) return;
  if (collect === undefined) {
    try {
      // The documented way to reach gc() without starting node with --expose-gc: the flag set at
      // run time exposes it to contexts created afterwards.
      setFlagsFromString('--expose-gc');
      collect = runInNewContext('gc') as () => void;
    } catch {
      collect = null; // a runtime that refuses: memory is then only higher, nothing breaks
    }
  }
  collect?.();
}
