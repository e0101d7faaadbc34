/**
 * What must not outlive the process even when it ends by a signal and never reaches a session's
 * dispose(): the private temp folders and the cgroups of sandboxed commands. One 'exit' listener
 * for all of them (a listener per session would pile up in a long-lived process). SIGKILL leaves
 * them anyway; the next run sweeps those, by the owner's PID in their names.
 */
import { rmdirSync, rmSync } from 'node:fs';
import { readdir, rm, rmdir } from 'node:fs/promises';
import path from 'node:path';
import { ignoreError, noEntries } from '../diagnostics/ignore-error.js';

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

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * What runs ended by SIGKILL left behind: entries of `dir` named `<prefix><pid>-…` whose process
 * is gone. Their sandboxes died with them, so the folders are unused and the cgroups empty.
 */
export async function sweepDeadOwners(dir: string, prefix: string, kind: 'tree' | 'cgroup'): Promise<void> {
  const pattern = new RegExp(`^${prefix.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(\\d+)-`);
  for (const entry of await readdir(dir).catch(noEntries)) {
    const pid = Number(pattern.exec(entry)?.[1]);
    if (!Number.isInteger(pid) || pid <= 0 || pid === process.pid || alive(pid)) continue;
    const target = path.join(dir, entry);
    await (kind === 'tree' ? rm(target, { recursive: true, force: true }) : rmdir(target)).catch(ignoreError(`remove ${target}, left by an ended run`));
  }
}
