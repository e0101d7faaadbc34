/**
 * Writes a file so that a reader sees either the old or the new contents, never half: a temp
 * file beside the target, fsync, the old mode copied, then rename. A failure removes the temp
 * file and leaves the original untouched.
 */
import { randomBytes } from 'node:crypto';
import { chmod, open, rename, stat, unlink } from 'node:fs/promises';
import path from 'node:path';

export async function atomicWrite(target: string, content: string): Promise<void> {
  let mode: number | undefined;
  try {
    mode = (await stat(target)).mode & 0o7777;
  } catch {
    mode = undefined; // a new file: the umask decides
  }
  const temp = path.join(path.dirname(target), `.${path.basename(target)}.lwyrm-${randomBytes(4).toString('hex')}.tmp`);
  const handle = await open(temp, 'wx', mode ?? 0o666);
  try {
    await handle.writeFile(content, 'utf8');
    await handle.sync();
    await handle.close();
    if (mode !== undefined) await chmod(temp, mode);
    await rename(temp, target);
  } catch (error) {
    await handle.close().catch(() => undefined);
    await unlink(temp).catch(() => undefined);
    throw error;
  }
}
