/**
 * One writer per session file. The lock is a file created with O_EXCL holding the owner's pid,
 * host and process start time; a lock whose owner is gone is taken over, a live one refuses.
 */
import { readFileSync } from 'node:fs';
import { link, readFile, rm } from 'node:fs/promises';
import { hostname } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { fsyncDir, tempNameFor, writeDurably } from '../io/atomic-write.js';
import { noteTempFile } from '../io/temp-journal.js';
import { SessionLockedError } from './errors.js';

interface LockOwner {
  readonly pid: number;
  readonly host: string;
  /** Kernel start time of the owner (Linux), so a recycled pid is not mistaken for the owner. */
  readonly start: string | null;
}

const SELF: LockOwner = { pid: process.pid, host: hostname(), start: processStart(process.pid) };

/** Takes the lock or throws SessionLockedError. Holding it already (this process) is fine. */
export async function acquireLock(path: string, sessionId: string): Promise<void> {
  // Many rounds: on a busy machine several processes may wait on one takeover (10 ms apart).
  for (let attempt = 0; attempt < 200; attempt++) {
    if (await tryCreate(path)) return;
    const raw = await readRaw(path);
    if (raw === undefined) continue; // released between our two steps: try again
    const owner = parseOwner(raw);
    if (owner && owner.pid === SELF.pid && owner.start === SELF.start) return;
    if (owner && isAlive(owner)) throw new SessionLockedError(sessionId, owner.pid, owner.host);
    await takeOverStale(path, raw);
  }
  throw new SessionLockedError(sessionId, 0, 'unknown (the lock kept changing)');
}

/** Removes the lock only when this process owns it. */
export async function releaseLock(path: string): Promise<void> {
  const owner = parseOwner((await readRaw(path)) ?? '');
  if (owner && owner.pid === SELF.pid && owner.start === SELF.start) await rm(path, { force: true });
}

/** The live owner of a lock other than this process, if any. */
export async function liveOtherOwner(path: string): Promise<LockOwner | undefined> {
  const owner = parseOwner((await readRaw(path)) ?? '');
  if (!owner || (owner.pid === SELF.pid && owner.start === SELF.start)) return undefined;
  return isAlive(owner) ? owner : undefined;
}

/** Writes the owner into a temp file first and links it in, so nobody ever sees a half-written lock. */
async function tryCreate(path: string): Promise<boolean> {
  const tmp = join(dirname(path), tempNameFor(basename(path)));
  noteTempFile(tmp);
  await writeDurably(tmp, JSON.stringify(SELF), 'wx');
  try {
    await link(tmp, path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  } finally {
    await rm(tmp, { force: true });
  }
  await fsyncDir(dirname(path));
  return true;
}

/**
 * Removes a stale lock, one process at a time: only the holder of the takeover mutex (a lock of
 * its own beside it) may delete the session's lock, and only while it still holds the stale
 * owner. A lock someone just created is never moved or removed (moving it aside to check it let a
 * third process create its own meanwhile, and two processes ended up holding the session).
 */
async function takeOverStale(path: string, staleRaw: string): Promise<void> {
  const mutex = `${path}.takeover`;
  if (!(await tryCreate(mutex))) {
    await breakDeadMutex(mutex);
    await new Promise((r) => setTimeout(r, 10));
    return; // the caller retries
  }
  try {
    if ((await readRaw(path)) === staleRaw) await rm(path, { force: true });
  } finally {
    await rm(mutex, { force: true });
  }
}

/** A takeover mutex whose holder died between taking it and letting it go. */
async function breakDeadMutex(mutex: string): Promise<void> {
  const raw = await readRaw(mutex);
  if (raw === undefined) return;
  const owner = parseOwner(raw);
  if (owner && isAlive(owner)) return;
  if ((await readRaw(mutex)) === raw) await rm(mutex, { force: true });
}

async function readRaw(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8');
  } catch {
    return undefined; // no lock file: nobody holds it
  }
}

function parseOwner(raw: string): LockOwner | undefined {
  try {
    const v = JSON.parse(raw) as Partial<LockOwner>;
    if (typeof v.pid !== 'number' || !Number.isInteger(v.pid) || v.pid <= 0) return undefined;
    return { pid: v.pid, host: typeof v.host === 'string' ? v.host : '', start: typeof v.start === 'string' ? v.start : null };
  } catch {
    return undefined; // a half-written or garbled lock has no owner to protect
  }
}

function isAlive(owner: LockOwner): boolean {
  try {
    process.kill(owner.pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  if (owner.start !== null) {
    const now = processStart(owner.pid);
    if (now !== null && now !== owner.start) return false;
  }
  return true;
}

/** Field 22 of /proc/<pid>/stat (start time in clock ticks since boot); null where there is no /proc. */
function processStart(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may contain spaces and parentheses: count fields after the last ')'.
    const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return rest[19] ?? null;
  } catch {
    return null; // not Linux, or the process is gone: no start time to compare
  }
}
