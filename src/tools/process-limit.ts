/**
 * A ceiling on the processes one bash command may have at once, so a fork bomb stops at it and
 * is reported instead of filling the machine. What holds it:
 * - as root on Linux, a pids cgroup of its own per command (root is not bound by RLIMIT_NPROC);
 *   the command is stopped the moment the cgroup refuses a fork (pids.events counts them);
 * - as another user on Linux, RLIMIT_NPROC (`ulimit -u`), set above the processes the user
 *   already runs (outside a user namespace it counts all of them); a fork refused for it shows
 *   in the output ("fork: Resource temporarily unavailable") and stops the command;
 * - elsewhere (macOS), or as root where no cgroup can be made, the system's own per-user limit.
 * The shell prelude is prepended to the command line. A sandboxed command has the sandbox's own
 * limit (src/sandbox/process-limit.ts); what it adds there is noticing the hit and stopping it.
 */
import { mkdir, readFile, readdir, rmdir, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { absent, ignoreError, noEntries } from '../diagnostics/ignore-error.js';
import { removeAtExit, sweepDeadOwners } from '../sandbox/exit-cleanup.js';

/** Processes and threads (both count, in the cgroup and for RLIMIT_NPROC) one command may have. */
export const COMMAND_PROCESS_LIMIT = 1024;

export interface CommandLimit {
  /** Shell text for the start of the command line ('' when nothing can be set). */
  readonly prelude: string;
  /** How the limit is held, for the result when it is hit. */
  readonly method: 'cgroup' | 'rlimit' | 'none';
  /** Calls `onHit` once when a fork is refused for the limit. Output is fed through `observe`. */
  watch(onHit: () => void): void;
  observe(text: string): void;
  /** After the command: stop watching, move what is left out of the cgroup and remove it. */
  release(): Promise<void>;
}

const NONE: CommandLimit = { prelude: '', method: 'none', watch: () => undefined, observe: () => undefined, release: async () => undefined };

const quote = (s: string): string => `'${s.replaceAll("'", "'\\''")}'`;

/** bash spells it -u, dash -p; a shell that has neither still runs the command. */
const rlimitPrelude = (n: number): string => `ulimit -u ${n} 2>/dev/null || ulimit -p ${n} 2>/dev/null || :\n`;

/** What bash, dash, coreutils and Python print when fork or clone fails with EAGAIN. */
const FORK_REFUSED = /fork: (retry: )?Resource temporarily unavailable|Cannot fork|can't fork|BlockingIOError: \[Errno 11\]/i;

/**
 * The threads the user runs now (RLIMIT_NPROC counts them all, outside a user namespace). The
 * owner comes from a stat of each /proc entry; only the user's own processes are read. Kept for
 * a few seconds: a busy agent runs commands back to back.
 */
let counted: { uid: number; at: number; threads: number } | undefined;
const COUNT_TTL_MS = 5000;
const SCAN_BATCH = 64;

async function threadsOfUser(uid: number): Promise<number> {
  if (counted?.uid === uid && Date.now() - counted.at < COUNT_TTL_MS) return counted.threads;
  const entries = (await readdir('/proc').catch(noEntries)).filter((e) => /^\d+$/.test(e));
  const threadsOf = async (entry: string): Promise<number> => {
    const info = await stat(`/proc/${entry}`).catch(absent);
    if (info?.uid !== uid) return 0;
    const status = (await readFile(`/proc/${entry}/status`, 'utf8').catch(absent)) ?? '';
    return Number(/^Threads:\s+(\d+)/m.exec(status)?.[1] ?? 1);
  };
  let threads = 0;
  // In batches: thousands of files open at once could meet the descriptor limit, and a file that
  // failed to open would count as no threads, leaving the command less room than it should have.
  for (let i = 0; i < entries.length; i += SCAN_BATCH) {
    for (const n of await Promise.all(entries.slice(i, i + SCAN_BATCH).map(threadsOf))) threads += n;
  }
  counted = { uid, at: Date.now(), threads };
  return threads;
}

/** The folder this process's pids cgroup is in (v1 hierarchy, or v2 with the pids controller). */
export async function pidsCgroupBase(): Promise<string | undefined> {
  const own = (await readFile('/proc/self/cgroup', 'utf8').catch(absent)) ?? '';
  const v1 = /^\d+:(?:[^:\n]*,)?pids(?:,[^:\n]*)?:(.*)$/m.exec(own)?.[1];
  if (v1 !== undefined) {
    // In a container the path /proc names may be the host's; the hierarchy's own root is mounted.
    for (const dir of [path.join('/sys/fs/cgroup/pids', v1), '/sys/fs/cgroup/pids']) {
      if ((await stat(path.join(dir, 'cgroup.procs')).catch(absent)) !== undefined) return dir;
    }
    return undefined;
  }
  const v2 = /^0::(.*)$/m.exec(own)?.[1];
  if (v2 === undefined) return undefined;
  // Our own v2 cgroup if it hands pids to its children, else the root one (which may hold processes).
  for (const dir of [path.join('/sys/fs/cgroup', v2), '/sys/fs/cgroup']) {
    const enabled = (await readFile(path.join(dir, 'cgroup.subtree_control'), 'utf8').catch(absent)) ?? '';
    if (/\bpids\b/.test(enabled)) return dir;
  }
  return undefined;
}

let serial = 0;
const swept = new Set<string>();

async function cgroupLimit(limit: number): Promise<CommandLimit | undefined> {
  const base = await pidsCgroupBase();
  if (base === undefined) return undefined;
  // A lindwyrm killed mid-command (SIGKILL, a crash) left its cgroups behind: empty, so they go.
  if (!swept.has(base)) {
    swept.add(base);
    await sweepDeadOwners(base, 'lindwyrm-', 'cgroup');
  }
  const dir = path.join(base, `lindwyrm-${process.pid}-cmd${++serial}`);
  try {
    await mkdir(dir);
    await writeFile(path.join(dir, 'pids.max'), String(limit));
  } catch {
    await rmdir(dir).catch(ignoreError(`remove ${dir}`));
    return undefined;
  }
  // Should lindwyrm exit mid-command, the cgroup still goes (once its processes have).
  const forget = removeAtExit(dir, 'cgroup');
  let timer: NodeJS.Timeout | undefined;
  const refusals = async (): Promise<number> => Number(/^max\s+(\d+)/m.exec((await readFile(path.join(dir, 'pids.events'), 'utf8').catch(absent)) ?? '')?.[1] ?? 0);
  const members = async (): Promise<number[]> =>
    ((await readFile(path.join(dir, 'cgroup.procs'), 'utf8').catch(absent)) ?? '').split('\n').filter((l) => l !== '').map(Number);
  let killing = false;
  const killMembers = async (): Promise<void> => {
    // cgroup v2 kills every member at once, forks under way included; v1 has only one at a time.
    await writeFile(path.join(dir, 'cgroup.kill'), '1').catch(absent);
    for (const pid of await members()) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    }
  };
  return {
    // Checked above that the cgroup can be made; should joining it fail, the command still runs.
    prelude: `echo $$ 2>/dev/null > ${quote(path.join(dir, 'cgroup.procs'))} || :\n`,
    method: 'cgroup',
    watch(onHit) {
      // pids.events has no change event a Node process can wait on; a read every 100 ms is cheap.
      timer = setInterval(() => {
        void refusals().then(async (n) => {
          if (n === 0 || timer === undefined) return;
          clearInterval(timer);
          timer = undefined;
          killing = true;
          onHit();
          // Members that left the process group (setsid) are still in the cgroup: they go too.
          await killMembers();
        });
      }, 100);
      timer.unref();
    },
    observe: () => undefined,
    async release() {
      if (timer !== undefined) clearInterval(timer);
      timer = undefined;
      if (killing) {
        // A fork bomb that was stopped is gone when the tool answers: on a busy machine a killed
        // process can take a while to exit, and a fork racing the first kill needs a second one.
        for (let attempt = 0; attempt < 250 && (await members()).length > 0; attempt++) {
          await killMembers();
          await new Promise((r) => setTimeout(r, 20));
        }
      }
      // A daemon the command started on purpose (setsid, nohup) lives on, in the parent cgroup.
      for (const pid of await members()) await writeFile(path.join(base, 'cgroup.procs'), String(pid)).catch(ignoreError(`move process ${pid} out of ${dir}`));
      for (let attempt = 0; attempt < 50; attempt++) {
        const gone = await rmdir(dir).then(
          () => true,
          (error: NodeJS.ErrnoException) => error.code === 'ENOENT',
        );
        if (gone) {
          forget();
          return;
        }
        await new Promise((r) => setTimeout(r, 20));
      }
    },
  };
}

