/**
 * The process limit's own bookkeeping, on the real machine: the ceiling RLIMIT_NPROC gets counts
 * what the user already runs, and cgroups a killed lindwyrm left behind are swept (as root).
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, rmdir } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { COMMAND_PROCESS_LIMIT, pidsCgroupBase, prepareCommandLimit } from '../../src/tools/process-limit.js';

const linux = process.platform === 'linux';
const root = process.getuid?.() === 0;
const base = linux && root ? await pidsCgroupBase() : undefined;

describe.skipIf(!linux)('process limit', () => {
  it('RLIMIT_NPROC is set above the threads the user already runs', async () => {
    // Root may pose as nobody; anyone else counts themselves.
    const uid = root ? 65534 : (process.getuid?.() ?? 0);
    const sleepers = spawn('sh', ['-c', 'sleep 30 & sleep 30 & sleep 30 & wait'], { stdio: 'ignore', ...(root ? { uid, gid: uid } : {}) });
    try {
      await new Promise((r) => setTimeout(r, 300));
      const limit = await prepareCommandLimit({ uid, platform: 'linux' });
      expect(limit.method).toBe('rlimit');
      const ceiling = Number(/^ulimit -u (\d+)/.exec(limit.prelude)?.[1]);
      // The shell and its three sleeps at least, on top of the command's own allowance.
      expect(ceiling).toBeGreaterThanOrEqual(COMMAND_PROCESS_LIMIT + 4);
      await limit.release();
    } finally {
      spawnSync('pkill', ['-KILL', '-P', String(sleepers.pid)]);
      sleepers.kill('SIGKILL');
    }
  });

  it.skipIf(base === undefined)("the first command removes the empty cgroups of lindwyrms that are gone, and no one else's", async () => {
    const dir = base ?? '';
    const gone = spawnSync('true').pid;
    const stale = path.join(dir, `lindwyrm-${gone}-cmd3`);
    const live = path.join(dir, `lindwyrm-${process.pid}-cmd999999`);
    const other = path.join(dir, `not-lindwyrm-${gone}`);
    for (const d of [stale, live, other]) await mkdir(d);
    try {
      const limit = await prepareCommandLimit();
      expect(limit.method).toBe('cgroup');
      expect(existsSync(stale)).toBe(false);
      expect(existsSync(live)).toBe(true);
      expect(existsSync(other)).toBe(true);
      const own = /lindwyrm-\d+-cmd\d+/.exec(limit.prelude)?.[0] ?? '';
      expect(existsSync(path.join(dir, own))).toBe(true);
      await limit.release();
      // Its own cgroup goes once the command is done.
      expect(existsSync(path.join(dir, own))).toBe(false);
    } finally {
      for (const d of [stale, live, other]) await rmdir(d).catch(() => undefined);
    }
  });
});
