/**
 * Puts paths into given states, each one atomically: a file or link is built under a temp name
 * beside the target and renamed over it, so a kill at any instant leaves every path either as it
 * was or as restored, never half written. Removals go deepest first, creations shallowest first,
 * and folder modes last (a folder restored read-only must still take its files first).
 *
 * Each operation is idempotent: applying it to a path already in its target state does nothing,
 * which is what lets an interrupted restore be finished from its journal.
 */
import { randomBytes } from 'node:crypto';
import { chmod, lstat, mkdir, open, readdir, readlink, rename, rm, rmdir, symlink, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { BlobStore } from './blob-store.js';
import { hashOf } from './blob-store.js';
import { mapPool, stampOf } from './baseline.js';
import type { PathState } from './types.js';
import { sameState } from './types.js';
import { absent, ignoreError, noEntries } from '../diagnostics/ignore-error.js';

export interface RestoreOp {
  readonly path: string;
  /** The state the plan saw (what an interrupted restore may still find). */
  readonly from: PathState;
  readonly to: PathState;
}

export interface OpResult {
  readonly op: RestoreOp;
  readonly outcome: 'done' | 'already' | 'kept' | 'failed';
  /** For kept and failed: why, in words. */
  readonly detail?: string;
}

/** Absolute path of a recorded path (project-relative, or absolute already). */
export function absoluteOf(root: string, path: string): string {
  return path.startsWith('/') ? path : join(root, path);
}

function depth(path: string): number {
  return path.split('/').length;
}

/** The state of a path on disk, compared by content hash (reads the file; for restores only). */
export async function diskState(abs: string): Promise<PathState> {
  let info;
  try {
    info = await lstat(abs);
  } catch {
    return null;
  }
  const mode = info.mode & 0o7777;
  if (info.isDirectory()) return { kind: 'dir', mode };
  if (info.isSymbolicLink()) return { kind: 'link', target: await readlink(abs) };
  if (!info.isFile()) return null;
  const handle = await open(abs, 'r');
  try {
    const data = await handle.readFile();
    return { kind: 'file', hash: hashOf(data), mode, size: data.length };
  } finally {
    await handle.close();
  }
}

function tempBeside(abs: string): string {
  return join(dirname(abs), `.${basename(abs)}.lwyrm-rewind-${process.pid}-${randomBytes(4).toString('hex')}.tmp`);
}

/** Removes the temp files a killed restore (process `pid`) left beside the paths it was restoring. */
export async function removeLeftovers(root: string, ops: readonly RestoreOp[], pid: number): Promise<number> {
  let removed = 0;
  const byDir = new Map<string, Set<string>>();
  for (const op of ops) {
    const abs = absoluteOf(root, op.path);
    const names = byDir.get(dirname(abs)) ?? new Set<string>();
    names.add(basename(abs));
    byDir.set(dirname(abs), names);
  }
  for (const [dir, names] of byDir) {
    const entries = await readdir(dir).catch(noEntries);
    for (const entry of entries) {
      const m = /^\.(.+)\.lwyrm-rewind-(\d+)-[0-9a-f]{8}\.tmp$/.exec(entry);
      if (!m || Number(m[2]) !== pid || !names.has(m[1] ?? '')) continue;
      await rm(join(dir, entry), { force: true });
      removed++;
    }
  }
  return removed;
}

async function writeFileDurably(path: string, data: Uint8Array, mode: number): Promise<void> {
  const handle = await open(path, 'wx', 0o600);
  try {
    await handle.writeFile(data);
    await handle.chmod(mode);
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Makes room for a file or link where a folder is: only an empty one (its children went first). */
async function clearFolder(abs: string, now: PathState): Promise<void> {
  if (now?.kind === 'dir') await rmdir(abs);
}

/** Whether the disk still holds `state` (an unkept file compares by its stamp: its contents were never read). */
function holds(now: PathState, state: PathState, info: { size: number; mtimeMs: number; ino: number } | undefined): boolean {
  if (state?.kind === 'unkept') return info !== undefined && now?.kind === 'file' && stampOf(info) === state.stamp && now.mode === state.mode;
  return sameState(now, state);
}

type Checked = { readonly abs: string; readonly now: PathState } | OpResult;

/** Where a path stands before its op: already restored, changed again since the plan (kept), or to do. */
async function check(root: string, op: RestoreOp): Promise<Checked> {
  const abs = absoluteOf(root, op.path);
  const now = await diskState(abs);
  if (sameState(now, op.to)) return { op, outcome: 'already' };
  // Changed again since the plan looked (an edit while the preview was open): not ours to overwrite.
  if (!holds(now, op.from, await lstat(abs).catch(absent))) {
    return { op, outcome: 'kept', detail: 'it changed again after the restore was planned' };
  }
  return { abs, now };
}

async function removeOne(op: RestoreOp, abs: string, now: PathState): Promise<OpResult> {
  if (now === null) return { op, outcome: 'already' };
  if (now.kind !== 'dir') {
    await unlink(abs);
    return { op, outcome: 'done' };
  }
  try {
    await rmdir(abs);
  } catch {
    return { op, outcome: 'kept', detail: 'the folder still holds files lindwyrm does not track' };
  }
  return { op, outcome: 'done' };
}

async function makeFolder(op: RestoreOp, abs: string, now: PathState, mode: number, deferredModes: Map<string, number>): Promise<OpResult> {
  await mkdir(dirname(abs), { recursive: true });
  if (now !== null && now.kind !== 'dir') await unlink(abs);
  if (now?.kind !== 'dir') await mkdir(abs, { mode: 0o700 });
  // Set at the end: a folder going back to read-only still has to take its files first.
  deferredModes.set(abs, mode);
  return { op, outcome: 'done' };
}

/** A file or link built in full under a temp name beside its target, ready to be renamed over it. */
async function stage(op: RestoreOp, abs: string, blobs: BlobStore): Promise<string> {
  const to = op.to;
  await mkdir(dirname(abs), { recursive: true });
  const temp = tempBeside(abs);
  try {
    if (to?.kind === 'file') await writeFileDurably(temp, await blobs.get(to.hash), to.mode);
    else if (to?.kind === 'link') await symlink(to.target, temp);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
  return temp;
}

async function commit(op: RestoreOp, abs: string, now: PathState, temp: string): Promise<OpResult> {
  try {
    await clearFolder(abs, now);
    await rename(temp, abs);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
  return { op, outcome: 'done' };
}

/** How many paths are read, staged or renamed at once: syncs overlap on the device. */
const POOL = 16;

const failed = (op: RestoreOp, error: unknown): OpResult => ({ op, outcome: 'failed', detail: (error as Error).message });

async function fsyncDir(dir: string): Promise<void> {
  try {
    const handle = await open(dir, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch {
    // Some file systems refuse fsync on a folder; the renames are still atomic.
  }
}

/**
 * Applies every op in a safe order; a failure of one is reported and the rest still run. Files and
 * links are staged (written and synced under temp names) many at a time, which is where a restore
 * spends its time, then renamed into place one by one: a kill during staging changes nothing but
 * leaves temp files (removeLeftovers), a kill during the renames leaves each path old or new.
 */
export async function applyOps(root: string, ops: readonly RestoreOp[], blobs: BlobStore): Promise<OpResult[]> {
  const byDepth = (deepestFirst: boolean) => (a: RestoreOp, b: RestoreOp) => (deepestFirst ? depth(b.path) - depth(a.path) : depth(a.path) - depth(b.path));
  const removals = ops.filter((o) => o.to === null).sort(byDepth(true));
  const folders = ops.filter((o) => o.to?.kind === 'dir').sort(byDepth(false));
  const files = ops.filter((o) => o.to !== null && o.to.kind !== 'dir').sort(byDepth(false));
  const results: OpResult[] = [];
  const deferredModes = new Map<string, number>();
  // A folder going back to another mode may be read-only now (a chmod the turn made): open it for
  // the files it must lose or take first; its own mode is set at the end.
  for (const op of folders) {
    const abs = absoluteOf(root, op.path);
    const info = await lstat(abs).catch(absent);
    if (info?.isDirectory() && (info.mode & 0o700) !== 0o700) await chmod(abs, (info.mode & 0o7777) | 0o700).catch(ignoreError(`open ${abs} for the restore`));
    if (info?.isDirectory() && op.to?.kind === 'dir') deferredModes.set(abs, op.to.mode);
  }
  // Files and links go first, many at a time; then folders, deepest first, once they are empty.
  const remove = async (op: RestoreOp): Promise<OpResult> => {
    const checked = await check(root, op).catch((error: unknown) => failed(op, error));
    return 'outcome' in checked ? checked : removeOne(op, checked.abs, checked.now).catch((error: unknown) => failed(op, error));
  };
  const isFolder = (op: RestoreOp): boolean => op.from?.kind === 'dir';
  results.push(...(await mapPool(removals.filter((o) => !isFolder(o)), POOL, remove)));
  for (const op of removals.filter(isFolder)) results.push(await remove(op));
  for (const op of folders) {
    const checked = await check(root, op).catch((error: unknown) => failed(op, error));
    const mode = op.to?.kind === 'dir' ? op.to.mode : 0o755;
    results.push('outcome' in checked ? checked : await makeFolder(op, checked.abs, checked.now, mode, deferredModes).catch((error: unknown) => failed(op, error)));
  }
  const staged = await mapPool(files, POOL, async (op) => {
    if (op.to?.kind === 'unkept') return { op, outcome: 'failed', detail: 'its contents were not kept' } as OpResult;
    const checked = await check(root, op).catch((error: unknown) => failed(op, error));
    if ('outcome' in checked) return checked;
    return stage(op, checked.abs, blobs).then(
      (temp) => ({ ...checked, temp }),
      (error: unknown) => failed(op, error),
    );
  });
  // Each rename is atomic on its own: they need no order among themselves (folders are in place).
  results.push(
    ...(await mapPool(files.map((op, i) => [op, staged[i]] as const), POOL, async ([op, s]) => {
      if (s === undefined || 'outcome' in s) return s ?? failed(op, new Error('not staged'));
      return commit(op, s.abs, s.now, s.temp).catch((error: unknown) => failed(op, error));
    })),
  );
  const deepestFirst = [...deferredModes].sort((a, b) => depth(b[0]) - depth(a[0]));
  for (const [abs, mode] of deepestFirst) await chmod(abs, mode).catch(ignoreError(`restore the mode of ${abs}`));
  const touched = new Set(ops.map((op) => dirname(absoluteOf(root, op.path))));
  await mapPool([...touched], POOL, fsyncDir);
  return results;
}
