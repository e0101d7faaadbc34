/**
 * Lowers the calling thread's scheduling priority. On Linux the nice value belongs to each thread
 * (setpriority with a thread id), so a parse worker can step back while the main thread, which
 * draws the screen and sends requests, keeps its own. Elsewhere the call would lower the whole
 * process: there it does nothing and says so.
 */
import { readlinkSync } from 'node:fs';
import { getPriority, setPriority } from 'node:os';

/** True where a worker thread's priority can be lowered without the process's. */
export const PER_THREAD_PRIORITY = process.platform === 'linux';

/** This thread's id (Linux), from /proc/thread-self → "<pid>/task/<tid>". */
function threadId(): number | undefined {
  try {
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    return Number.isInteger(tid) && tid > 0 ? tid : undefined;
  } catch {
    return undefined; // no /proc (a sandbox without it): the thread keeps its priority
  }
}

/** Makes this thread's nice value at least `niceness` (at most 19); false when it could not. Never the main thread's. */
export function lowerThreadPriority(niceness: number): boolean {
  if (!PER_THREAD_PRIORITY) return false;
  const tid = threadId();
  if (tid === undefined || tid === process.pid) return false;
  try {
    // Linux reads the pid argument as a thread id and changes that thread only.
    const target = Math.min(19, niceness);
    if (getPriority(tid) < target) setPriority(tid, target);
    return true;
  } catch {
    return false; // not allowed here (a seccomp filter): the thread keeps its priority
  }
}
