/**
 * The one way lindwyrm replaces a file: a kill or a power cut at any instant leaves either the old
 * file or the new one, never half of either. Sessions, the file tools, the offload store and the
 * code-map cache all write through here.
 *
 * A temp file beside the target (same folder, so the rename cannot cross file systems), named so
 * it is recognisably ours and says who wrote it and when: `.<name>.lwyrm-<pid>-<ms>-<rand>.tmp`.
 * It is fsynced, renamed over the target, and the folder is fsynced so the rename itself survives
 * a power cut. A failure removes the temp file and leaves the target untouched. Temp files a
 * killed process left behind are removed by the next write into the same folder, and — wherever
 * they are — by the next lindwyrm's start or tool call (temp-journal.ts lists each one first).
 */
import { randomBytes } from 'node:crypto';
import { chmod, lstat, open, readdir, rename, rm, stat, type FileHandle } from 'node:fs/promises';
import { slices } from './json-pieces.js';
import { basename, dirname, join } from 'node:path';
import { ignoreError } from '../diagnostics/ignore-error.js';
import { faultHere, faultKill, faultPoint } from '../diagnostics/fault-point.js';
import { noteTempFile } from './temp-journal.js';
import { fsPath } from './byte-names.js';

/** Private by default: sessions, offloads and caches hold what the agent read. */
export const FILE_MODE = 0o600;

/** No write takes this long: a temp file older than this was left by a process that was killed. */
export const STALE_TEMP_MS = 10 * 60_000;

/** A temp file of a process that is gone is removed sooner, once any write of it is surely over. */
export const DEAD_WRITER_GRACE_MS = 60_000;

const TEMP_PATTERN = /^\.(.+)\.lwyrm-(\d+)-(\d+)-[0-9a-f]+\.tmp$/;

export interface AtomicWriteOptions {
  /**
   * The new file's mode. 'keep' keeps the mode of the file it replaces (a new file gets 0o666 less
   * the umask, as any program's would): the file tools write the user's files. Default FILE_MODE.
   */
  readonly mode?: number | 'keep';
  /**
   * fsync the file and the folder (default true): the write then survives a power cut, not just a
   * kill. Caches that are checked when read and rebuilt when bad may skip it (the code map's). A
   * file a saved record will point at may skip it only to be synced with `syncWritten` before that
   * record is written (the offload store's snapshots, in one batch at each save): after a power cut
   * a record must never point at an empty file.
   */
  readonly durable?: boolean;
  /**
   * After writing, remove this target's temp files that killed writers left (default true). A
   * writer whose every file has a name of its own (offload snapshots) sweeps its folder once instead.
   */
  readonly sweep?: boolean;
  /** Called with a line for the verbose log when leftovers could not be cleaned (never fatal). */
  readonly log?: (line: string) => void;
}

/** The temp file's name (not path) for `target`, carrying the writer's pid and the time. */
export function tempNameFor(target: string, pid: number = process.pid, now: number = Date.now()): string {
  return `.${basename(target)}.lwyrm-${pid}-${now}-${randomBytes(4).toString('hex')}.tmp`;
}

/** Who left a temp file, and when; undefined for any name tempNameFor does not make. */
export function parseTempName(name: string): { readonly target: string; readonly pid: number; readonly time: number } | undefined {
  const m = TEMP_PATTERN.exec(name);
  return m ? { target: m[1]!, pid: Number(m[2]), time: Number(m[3]) } : undefined;
}

export function isTempName(name: string): boolean {
  return parseTempName(name) !== undefined;
}

function isAlive(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Abandoned: old enough that no write can still be going on, or its writer is gone. */
export function isStaleTemp(name: string, now: number = Date.now()): boolean {
  const temp = parseTempName(name);
  if (temp === undefined || temp.pid === process.pid) return false;
  const age = now - temp.time;
  return age > STALE_TEMP_MS || (age > DEAD_WRITER_GRACE_MS && !isAlive(temp.pid));
}

/**
 * Removes abandoned temp files in `dir` (of `target` only, when given). Returns how many went.
 * Only names tempNameFor makes are touched, and never through a symlink.
 */
export async function removeStaleTemps(dir: string, opts: { target?: string; now?: number } = {}): Promise<number> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return 0; // no folder: nothing was left in it
  }
  let removed = 0;
  for (const name of names) {
    if (opts.target !== undefined && parseTempName(name)?.target !== opts.target) continue;
    if (!isStaleTemp(name, opts.now)) continue;
    const path = join(dir, name);
    const info = await lstat(path).catch(ignoreError(`stat ${path}`));
    if (!info?.isFile()) continue;
    await rm(path, { force: true });
    removed++;
  }
  return removed;
}

