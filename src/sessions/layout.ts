/**
 * Where a project's sessions live and how their files are named:
 *   <sessionsDir>/<hash of the project's real path>/
 *     <id>.meta.json     small index: the record minus its messages, plus where the history ends
 *     <id>.<gen>.jsonl   the history, one message per line; only the prefix the index names counts
 *     <id>.map.json      the code map text of the session's system prompt, named by the index's hash of it
 *     <id>.lock          {pid, host, start} of the process writing this session
 *     <id>.streamed      the answer text of a turn still running, appended as it streams
 */
import { createHash, randomBytes } from 'node:crypto';
import { realpathSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { isTempName } from '../io/atomic-write.js';

const ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;
const META_SUFFIX = '.meta.json';
const HISTORY_PATTERN = /^([A-Za-z0-9][A-Za-z0-9_-]{0,63})\.(\d{1,9})\.jsonl$/;
const LEGACY_TEMP_MARK = '.tmp-';

export function isValidId(id: string): boolean {
  return ID_PATTERN.test(id);
}

/** Real path when it exists; a project that vanished still maps to the same folder by its absolute path. */
export function realProjectRoot(projectRoot: string): string {
  try {
    return realpathSync(projectRoot);
  } catch {
    return resolve(projectRoot);
  }
}

export function projectDirFor(sessionsDir: string, realRoot: string): string {
  const hash = createHash('sha256').update(realRoot).digest('hex').slice(0, 20);
  return join(sessionsDir, hash);
}

/** 12 hex digits: short enough to type a prefix of, random enough never to collide in practice. */
export function randomId(): string {
  return randomBytes(6).toString('hex');
}

export const metaName = (id: string): string => `${id}${META_SUFFIX}`;
export const lockName = (id: string): string => `${id}.lock`;
const CODE_MAP_SUFFIX = '.map.json';
export const codeMapName = (id: string): string => `${id}${CODE_MAP_SUFFIX}`;
export const historyName = (id: string, gen: number): string => `${id}.${gen}.jsonl`;
/** The answer text of the turn still running (streamed-file.ts). */
export const streamedName = (id: string): string => `${id}.streamed`;

export function idFromMetaName(name: string): string | undefined {
  if (!name.endsWith(META_SUFFIX)) return undefined;
  const id = name.slice(0, -META_SUFFIX.length);
  return isValidId(id) ? id : undefined;
}

export function idFromCodeMapName(name: string): string | undefined {
  if (!name.endsWith(CODE_MAP_SUFFIX)) return undefined;
  const id = name.slice(0, -CODE_MAP_SUFFIX.length);
  return isValidId(id) ? id : undefined;
}

export function parseHistoryName(name: string): { id: string; gen: number } | undefined {
  const m = HISTORY_PATTERN.exec(name);
  return m ? { id: m[1]!, gen: Number(m[2]) } : undefined;
}

/**
 * A temp file of an interrupted write: today's (src/io/atomic-write.ts names them) or one of the
 * `.<name>.tmp-<pid>-<rand>` files sessions wrote before, which nothing else would ever remove.
 */
export function isLeftoverTemp(name: string): boolean {
  return isTempName(name) || (name.startsWith('.') && name.includes(LEGACY_TEMP_MARK));
}
