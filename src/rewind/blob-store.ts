/**
 * Content-addressed storage for file contents (and conversation messages): each distinct content is
 * kept once, gzipped, under the SHA-256 of its raw bytes. A file that 100 turns never touch costs
 * one blob; a file edited in every turn costs one blob per version, shared by every checkpoint that
 * names it. Blobs are 0600 in 0700 folders (they hold the user's code), written to a temp name and
 * renamed, and checked against their hash when read back, so a damaged blob is never restored.
 */
import { createHash, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { lstat, mkdir, readdir, readFile, rename, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { gunzip, gzip } from 'node:zlib';
import { absent, ignoreError } from '../diagnostics/ignore-error.js';

const gzipAsync = promisify(gzip);
const gunzipAsync = promisify(gunzip);

export const DIR_MODE = 0o700;
export const FILE_MODE = 0o600;

const HASH = /^[0-9a-f]{64}$/;

export class BlobMissingError extends Error {
  constructor(readonly hash: string) {
    super(`the stored contents ${hash.slice(0, 12)} are missing or damaged`);
  }
}

export interface BlobStore {
  readonly dir: string;
  /** Stores `data` (once) and returns its hash. */
  put(data: Uint8Array): Promise<string>;
  /** The same, saying whether the contents were new to the store. */
  add(data: Uint8Array): Promise<{ readonly hash: string; readonly added: boolean }>;
  /** The raw bytes, verified against the hash; BlobMissingError when gone or damaged. */
  get(hash: string): Promise<Buffer>;
  has(hash: string): boolean;
  /** Bytes on disk (compressed), counted once by listing and kept up to date by put and gc. */
  bytes(): Promise<number>;
  /**
   * Removes blobs not in `live` that are older than `minAgeMs` (another process may be about to
   * name them), and younger ones this process wrote that nobody has named since (their mtime is
   * still the one it left: naming a blob again touches it).
   */
  gc(live: ReadonlySet<string>, minAgeMs: number): Promise<{ readonly removed: number; readonly freed: number }>;
}

export function hashOf(data: Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}

export function createBlobStore(dir: string): BlobStore {
  const objects = join(dir, 'objects');
  let total: number | undefined;
  let counting: Promise<number> | undefined;
  const madeDirs = new Set<string>();
  const pathOf = (hash: string): string => join(objects, hash.slice(0, 2), hash.slice(2));

  const ensureDir = async (path: string): Promise<void> => {
    if (madeDirs.has(path)) return;
    await mkdir(path, { recursive: true, mode: DIR_MODE });
    madeDirs.add(path);
  };

  const count = async (): Promise<number> => {
    let sum = 0;
    for (const { size } of await listBlobs(objects)) sum += size;
    return sum;
  };

  /** Blobs this process wrote or touched, with the mtime it left them with. */
  const mine = new Map<string, number>();
  const remember = async (hash: string, path: string): Promise<void> => {
    const info = await stat(path).catch(absent);
    if (info) mine.set(hash, info.mtimeMs);
  };

  const add = async (data: Uint8Array): Promise<{ hash: string; added: boolean }> => {
    const hash = hashOf(data);
    const target = pathOf(hash);
    if (existsSync(target)) {
      // Named again: fresh enough that another process's collection leaves it alone.
      const now = new Date();
      await utimes(target, now, now).catch(ignoreError('refresh the time of a stored blob'));
      if (mine.has(hash)) await remember(hash, target);
      return { hash, added: false };
    }
    // Small files compress well and fast; a large one gets the quick setting.
    const packed = await gzipAsync(data, { level: data.length > 1 << 20 ? 1 : 6 });
    const folder = join(objects, hash.slice(0, 2));
    await ensureDir(folder);
    const temp = join(folder, `.${hash.slice(2, 14)}.${process.pid}-${randomBytes(4).toString('hex')}.tmp`);
    try {
      await writeFile(temp, packed, { mode: FILE_MODE, flag: 'wx' });
      await rename(temp, target);
    } catch (error) {
      await rm(temp, { force: true });
      throw error;
    }
    await remember(hash, target);
    if (total !== undefined) total += packed.length;
    return { hash, added: true };
  };

  const store: BlobStore = {
    dir,
    add,
    put: async (data) => (await add(data)).hash,
    async get(hash) {
      if (!HASH.test(hash)) throw new BlobMissingError(hash);
      let raw: Buffer;
      try {
        raw = await gunzipAsync(await readFile(pathOf(hash)));
      } catch {
        throw new BlobMissingError(hash);
      }
      if (hashOf(raw) !== hash) throw new BlobMissingError(hash);
      return raw;
    },
    has: (hash) => HASH.test(hash) && existsSync(pathOf(hash)),
    async bytes() {
      if (total !== undefined) return total;
      counting ??= count();
      total = await counting;
      return total;
    },
    async gc(live, minAgeMs) {
      const now = Date.now();
      let removed = 0;
      let freed = 0;
      for (const blob of await listBlobs(objects)) {
        const age = now - blob.mtimeMs;
        // A temp file is a write in progress, or one a killed process left: gone after an hour.
        const onlyMine = mine.get(blob.hash) === blob.mtimeMs;
        const keep = blob.name.endsWith('.tmp') ? age < 3_600_000 : live.has(blob.hash) || (age < minAgeMs && !onlyMine);
        if (keep) continue;
        mine.delete(blob.hash);
        await rm(blob.path, { force: true });
        removed++;
        freed += blob.size;
      }
      total = undefined;
      counting = undefined;
      return { removed, freed };
    },
  };
  return store;
}

interface ListedBlob {
  readonly hash: string;
  readonly name: string;
  readonly path: string;
  readonly size: number;
  readonly mtimeMs: number;
}

async function listBlobs(objects: string): Promise<ListedBlob[]> {
  const out: ListedBlob[] = [];
  let folders: string[];
  try {
    folders = await readdir(objects);
  } catch {
    return out;
  }
  for (const folder of folders) {
    if (!/^[0-9a-f]{2}$/.test(folder)) continue;
    let names: string[];
    try {
      names = await readdir(join(objects, folder));
    } catch {
      continue;
    }
    for (const name of names) {
      const path = join(objects, folder, name);
      const info = await lstat(path).catch(absent);
      if (!info?.isFile()) continue;
      out.push({ hash: folder + name, name, path, size: info.size, mtimeMs: info.mtimeMs });
    }
  }
  return out;
}
