/** Reading a project's sessions: the cheap scan of index files, and a full load of one session. */
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { SessionFileError } from './errors.js';
import { readHistory } from './history-file.js';
import { historyName, idFromMetaName, metaName } from './layout.js';
import { readMeta, type MetaFile } from './meta-file.js';
import type { SessionRecord } from './types.js';
import type { Committed } from './session-writer.js';

export interface ProjectScan {
  /** Every file name in the project folder (for lookups and cleanup). */
  readonly names: readonly string[];
  readonly metas: readonly MetaFile[];
  /** Index files that could not be used, by id, with what is wrong. */
  readonly bad: ReadonlyMap<string, string>;
}

export async function listNames(projectDir: string): Promise<string[]> {
  try {
    return await readdir(projectDir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw new SessionFileError(projectDir, `cannot list the sessions folder: ${(error as Error).message}`);
  }
}

export async function scanProject(projectDir: string, projectRoot: string): Promise<ProjectScan> {
  const names = await listNames(projectDir);
  const ids = names.map(idFromMetaName).filter((id): id is string => id !== undefined);
  const metas: MetaFile[] = [];
  const bad = new Map<string, string>();
  const results = await Promise.allSettled(ids.map((id) => readMeta(join(projectDir, metaName(id)), id, projectRoot)));
  results.forEach((result, i) => {
    if (result.status === 'fulfilled') metas.push(result.value);
    else bad.set(ids[i]!, describeError(result.reason, join(projectDir, metaName(ids[i]!))));
  });
  return { names, metas, bad };
}

export interface LoadedSession {
  readonly record: SessionRecord;
  readonly committed: Committed;
}

export async function readSession(projectDir: string, projectRoot: string, id: string): Promise<LoadedSession> {
  const meta = await readMeta(join(projectDir, metaName(id)), id, projectRoot);
  const { gen, bytes, count } = meta.history;
  const { messages, lines } = await readHistory(join(projectDir, historyName(id, gen)), bytes, count);
  // Assigning to the existing key keeps the record's key order, so it re-serializes byte for byte.
  const record = { ...meta.record, messages } as SessionRecord;
  return { record, committed: { gen, bytes, messages, lines } };
}

export function describeError(error: unknown, path: string): string {
  if (error instanceof SessionFileError) return error.message;
  return `${path}: ${error instanceof Error ? error.message : String(error)}`;
}
