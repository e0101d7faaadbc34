/**
 * The V8 flags the code map sets for the TypeScript compiler it runs. Each is process-wide (V8
 * reads it in every thread), so it is set once and left; a user who set it themselves (on node's
 * command line or in NODE_OPTIONS) keeps their value, and a runtime that refuses it only decides
 * as V8 does by default: every answer is the same.
 *
 * The inlining budget is lowered once the code map starts running the compiler in earnest (a
 * parse pool, a checker). The compiler is ~9 MB of JavaScript, and every thread that runs it (each parse worker, the
 * checker's worker) has V8 optimize its hot functions anew, on V8's background threads: on the
 * 5,000-file cold index those threads took about a third of all CPU, on the same two cores the
 * workers parse on. With V8's default cumulative inlining budget (920 bytes of bytecode per
 * function) the parser's and checker's big functions each pull in dozens of callees and compile
 * for tens of milliseconds; at 150 they compile in a fraction of that, and the code they make runs
 * about as fast. Measured (scripts/bench-codemap.ts, 2 cores): the cold index about 20% less CPU
 * and wall time, the checker's first complete answer on Hono 7.3 → 5.9 s, its answer after an edit
 * 260 → 128 ms. The streaming figures of the session (scripts/bench-stream-tui.ts) did not move.
 *
 * The heap's growth is held once the first checker is built: see CHECKER_HEAP_GROWING_PERCENT.
 */
import { setFlagsFromString } from 'node:v8';

/** Bytecode bytes V8 may inline into one optimized function, all callees together (V8's default: 920). */
export const TYPESCRIPT_INLINING_BUDGET = 150;

/**
 * How far V8 lets a heap grow past what its last full collection left, in percent, once a checker
 * exists. V8's own factor follows how cheap its collections were, up to ×4: on the 5,000-file corpus
 * the checker's heap went from 154 MB live to 414 MB (286 MB live) without a full collection, and the
 * garbage made a third of the process's growth. At 30% it collects about twice as often while the
 * program grows (the process's peak over its start: 397 MB instead of 514–565; on Hono 353 instead of 507).
 */
export const CHECKER_HEAP_GROWING_PERCENT = 30;

const set = new Set<string>();

/** True when the runtime was started with `flag` (then it is theirs to set). */
export function userSetFlag(flag: string, execArgv: readonly string[] = process.execArgv, nodeOptions = process.env['NODE_OPTIONS'] ?? ''): boolean {
  const mentions = (arg: string): boolean => arg.replace(/_/g, '-').includes(flag);
  return execArgv.some(mentions) || nodeOptions.split(/\s+/).some(mentions);
}

/** Sets `--flag=value` for the rest of the process, the first time only; never throws. */
function setOnce(flag: string, value: number): void {
  if (set.has(flag)) return;
  set.add(flag);
  if (userSetFlag(flag)) return;
  try {
    setFlagsFromString(`--${flag}=${value}`);
  } catch {
    // A runtime that refuses the flag: V8 decides as it does by default.
  }
}

export function lowerInliningBudget(): void {
  setOnce('max-inlined-bytecode-size-cumulative', TYPESCRIPT_INLINING_BUDGET);
}

export function tightenHeapGrowth(): void {
  setOnce('heap-growing-percent', CHECKER_HEAP_GROWING_PERCENT);
}