function rlimitLimit(ceiling: number): CommandLimit {
  let onHit: (() => void) | undefined;
  return {
    prelude: rlimitPrelude(ceiling),
    method: 'rlimit',
    watch(callback) {
      onHit = callback;
    },
    observe(text) {
      if (onHit === undefined || !FORK_REFUSED.test(text)) return;
      const hit = onHit;
      onHit = undefined;
      hit();
    },
    release: async () => {
      onHit = undefined;
    },
  };
}

/** The limit for one command, prepared just before it runs. */
export async function prepareCommandLimit(opts: { limit?: number; uid?: number; platform?: NodeJS.Platform } = {}): Promise<CommandLimit> {
  const limit = opts.limit ?? COMMAND_PROCESS_LIMIT;
  const platform = opts.platform ?? process.platform;
  const uid = opts.uid ?? process.getuid?.() ?? -1;
  if (platform !== 'linux') return NONE;
  if (uid === 0) return (await cgroupLimit(limit)) ?? NONE;
  return rlimitLimit(limit + (await threadsOfUser(uid)));
}

/** One command's limit, open while it runs. */
export interface OpenLimit {
  /** Shell text for the start of the command line ('' when the limit is held elsewhere). */
  readonly prelude: string;
  /** Aborts on the caller's signal or on the limit being hit: the runner then stops the group. */
  readonly signal: AbortSignal;
  /** Every piece of output, to notice a fork refused. */
  observe(text: string): void;
  /** The command reached the limit and was stopped. */
  hit(): boolean;
  readonly limit: number;
  release(): Promise<void>;
}

/**
 * Opens the limit for one command. `enforce`: set it here (a command run unsandboxed on this
 * machine); otherwise something else holds it (the command sandbox's own, src/sandbox/) and a
 * fork refused still shows in the output, so the command is stopped and reported the same way.
 */
export async function openLimit(callerSignal: AbortSignal, opts: { enforce: boolean }): Promise<OpenLimit> {
  const limit = opts.enforce ? await prepareCommandLimit() : rlimitLimit(COMMAND_PROCESS_LIMIT);
  const stop = new AbortController();
  let hit = false;
  limit.watch(() => {
    hit = true;
    stop.abort();
  });
  return {
    prelude: opts.enforce ? limit.prelude : '',
    signal: AbortSignal.any([callerSignal, stop.signal]),
    observe: (text) => limit.observe(text),
    hit: () => hit,
    limit: COMMAND_PROCESS_LIMIT,
    release: () => limit.release(),
  };
}
