/**
 * The code map text a session's system prompt carried, in a file of its own beside the index
 * (<id>.map.json). It can run to tens of kilobytes and the index is parsed for every listing, so
 * it stays out of the index; the index names the file's SHA-256 instead, so a map file left by a
 * save that was cut short is never taken for the current one.
 */
import { createHash } from 'node:crypto';
import { writeFileAtomic } from '../io/atomic-write.js';
import { readPrivateFileSync } from './permissions.js';

export interface CodeMapPointer {
  readonly sha256: string;
}

const digest = (data: string | Buffer): string => createHash('sha256').update(data).digest('hex');

/**
 * A map is a few kilobytes to a few hundred (its budget is a share of the context window); a file
 * far larger is not one lindwyrm wrote, and is not read into memory, synchronously, at a resume.
 */
export const MAX_CODE_MAP_FILE_BYTES = 8 * 1024 * 1024;

/**
 * `serialize` turns the file's JSON value into its text (the store redacts secrets there). Not
 * `durable`: no fsync (the caller syncs it before a durable index names it for good).
 */
export async function writeCodeMapFile(path: string, text: string, serialize: (value: unknown) => string, durable = true): Promise<CodeMapPointer> {
  const data = `${serialize({ text })}\n`;
  await writeFileAtomic(path, data, { durable, sweep: durable });
  return { sha256: digest(data) };
}

/**
 * The saved text, or undefined when the index names no map file or the file is missing, altered
 * or not ours: the map is derived data, so anything odd means the session rebuilds it.
 */
export function readCodeMapFile(path: string, pointer: unknown): string | undefined {
  const sha = (pointer as Partial<CodeMapPointer> | null | undefined)?.sha256;
  if (typeof sha !== 'string') return undefined;
  try {
    const { data } = readPrivateFileSync(path, MAX_CODE_MAP_FILE_BYTES);
    if (digest(data) !== sha) return undefined;
    const value = JSON.parse(data.toString('utf8')) as { text?: unknown } | null;
    return typeof value?.text === 'string' ? value.text : undefined;
  } catch {
    return undefined; // derived data: anything odd means the session rebuilds it
  }
}
