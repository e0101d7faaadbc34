/** Durable file writes: a kill at any instant leaves either the old file or the new one. */
import { open, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { tempNameFor } from './layout.js';

export const FILE_MODE = 0o600;

/** Write a sibling temp file, fsync it, rename it over the target, fsync the folder. */
export async function writeFileAtomic(path: string, data: string | Uint8Array): Promise<void> {
  const dir = dirname(path);
  const tmp = join(dir, tempNameFor(basename(path)));
  try {
    await writeDurably(tmp, data, 'wx');
    await rename(tmp, path);
  } catch (error) {
    await rm(tmp, { force: true });
    throw error;
  }
  await fsyncDir(dir);
}

/** Write a whole file and fsync it before returning. */
export async function writeDurably(path: string, data: string | Uint8Array, flags: 'wx' | 'w'): Promise<void> {
  const handle = await open(path, flags, FILE_MODE);
  try {
    await handle.writeFile(data);
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Makes a rename or a new directory entry survive a power cut, not just a process kill. */
export async function fsyncDir(dir: string): Promise<void> {
  let handle;
  try {
    handle = await open(dir, 'r');
    await handle.sync();
  } catch {
    // Some filesystems refuse fsync on a directory; the rename itself is still atomic.
  } finally {
    await handle?.close();
  }
}
