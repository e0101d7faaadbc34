/**
 * The checker of this thread (the index worker's, or the main thread's when there is no worker):
 * built on the first question for a project root, kept for the ones after (the language service
 * then re-parses only files that changed on disk).
 */
import type { CheckerAnswer, CheckerRequest } from './checker-protocol.js';
import { lowerInliningBudget, tightenHeapGrowth } from './v8-flags.js';
import { loadTypeScript } from './load-typescript.js';
import { createTsChecker, type TsChecker } from './ts-checker.js';

const checkers = new Map<string, TsChecker>();
/**
 * Shared with the main thread: [0] non-zero when a request waits behind the one under way, [1] the
 * id of a request no tool waits for any more (past its budget): it stops, as a warm-up does, when another waits.
 */
let waiting: Int32Array | undefined;
/** The id of the request under way (0: none, or asked in this thread). */
let current = 0;

/** The worker's flag for "a request waits": a warm-up under way stops when it is set. */
export function useWaitingFlag(flag: Int32Array): void {
  waiting = flag;
}

/** Called as a request starts: whatever waited is now being served. */
export function clearWaiting(): void {
  if (waiting) Atomics.store(waiting, 0, 0);
}
/** One project per session; a second root (tests, benchmarks) replaces the first rather than adding memory. */
const MAX_PROJECTS = 1;

export async function answerCheckerRequest(request: CheckerRequest, id = 0): Promise<CheckerAnswer> {
  current = id;
  try {
    const api = loadTypeScript();
    let checker = checkers.get(request.root);
    if (!checker) {
      tightenHeapGrowth();
      lowerInliningBudget();
      if (checkers.size >= MAX_PROJECTS) checkers.clear();
      checker = createTsChecker(api, request.root, () => waiting !== undefined && Atomics.load(waiting, 0) !== 0,
        () => waiting !== undefined && current !== 0 && Atomics.load(waiting, 1) === current);
      checkers.set(request.root, checker);
    }
    return checker.answer(request);
  } catch (err) {
    return { ok: false, error: err instanceof Error ? err.message : String(err) };
  }
}

/** Drops every checker (its memory goes with it). */
export function dropCheckers(): void {
  checkers.clear();
}
