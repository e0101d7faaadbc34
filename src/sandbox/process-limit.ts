/**
 * The process-count limit of one sandboxed command, so a fork bomb stops at a ceiling instead of
 * filling the machine. For a normal user it is RLIMIT_NPROC, set by a shell inside the sandbox:
 * there (kernel 5.14+) the count is of that user namespace's processes only. Set outside, before
 * bwrap, it would also become the namespace's ceiling for all of the user's processes, and a
 * desktop's threads alone pass a thousand. Root is exempt from RLIMIT_NPROC, so there a pids
 * cgroup of its own holds the command, where the cgroup file system lets root create one.
 */
import { mkdir, readFile, readdir, rmdir, writeFile } from 'node:fs/promises';
import { release } from 'node:os';
import path from 'node:path';
import { removeAtExit, sweepDeadOwners } from './exit-cleanup.js';
import type { ProcessLimitMethod } from './types.js';
import { absent, ignoreError, noEntries } from '../diagnostics/ignore-error.js';

/** Processes and threads (both count) one command may have at once. */
export const SANDBOX_PROCESS_LIMIT = 1024;

export interface ProcessLimit {
  readonly method: ProcessLimitMethod;
  readonly note?: string;
  /** Shell text for before `exec bwrap …` and for inside the sandbox, and what to undo after. */
  prepare(): Promise<PreparedLimit>;
  /** Waits for what is still being undone (the session's end). */
  settle?(): Promise<void>;
}

export interface PreparedLimit {
  /** Run on the host, by the shell that then becomes the sandbox program. */
  readonly prelude: string;
  /** Run inside the sandbox, by a shell that then becomes the command. */
  readonly innerPrelude: string;
  cleanup(): Promise<void>;
}

const NOTHING: PreparedLimit = { prelude: '', innerPrelude: '', cleanup: async () => undefined };

const quote = (s: string): string => `'${s.replaceAll("'", "'\\''")}'`;

/** bash spells it -u, dash -p; either way a failure must not stop the command. */
function rlimitPrelude(limit: number): string {
  return `ulimit -u ${limit} 2>/dev/null || ulimit -p ${limit} 2>/dev/null || :; `;
}

function kernelAtLeast(major: number, minor: number): boolean {
  const [a = 0, b = 0] = release().split(/[.-]/).map(Number);
  return a > major || (a === major && b >= minor);
}

/** Before 5.14 the limit counts every process of the user: leave room for the ones running. */
async function ownProcessCount(uid: number): Promise<number> {
  let count = 0;
  for (const entry of await readdir('/proc').catch(noEntries)) {
    if (!/^\d+$/.test(entry)) continue;
    const status = (await readFile(`/proc/${entry}/status`, 'utf8').catch(absent)) ?? '';
    const threads = Number(/^Threads:\s+(\d+)/m.exec(status)?.[1] ?? 1);
    if (new RegExp(`^Uid:\\s+${uid}\\s`, 'm').test(status)) count += threads;
  }
  return count;
}

interface CgroupBase {
  readonly dir: string;
  readonly version: 1 | 2;
}

/** Where root can make pids cgroups: the v1 pids hierarchy, or the v2 root with pids enabled. */
async function findCgroupBase(): Promise<CgroupBase | undefined> {
  const own = (await readFile('/proc/self/cgroup', 'utf8').catch(absent)) ?? '';
  const v1 = /^\d+:(?:[^:]*,)?pids(?:,[^:]*)?:(.*)$/m.exec(own)?.[1];
  if (v1 !== undefined) {
    const dir = path.join('/sys/fs/cgroup/pids', v1);
    if (await readFile(path.join(dir, 'cgroup.procs'), 'utf8').then(() => true, () => false)) return { dir, version: 1 };
  }
  const controllers = (await readFile('/sys/fs/cgroup/cgroup.controllers', 'utf8').catch(absent)) ?? '';
  if (!/\bpids\b/.test(controllers)) return undefined;
  const enabled = (await readFile('/sys/fs/cgroup/cgroup.subtree_control', 'utf8').catch(absent)) ?? '';
  if (!/\bpids\b/.test(enabled)) {
    const ok = await writeFile('/sys/fs/cgroup/cgroup.subtree_control', '+pids').then(() => true, () => false);
    if (!ok) return undefined;
  }
  return { dir: '/sys/fs/cgroup', version: 2 };
}

let serial = 0;

async function makeCgroup(base: CgroupBase, limit: number): Promise<string> {
  const dir = path.join(base.dir, `lindwyrm-${process.pid}-${++serial}`);
  await mkdir(dir);
  try {
    await writeFile(path.join(dir, 'pids.max'), String(limit));
  } catch (error) {
    await rmdir(dir).catch(ignoreError('remove a cgroup that could not be set up'));
    throw error;
  }
  return dir;
}

/** A cgroup can only go once it is empty; its last processes may still be exiting. */
async function removeCgroup(dir: string): Promise<void> {
  for (let attempt = 0; attempt < 50; attempt++) {
    try {
      await rmdir(dir);
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
      await new Promise((r) => setTimeout(r, 20));
    }
  }
}

export async function chooseProcessLimit(opts: { limit?: number; uid?: number; platform?: NodeJS.Platform } = {}): Promise<ProcessLimit> {
  const limit = opts.limit ?? SANDBOX_PROCESS_LIMIT;
  const uid = opts.uid ?? process.getuid?.() ?? -1;
  const platform = opts.platform ?? process.platform;
  if (platform === 'darwin') {
    // No user namespaces: the limit counts all of the user's processes, so it sits above them.
    return {
      method: 'rlimit',
      note: 'counted with all your processes (macOS has no per-sandbox count)',
      prepare: async () => ({ ...NOTHING, prelude: rlimitPrelude(limit + 2048) }),
    };
  }
  if (uid !== 0) {
    const perNamespace = kernelAtLeast(5, 14);
    const ceiling = perNamespace ? limit : limit + (await ownProcessCount(uid));
    return {
      method: 'rlimit',
      ...(perNamespace ? {} : { note: 'counted with all your processes (kernel before 5.14)' }),
      prepare: async () => ({ ...NOTHING, innerPrelude: rlimitPrelude(ceiling) }),
    };
  }
  const base = await findCgroupBase();
  if (base) void sweepDeadOwners(base.dir, 'lindwyrm-', 'cgroup');
  const trial = base && (await makeCgroup(base, limit).then((dir) => removeCgroup(dir).then(() => true), () => false));
  if (!base || !trial) {
    return {
      method: 'none',
      note: 'running as root, which RLIMIT_NPROC does not bind, and no pids cgroup can be created here',
      prepare: async () => NOTHING,
    };
  }
  // Removals still running; whatever is left when the process exits goes then (exit-cleanup.ts).
  const removing = new Map<string, Promise<void>>();
  return {
    method: 'cgroup',
    note: `a pids cgroup (v${base.version}) per command, because root is not bound by RLIMIT_NPROC`,
    prepare: async () => {
      const dir = await makeCgroup(base, limit);
      const forget = removeAtExit(dir, 'cgroup');
      // Removed in the background: the command's result need not wait for its last exits.
      const cleanup = (): Promise<void> => {
        removing.set(
          dir,
          removeCgroup(dir).finally(() => {
            removing.delete(dir);
            forget();
          }),
        );
        return Promise.resolve();
      };
      return { prelude: `echo $$ > ${quote(path.join(dir, 'cgroup.procs'))} || exit 126; `, innerPrelude: '', cleanup };
    },
    settle: async () => {
      await Promise.all([...removing.values()]);
    },
  };
}
