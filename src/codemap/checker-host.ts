/**
 * The checker of this thread (the index worker's, or the main thread's when there is no worker):
 * built on the first question for a project root, kept for the ones after (the language service
 * then re-parses only files that changed on disk).
 */
import type { CheckerAnswer, CheckerRequest } from './checker-protocol.js';
import { loadTypeScript } from './load-typescript.js';
import { createTsChecker, type TsChecker } from './ts-checker.js';

const checkers = new Map<string, TsChecker>();
/** One project per session; a second root (tests, benchmarks) replaces the first rather than adding memory. */
const MAX_PROJECTS = 1;

export async function answerCheckerRequest(request: CheckerRequest): Promise<CheckerAnswer> {
  try {
    const api = loadTypeScript();
    let checker = checkers.get(request.root);
    if (!checker) {
      if (checkers.size >= MAX_PROJECTS) checkers.clear();
      checker = createTsChecker(api, request.root);
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
