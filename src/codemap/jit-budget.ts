/**
 * How much V8's optimizing compiler inlines into one function, lowered once the code map starts
 * running the TypeScript compiler in earnest (a parse pool, a checker).
 *
 * The compiler is ~9 MB of JavaScript, and every thread that runs it (each parse worker, the
 * checker's worker) has V8 optimize its hot functions anew, on V8's background threads: on the
 * 5,000-file cold index those threads took about a third of all CPU, on the same two cores the
 * workers parse on. With V8's default cumulative inlining budget (920 bytes of bytecode per
 * function) the parser's and checker's big functions each pull in dozens of callees and compile
 * for tens of milliseconds; at 150 they compile in a fraction of that, and the code they make runs
 * about as fast. Measured (scripts/bench-codemap.ts, 2 cores): the cold index about 20% less CPU
 * and wall time, the checker's first complete answer on Hono 7.3 → 5.9 s, its answer after an edit
 * 260 → 128 ms. The streaming figures of the session (scripts/bench-stream-tui.ts) did not move.
 *
 * The flag is process-wide (V8 reads it as it compiles each function, in every thread), so it is
 * set once and left: the threads that matter run the compiler for the rest of the session. A user
 * who set the flag themselves (on node's command line or in NODE_OPTIONS) keeps their value.
 */
import { setFlagsFromString } from 'node:v8';

/** Bytecode bytes V8 may inline into one optimized function, all callees together (V8's default: 920). */
export const TYPESCRIPT_INLINING_BUDGET = 150;

const FLAG = 'max-inlined-bytecode-size-cumulative';
let done = false;

/** True when the runtime was started with the flag (then it is theirs to set). */
export function userSetInliningBudget(execArgv: readonly string[] = process.execArgv, nodeOptions = process.env['NODE_OPTIONS'] ?? ''): boolean {
  const mentions = (arg: string): boolean => arg.replace(/_/g, '-').includes(FLAG);
  return execArgv.some(mentions) || nodeOptions.split(/\s+/).some(mentions);
}

/** Lowers the inlining budget for the rest of the process, once; never throws. */
export function lowerInliningBudget(): void {
  if (done) return;
  done = true;
  if (userSetInliningBudget()) return;
  try {
    setFlagsFromString(`--${FLAG}=${TYPESCRIPT_INLINING_BUDGET}`);
  } catch {
    // A runtime that refuses the flag: V8 compiles as it decides; every answer is the same.
  }
}
