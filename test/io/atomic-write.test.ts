/**
 * Every file lindwyrm replaces goes through one atomic write: a temp file beside the target, fsync,
 * rename. A process killed between the two leaves its temp file behind; the next write into the
 * same folder removes such leftovers once they are clearly abandoned, and nothing else.
 */
import { spawnSync } from 'node:child_process';
import { chmod, mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DEAD_WRITER_GRACE_MS, STALE_TEMP_MS, isTempName, parseTempName, removeStaleTemps, tempNameFor, writeFileAtomic } from '../../src/io/atomic-write.js';

let dir: string | undefined;
afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
  dir = undefined;
});

/** The pid of a process that has exited: its temp files have no writer any more. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(child.stdout);
}

describe('writeFileAtomic', () => {
  it('replaces the file whole and clears temp files abandoned by a killed process', async () => {
    dir = await mkdtemp(join(tmpdir(), 'lw-atomic-'));
    const target = join(dir, 'index-abc.bin');
    const old = Date.now() - STALE_TEMP_MS - 60_000;
    const abandoned = tempNameFor(target, 4242, old);
    const inFlight = tempNameFor(target, 4343, Date.now());
    const otherCache = tempNameFor(join(dir, 'graph-abc.json'), 4242, old);
    for (const name of [abandoned, inFlight, otherCache]) await writeFile(join(dir, name), 'partial');

    await writeFileAtomic(target, 'complete');

    expect(await readFile(target, 'utf8')).toBe('complete');
    const left = await readdir(dir);
    expect(left).not.toContain(abandoned);
    // A write that may still be running elsewhere, and another file's leftovers, are not touched.
    expect(left).toContain(inFlight);
    expect(left).toContain(otherCache);
  });

  it('leaves no temp file behind when the write fails', async () => {
    dir = await mkdtemp(join(tmpdir(), 'lw-atomic-'));
    // The target is a directory: the rename fails after the temp file was written.
    const target = join(dir, 'taken');
    await writeFile(join(dir, 'placeholder'), '');
    await mkdir(join(target, 'inside'), { recursive: true });
    await expect(writeFileAtomic(target, 'data')).rejects.toThrow();
    expect((await readdir(dir)).filter((n) => n.endsWith('.tmp'))).toEqual([]);
  });

  it('names its temp files recognisably, hidden, with the writer and the time', () => {
    const name = tempNameFor('/x/notes.md', 77, 1234);
    expect(name).toMatch(/^\.notes\.md\.lwyrm-77-1234-[0-9a-f]{8}\.tmp$/);
    expect(parseTempName(name)).toEqual({ target: 'notes.md', pid: 77, time: 1234 });
    expect(isTempName('.notes.md.swp')).toBe(false);
  });

  it('removes a dead writer’s temp file after a short grace, a live writer’s only when very old', async () => {
    dir = await mkdtemp(join(tmpdir(), 'lw-atomic-'));
    const now = Date.now();
    const dead = tempNameFor('a.json', deadPid(), now - DEAD_WRITER_GRACE_MS - 1000);
    const deadJustNow = tempNameFor('a.json', deadPid(), now);
    // pid 1 is always running: only age can make its temp file abandoned.
    const liveRecent = tempNameFor('a.json', 1, now - DEAD_WRITER_GRACE_MS - 1000);
    const notOurs = '.a.json.tmp';
    for (const name of [dead, deadJustNow, liveRecent, notOurs]) await writeFile(join(dir, name), 'x');
    expect(await removeStaleTemps(dir, { now })).toBe(1);
    expect((await readdir(dir)).sort()).toEqual([deadJustNow, liveRecent, notOurs].sort());
  });

  it('writes private files by default, and keeps the mode of a user’s file it replaces', async () => {
    dir = await mkdtemp(join(tmpdir(), 'lw-atomic-'));
    const cache = join(dir, 'cache.json');
    await writeFileAtomic(cache, '{}');
    expect((await stat(cache)).mode & 0o777).toBe(0o600);
    const script = join(dir, 'run.sh');
    await writeFile(script, 'echo old\n');
    await chmod(script, 0o755);
    await writeFileAtomic(script, 'echo new\n', { mode: 'keep' });
    expect((await stat(script)).mode & 0o777).toBe(0o755);
    expect(await readFile(script, 'utf8')).toBe('echo new\n');
  });
});

describe('syncWritten', () => {
  it('syncs files written without a sync (one gone since is no error), and fails on an unreadable one', async () => {
    const { syncWritten } = await import('../../src/io/atomic-write.js');
    dir = await mkdtemp(join(tmpdir(), 'lw-atomic-'));
    const a = join(dir, 'off_0001.txt');
    await writeFileAtomic(a, 'snapshot', { durable: false });
    await expect(syncWritten([a, join(dir, 'off_0002.txt')])).resolves.toBeUndefined();
    await expect(syncWritten([join(dir, 'no-such-dir', 'x')])).resolves.toBeUndefined();
    expect(await readFile(a, 'utf8')).toBe('snapshot');
  });
});
