/**
 * What must not outlive the process even when it ends by a signal and never reaches a session's
 * dispose(): the private temp folders and the cgroups of sandboxed commands. One 'exit' listener
 * for all of them (a listener per session would pile up in a long-lived process).
 */
import { rmdirSync, rmSync } from 'node:fs';

const pending = new Map<string, 'tree' | 'cgroup'>();
let listening = false;

function removeAll(): void {
  for (const [target, kind] of pending) {
    try {
      if (kind === 'tree') rmSync(target, { recursive: true, force: true });
      else rmdirSync(target);
    } catch {
      // a cgroup still holding a process, or already gone
    }
  }
}

/** Removes `target` at exit unless forgotten first; returns the forget. */
export function removeAtExit(target: string, kind: 'tree' | 'cgroup'): () => void {
  pending.set(target, kind);
  if (!listening) {
    listening = true;
    process.once('exit', removeAll);
  }
  return () => void pending.delete(target);
}
