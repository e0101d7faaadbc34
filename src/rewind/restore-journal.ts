/**
 * The restore journal: written and synced before a restore changes anything, removed once the
 * rewind checkpoint that records it is in the session's log. A journal still there at the next start
 * means a restore was cut short (a kill, a power cut): its operations are applied again, each one
 * only where the path is still as the plan saw it (or already restored), which finishes the restore
 * without touching what anyone changed since.
 */
import { readFile, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { open } from 'node:fs/promises';
import { FILE_MODE } from './blob-store.js';
import type { RestoreOp } from './apply-restore.js';
import type { ConversationRef } from './types.js';

export const JOURNAL_NAME = 'restore-journal.json';

export interface Journal {
  readonly version: 1;
  readonly pid: number;
  readonly session: string;
  /** The id of the rewind checkpoint this restore becomes. */
  readonly checkpoint: number;
  /** The checkpoint it restores, and what the rewind checkpoint's line says. */
  readonly target: number;
  readonly prompt: string;
  readonly at: string;
  readonly conversation?: ConversationRef;
  readonly ops: readonly RestoreOp[];
}

export async function writeJournal(dir: string, journal: Journal): Promise<void> {
  const path = join(dir, JOURNAL_NAME);
  const temp = `${path}.${process.pid}.tmp`;
  const handle = await open(temp, 'w', FILE_MODE);
  try {
    await handle.writeFile(JSON.stringify(journal));
    await handle.sync();
  } finally {
    await handle.close();
  }
  await rename(temp, path);
  const folder = await open(dir, 'r');
  try {
    await folder.sync();
  } catch {
    // The rename is atomic either way; some file systems refuse a folder fsync.
  } finally {
    await folder.close();
  }
}

export async function readJournal(dir: string): Promise<Journal | undefined> {
  let text: string;
  try {
    text = await readFile(join(dir, JOURNAL_NAME), 'utf8');
  } catch {
    return undefined;
  }
  try {
    const value = JSON.parse(text) as Partial<Journal>;
    if (value.version !== 1 || !Array.isArray(value.ops) || typeof value.session !== 'string' || typeof value.checkpoint !== 'number') return undefined;
    return value as Journal;
  } catch {
    return undefined;
  }
}

export async function removeJournal(dir: string): Promise<void> {
  await rm(join(dir, JOURNAL_NAME), { force: true });
}

/** Whether the process that wrote a journal is still running (its restore is not ours to finish). */
export function writerAlive(journal: Journal): boolean {
  if (journal.pid === process.pid) return false;
  try {
    process.kill(journal.pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
