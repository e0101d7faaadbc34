/** Reading a project's sessions: the cheap scan of index files, and a full load of one session. */
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { SessionFileError } from './errors.js';
import { readHistory } from './history-file.js';
import { readCodeMapFile } from './code-map-file.js';
import { codeMapName, historyName, idFromMetaName, metaName } from './layout.js';
import { decodeMeta, readMeta, type MetaFile } from './meta-file.js';
import { readPrivateFileSync } from './permissions.js';
import type { SessionRecord } from './types.js';
import { digestOf, type Committed } from './session-writer.js';

export interface ProjectScan {
  /** Every file name in the project folder (for lookups and cleanup). */
  readonly names: readonly string[];
  readonly metas: readonly MetaFile[];
  /** Index files that could not be used, by id, with what is wrong. */
  readonly bad: ReadonlyMap<string, string>;
  /** Index files found looser than 0600 and tightened. */
  readonly repaired: readonly string[];
}

export async function listNames(projectDir: string): Promise<string[]> {
  try {
    return await readdir(projectDir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw new SessionFileError(projectDir, `cannot list the sessions folder: ${(error as Error).message}`);
  }
}

/** Reads every index file, in synchronous batches with a yield between them so a UI stays live. */
export async function scanProject(projectDir: string, projectRoot: string): Promise<ProjectScan> {
  const names = await listNames(projectDir);
  const metas: MetaFile[] = [];
  const bad = new Map<string, string>();
  const repaired: string[] = [];
  let sinceYield = 0;
  for (const name of names) {
    const id = idFromMetaName(name);
    if (id === undefined) continue;
    const path = join(projectDir, name);
    try {
      const file = readPrivateFileSync(path);
      if (file.repaired) repaired.push(file.repaired);
      metas.push(decodeMeta(path, file.data.toString('utf8'), id, projectRoot));
    } catch (error) {
      bad.set(id, describeError(error, path));
    }
    if (++sinceYield === 100) {
      sinceYield = 0;
      await new Promise((resolve) => setImmediate(resolve));
    }
  }
  return { names, metas, bad, repaired };
}

export interface LoadedSession {
  readonly record: SessionRecord;
  readonly committed: Committed;
  readonly repaired?: string;
}

export async function readSession(projectDir: string, projectRoot: string, id: string): Promise<LoadedSession> {
  const meta = await readMeta(join(projectDir, metaName(id)), id, projectRoot);
  const { gen, bytes, count } = meta.history;
  const { messages, lines, repaired } = await readHistory(join(projectDir, historyName(id, gen)), bytes, count);
  const codeMapText = meta.codeMap ? readCodeMapFile(join(projectDir, codeMapName(id)), meta.codeMap) : undefined;
  // Assigning to the existing key keeps the record's key order, so it re-serializes byte for byte.
  const record = { ...meta.record, messages, ...(codeMapText !== undefined ? { codeMapText } : {}) } as SessionRecord;
  const codeMap = codeMapText !== undefined && meta.codeMap ? { text: codeMapText, pointer: meta.codeMap, synced: true } : undefined;
  // The committed copy is ours: the caller may push onto the record's array.
  return { record, committed: { gen, bytes, messages: messages.slice(), digests: lines.map(digestOf), ...(codeMap ? { codeMap } : {}) }, repaired };
}

export function describeError(error: unknown, path: string): string {
  if (error instanceof SessionFileError) return error.message;
  return `${path}: ${error instanceof Error ? error.message : String(error)}`;
}
