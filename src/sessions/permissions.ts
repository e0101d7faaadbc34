/**
 * Sessions hold whatever the agent read (source code, sometimes more): folders are 0700 and files
 * 0600. Anything looser, say after a copy with the wrong umask, is tightened at start.
 */
import { closeSync, constants, fchmodSync, fstatSync, openSync, readSync } from 'node:fs';
import { chmod, lstat, mkdir, readdir } from 'node:fs/promises';
import { SessionFileError } from './errors.js';
import { join } from 'node:path';
import { ignoreError } from '../diagnostics/ignore-error.js';

const DIR_MODE = 0o700;
const FILE_MODE = 0o600;

export async function ensurePrivateDir(path: string): Promise<void> {
  await mkdir(path, { recursive: true, mode: DIR_MODE });
  const info = await lstat(path);
  if (!info.isDirectory()) throw new Error(`${path} is not a directory (a symlink or a file is in the way)`);
}

/**
 * Tightens each existing folder to 0700 and, with `files`, the files directly inside the last one
 * to 0600; returns a notice per repair. Missing folders are skipped; failures become notices.
 */
export async function repairTree(dirs: readonly string[], files: boolean): Promise<string[]> {
  const notices: string[] = [];
  for (const dir of dirs) {
    try {
      const info = await lstat(dir);
      if (!info.isDirectory()) continue;
      if ((info.mode & 0o777) !== DIR_MODE) {
        await chmod(dir, DIR_MODE);
        notices.push(`tightened ${dir} from ${octal(info.mode)} to 0700`);
      }
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') notices.push(`cannot check ${dir}: ${(error as Error).message}`);
    }
  }
  const last = dirs[dirs.length - 1];
  if (files && last !== undefined) {
    // A folder not made yet (a new session) has nothing to repair, as for the folders above.
    const repaired = await repairFileModes(last).catch((error: unknown) =>
      (error as NodeJS.ErrnoException).code === 'ENOENT' ? [] : ignoreError('repair the modes of session files')(error),
    );
    notices.push(...(repaired ?? []));
  }
  return notices;
}

/** Tightens every regular file directly inside a folder to 0600. */
export async function repairFileModes(dir: string): Promise<string[]> {
  const notices: string[] = [];
  const entries = await readdir(dir, { withFileTypes: true });
  await Promise.all(
    entries.map(async (entry) => {
      if (!entry.isFile()) return;
      const path = join(dir, entry.name);
      try {
        const info = await lstat(path);
        if ((info.mode & 0o777 & ~FILE_MODE) !== 0) {
          await chmod(path, FILE_MODE);
          notices.push(`tightened ${path} from ${octal(info.mode)} to 0600`);
        }
      } catch {
        // Vanished meanwhile (a concurrent save renamed over it): nothing to repair.
      }
    }),
  );
  return notices.sort();
}

function octal(mode: number): string {
  return '0' + (mode & 0o777).toString(8).padStart(3, '0');
}

/**
 * Reads a file synchronously, tightening it to 0600 through the open descriptor when it is looser.
 * Synchronous on purpose: for a thousand index files libuv's thread pool costs several times the
 * syscalls themselves (see scripts/bench-sessions.ts).
 */
export function readPrivateFileSync(path: string, maxBytes = Infinity): { data: Buffer; repaired?: string } {
  let fd: number | undefined;
  try {
    // No following links: the chmod below must never land on a file outside the sessions folder.
    fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW);
    const info = fstatSync(fd);
    const mode = info.mode & 0o777;
    if (!info.isFile()) throw new Error('not a regular file');
    if (info.size > maxBytes) throw new Error(`${info.size} bytes, more than the ${maxBytes} expected`);
    let repaired: string | undefined;
    if ((mode & ~FILE_MODE) !== 0) {
      fchmodSync(fd, FILE_MODE);
      repaired = `tightened ${path} from ${octal(mode)} to 0600`;
    }
    // One read of the size fstat gave: our files are replaced by rename or grow past what we need.
    const data = Buffer.allocUnsafe(info.size);
    let got = 0;
    while (got < info.size) {
      const n = readSync(fd, data, got, info.size - got, got);
      if (n === 0) break;
      got += n;
    }
    return { data: got === info.size ? data : data.subarray(0, got), repaired };
  } catch (error) {
    throw new SessionFileError(path, `cannot read: ${(error as Error).message}`);
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