async function modeFor(target: string, mode: number | 'keep'): Promise<number | undefined> {
  if (mode !== 'keep') return mode;
  try {
    return (await stat(fsPath(target))).mode & 0o7777;
  } catch {
    return undefined; // a new file: the umask decides, as for any program
  }
}

/** Writes `data` to `target` atomically and durably (see the file comment). */
export async function writeFileAtomic(target: string, data: string | Uint8Array, opts: AtomicWriteOptions = {}): Promise<void> {
  const dir = dirname(target);
  const mode = await modeFor(target, opts.mode ?? FILE_MODE);
  const temp = join(dir, tempNameFor(target));
  // Listed before it exists: a kill at any later instant leaves a temp file the next start finds.
  noteTempFile(temp);
  try {
    await writeWhole(temp, data, mode ?? 0o666, opts.durable !== false, basename(target));
    // Exactly the mode asked for: the umask applied at creation may have narrowed it.
    if (mode !== undefined) await chmod(fsPath(temp), mode);
    faultPoint('atomic.before-rename', basename(target));
    await rename(fsPath(temp), fsPath(target));
  } catch (error) {
    await rm(fsPath(temp), { force: true });
    throw error;
  }
  if (opts.durable !== false) await fsyncDir(dir);
  // Leftovers are housekeeping: a folder we cannot list must not fail a write that succeeded.
  if (opts.sweep !== false) await removeStaleTemps(dir, { target: basename(target) }).catch(ignoreError(`clean temp files in ${dir}`, opts.log));
}

/** A new file ('wx' refuses to follow a planted link or reuse a name), synced when asked. */
async function writeWhole(path: string, data: string | Uint8Array, mode: number, sync: boolean, subject: string): Promise<void> {
  const handle = await open(fsPath(path), 'wx', mode);
  try {
    if (faultHere('atomic.mid-write', subject)) {
      const bytes = typeof data === 'string' ? Buffer.from(data) : data;
      await handle.write(bytes.subarray(0, bytes.length >> 1));
      faultKill();
    }
    await writeData(handle, data);
    if (sync) await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Past this length a string is encoded and written a slice at a time. */
const SLICE_CHARS = 1024 * 1024;

/**
 * The data's bytes, a long string's in slices (each whole surrogate pairs, so the bytes are the
 * same): writeFile of a string first makes one buffer of it all, a file of 50 MB 50 MB more.
 */
async function writeData(handle: FileHandle, data: string | Uint8Array): Promise<void> {
  if (typeof data !== 'string' || data.length <= SLICE_CHARS) {
    await handle.writeFile(data);
    return;
  }
  for (const slice of slices(data, SLICE_CHARS)) {
    const bytes = Buffer.from(slice, 'utf8');
    for (let written = 0; written < bytes.length; ) written += (await handle.write(bytes, written, bytes.length - written)).bytesWritten;
  }
}

/**
 * Writes a whole file and fsyncs it before returning ('wx' refuses to follow a planted link).
 * `sync: false` leaves the fsync to a later durable write of the same file or folder.
 */
export async function writeDurably(path: string, data: string | Uint8Array, flags: 'wx' | 'w', mode: number = FILE_MODE, sync = true): Promise<void> {
  const handle = await open(path, flags, mode);
  try {
    await handle.writeFile(data);
    if (sync) await handle.sync();
  } finally {
    await handle.close();
  }
}

/**
 * Makes files written with `durable: false` durable now: each is fsynced, then each folder once,
 * so the renames that put them in place survive a power cut too. Call it before writing a record
 * that points at them.
 */
export async function syncWritten(paths: readonly string[]): Promise<void> {
  const dirs = new Set<string>();
  for (const path of paths) {
    const handle = await open(fsPath(path), 'r').catch((error: NodeJS.ErrnoException) => {
      // Removed since (the session was cleared): nothing of it to keep.
      if (error.code === 'ENOENT') return undefined;
      throw error;
    });
    if (handle === undefined) continue;
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
    dirs.add(dirname(path));
  }
  for (const dir of dirs) await fsyncDir(dir);
}

/** Makes a rename or a new directory entry survive a power cut, not just a process kill. */
export async function fsyncDir(dir: string): Promise<void> {
  let handle;
  try {
    handle = await open(fsPath(dir), 'r');
    await handle.sync();
  } catch {
    // Some file systems refuse fsync on a directory; the rename itself is still atomic.
  } finally {
    await handle?.close();
  }
}
