/**
 * The offload store: full snapshots of tool results that were replaced in the conversation by a
 * stub, and the archive of turns a summary replaced (arc_0001 …, one file per turn). One folder
 * per session under the data dir, files 0600 in 0700 folders, because a snapshot holds whatever
 * the agent read. Kept while the session is saved; otherwise removed at exit, or swept after a
 * week when a crash skipped the exit.
 */
import { chmod, lstat, mkdir, readFile, readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { removeStaleTemps, syncWritten, writeFileAtomic } from '../io/atomic-write.js';
import type { OffloadStore } from './types.js';
import { absent, noEntries, orderOnly } from '../diagnostics/ignore-error.js';

const REF_PATTERN = /^off_(\d{4,})$/;
const ARCHIVE_PATTERN = /^arc_(\d{4,})$/;
const FILE_SUFFIX = '.txt';
const SESSION_ID_PATTERN = /^[A-Za-z0-9._-]{1,128}$/;

export type DisposableOffloadStore = OffloadStore & {
  /** keep = true when a saved session points at these snapshots; false removes them. */
  dispose(keep: boolean): Promise<void>;
  /** The session's folder (for tests and diagnostics). */
  readonly path: string;
  /**
   * Makes every snapshot written so far durable (fsync, then the folder). The session calls it
   * before it saves a record whose stubs point at them.
   */
  sync(): Promise<void>;
};

export function formatRef(n: number): string {
  return `off_${String(n).padStart(4, '0')}`;
}

export function isOffloadRef(ref: string): boolean {
  return REF_PATTERN.test(ref);
}

export function formatArchiveRef(n: number): string {
  return `arc_${String(n).padStart(4, '0')}`;
}

export function isArchiveRef(ref: string): boolean {
  return ARCHIVE_PATTERN.test(ref);
}

/** Creates a folder 0700, tightening it if it already existed with a looser mode. */
async function ensurePrivateDir(path: string): Promise<void> {
  await mkdir(path, { recursive: true, mode: 0o700 });
  await chmod(path, 0o700);
}

export function createOffloadStore(opts: {
  dir: string;
  sessionId: string;
  /** Applied to archived turns before they reach disk (keys the conversation quoted). */
  redact?: (text: string) => string;
}): DisposableOffloadStore {
  // The session id becomes a folder name: refuse anything that could climb out of `dir`.
  if (!SESSION_ID_PATTERN.test(opts.sessionId) || opts.sessionId === '.' || opts.sessionId === '..') {
    throw new Error(`Invalid session id for the offload store: ${JSON.stringify(opts.sessionId)}`);
  }
  const sessionDir = join(opts.dir, opts.sessionId);
  let next: number | undefined;
  let nextArchive: number | undefined;
  let ready: Promise<void> | undefined;
  // Serializes puts so two results arriving together never get the same ref.
  let queue: Promise<unknown> = Promise.resolve();
  let unsynced: string[] = [];

  async function prepare(): Promise<void> {
    await ensurePrivateDir(opts.dir);
    await ensurePrivateDir(sessionDir);
    // A resumed session continues its numbering, so old stubs keep pointing at their own snapshot.
    let highest = 0;
    let highestArchive = 0;
    for (const name of await readdir(sessionDir)) {
      if (!name.endsWith(FILE_SUFFIX)) continue;
      const base = name.slice(0, -FILE_SUFFIX.length);
      const m = REF_PATTERN.exec(base);
      if (m) highest = Math.max(highest, Number(m[1]));
      const a = ARCHIVE_PATTERN.exec(base);
      if (a) highestArchive = Math.max(highestArchive, Number(a[1]));
    }
    next = highest + 1;
    nextArchive = highestArchive + 1;
    // Each snapshot has a name of its own, so no later write of it would clean a crashed one's temp.
    await removeStaleTemps(sessionDir);
  }

  async function writeSnapshot(content: string, archive = false): Promise<string> {
    ready ??= prepare();
    await ready;
    const ref = archive ? formatArchiveRef(nextArchive!) : formatRef(next!);
    if (archive) nextArchive! += 1;
    else next! += 1;
    // A kept session's folder must not collect half-written snapshots nothing points at (a full
    // disk): the write removes its temp file when it fails. Synced in one batch by `sync`, before
    // the record whose stub names it is saved: after a power cut a stub must never point at an
    // empty snapshot, and a sync per snapshot would stall a turn that offloads many on a busy disk.
    const path = join(sessionDir, ref + FILE_SUFFIX);
    await writeFileAtomic(path, content, { durable: false, sweep: false });
    unsynced.push(path);
    return ref;
  }

  return {
    path: sessionDir,
    put(_tool: string, content: string): Promise<string> {
      const result = queue.then(() => writeSnapshot(content));
      queue = result.catch(orderOnly);
      return result;
    },
    archive(turns: readonly string[]): Promise<string[]> {
      const result = queue.then(async () => {
        const refs: string[] = [];
        for (const text of turns) refs.push(await writeSnapshot(opts.redact ? opts.redact(text) : text, true));
        return refs;
      });
      queue = result.catch(orderOnly);
      return result;
    },
    async archived(): Promise<readonly { ref: string; text: string }[]> {
      await queue;
      const names = await readdir(sessionDir).catch((err: NodeJS.ErrnoException) => {
        if (err.code === 'ENOENT') return [] as string[];
        throw err;
      });
      const refs = names
        .filter((n) => n.endsWith(FILE_SUFFIX) && isArchiveRef(n.slice(0, -FILE_SUFFIX.length)))
        .map((n) => n.slice(0, -FILE_SUFFIX.length))
        .sort((a, b) => Number(a.slice(4)) - Number(b.slice(4)));
      return Promise.all(refs.map(async (ref) => ({ ref, text: await readFile(join(sessionDir, ref + FILE_SUFFIX), 'utf8') })));
    },
    async read(ref: string): Promise<string | undefined> {
      if (!isOffloadRef(ref) && !isArchiveRef(ref)) return undefined;
      try {
        return await readFile(join(sessionDir, ref + FILE_SUFFIX), 'utf8');
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
        throw err;
      }
    },
    async list(): Promise<readonly { ref: string; bytes: number }[]> {
      let names: string[];
      try {
        names = await readdir(sessionDir);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
        throw err;
      }
      const refs = names
        .filter((n) => n.endsWith(FILE_SUFFIX) && isOffloadRef(n.slice(0, -FILE_SUFFIX.length)))
        .map((n) => n.slice(0, -FILE_SUFFIX.length))
        .sort();
      const out: { ref: string; bytes: number }[] = [];
      for (const ref of refs) {
        const s = await stat(join(sessionDir, ref + FILE_SUFFIX));
        out.push({ ref, bytes: s.size });
      }
      return out;
    },
    async sync(): Promise<void> {
      await queue;
      const paths = unsynced;
      unsynced = [];
      try {
        await syncWritten(paths);
      } catch (error) {
        unsynced = [...paths, ...unsynced];
        throw error;
      }
    },
    async dispose(keep: boolean): Promise<void> {
      await queue;
      if (!keep) await rm(sessionDir, { recursive: true, force: true });
    },
  };
}

/**
 * Removes offload folders left behind by sessions nothing saves (--no-save, or a crash before the
 * exit cleanup), once untouched for `maxAgeDays`. The engine calls it at start; `isSaved` asks the
 * session store whether a session still exists. Returns the session ids removed.
 */
export async function sweepOrphanedOffloads(opts: {
  dir: string;
  isSaved: (sessionId: string) => boolean | Promise<boolean>;
  maxAgeDays?: number;
  now?: number;
}): Promise<readonly string[]> {
  const cutoff = (opts.now ?? Date.now()) - (opts.maxAgeDays ?? 7) * 86_400_000;
  let names: string[];
  try {
    names = await readdir(opts.dir);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
  const removed: string[] = [];
  for (const name of names) {
    const path = join(opts.dir, name);
    // lstat: a symlink planted here is not ours to follow, let alone to delete through.
    const s = await lstat(path).catch(absent);
    if (!s?.isDirectory() || !SESSION_ID_PATTERN.test(name)) continue;
    if (newestMtime(s.mtimeMs, await childMtimes(path)) > cutoff) continue;
    if (await opts.isSaved(name)) continue;
    await rm(path, { recursive: true, force: true });
    removed.push(name);
  }
  return removed;
}

async function childMtimes(dir: string): Promise<number[]> {
  const names = await readdir(dir).catch(noEntries);
  const times: number[] = [];
  for (const n of names) {
    const s = await stat(join(dir, n)).catch(absent);
    if (s) times.push(s.mtimeMs);
  }
  return times;
}

function newestMtime(own: number, children: readonly number[]): number {
  return children.reduce((a, b) => Math.max(a, b), own);
}
