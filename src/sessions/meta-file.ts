/**
 * The index file of a session: everything in the record except the messages, plus where the
 * committed history ends. Small, so listing a thousand sessions never parses a history.
 */
import type { Usage } from '../providers/types.js';
import type { CodeMapPointer } from './code-map-file.js';
import { SessionFileError } from './errors.js';
import { historyName, parseHistoryName } from './layout.js';
import { readPrivateFileSync } from './permissions.js';
import { SESSION_FORMAT_VERSION, type SessionRecord, type SessionSummary } from './types.js';

const FORMAT_TAG = 'lindwyrm-session';

export interface HistoryPointer {
  readonly gen: number;
  readonly bytes: number;
  readonly count: number;
}

/**
 * The record with `messages: null` in its own key position, so a loaded record keeps the key order;
 * its code map text lives in a file of its own (code-map-file.ts).
 */
export type RecordHead = Omit<SessionRecord, 'messages' | 'codeMapText'> & { readonly messages: null };

export interface MetaFile {
  readonly format: typeof FORMAT_TAG;
  readonly formatVersion: number;
  /** Real path of the project root; guards against two projects sharing a hashed folder. */
  readonly projectRoot: string;
  readonly history: HistoryPointer;
  readonly record: RecordHead;
  /** The map file holding record.codeMapText, by the SHA-256 of its bytes; absent without one. */
  readonly codeMap?: CodeMapPointer;
}

export function buildMeta(projectRoot: string, record: SessionRecord, history: HistoryPointer, codeMap?: CodeMapPointer): MetaFile {
  const { codeMapText: _inMapFile, ...rest } = record;
  const head: RecordHead = { ...rest, messages: null };
  return { format: FORMAT_TAG, formatVersion: SESSION_FORMAT_VERSION, projectRoot, history, record: head, ...(codeMap ? { codeMap } : {}) };
}

export async function readMeta(path: string, id: string, projectRoot: string): Promise<MetaFile> {
  return decodeMeta(path, readPrivateFileSync(path).data.toString('utf8'), id, projectRoot);
}

export function decodeMeta(path: string, text: string, id: string, projectRoot: string): MetaFile {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new SessionFileError(path, `corrupt: not valid JSON (${(error as Error).message})`);
  }
  const fail = (what: string): never => {
    throw new SessionFileError(path, `corrupt: ${what}`);
  };
  if (!isObject(value) || value['format'] !== FORMAT_TAG) return fail('not a lindwyrm session index');
  const version = value['formatVersion'];
  if (typeof version !== 'number' || !Number.isInteger(version) || version < 1) return fail('bad formatVersion');
  if (version > SESSION_FORMAT_VERSION) {
    throw new SessionFileError(
      path,
      `written by a newer lindwyrm (session format ${version}; this version reads up to ${SESSION_FORMAT_VERSION}); left untouched`,
    );
  }
  if (value['projectRoot'] !== projectRoot) {
    return fail(`belongs to another project (${String(value['projectRoot'])})`);
  }
  const history = value['history'];
  if (!isObject(history) || !isCount(history['gen']) || !isCount(history['bytes']) || !isCount(history['count'])) {
    return fail('bad history pointer');
  }
  const record = value['record'];
  if (!isObject(record)) return fail('missing record');
  if (record['id'] !== id) return fail(`id inside is ${JSON.stringify(record['id'])}, file name says ${id}`);
  for (const key of ['preset', 'model', 'createdAt', 'updatedAt', 'firstPrompt', 'projectRoot'] as const) {
    if (typeof record[key] !== 'string') fail(`record.${key} is not a string`);
  }
  if (Number.isNaN(Date.parse(record['updatedAt'] as string))) fail('record.updatedAt is not a date');
  if (!isCount(record['turns'])) fail('record.turns is not a count');
  if (!isUsage(record['usage'])) fail('record.usage is malformed');
  if (record['cost'] !== null && typeof record['cost'] !== 'number') fail('record.cost is not a number or null');
  if (!Array.isArray(record['offloadRefs']) || !record['offloadRefs'].every((r) => typeof r === 'string')) {
    fail('record.offloadRefs is not a list of refs');
  }
  // A tampered index must not point the reader at some other file.
  if (parseHistoryName(historyName(id, history['gen'] as number))?.id !== id) fail('bad history generation');
  return value as unknown as MetaFile;
}

export function summaryOf(meta: MetaFile): SessionSummary {
  const r = meta.record;
  return {
    id: r.id,
    updatedAt: r.updatedAt,
    firstPrompt: r.firstPrompt,
    turns: r.turns,
    tokens: totalTokens(r.usage),
    cost: r.cost,
  };
}

/** Every token the session was billed for: fresh input, cache reads and writes, output. */
export function totalTokens(usage: Usage): number {
  return usage.input + usage.cacheRead + usage.cacheWrite + usage.output;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isCount(value: unknown): boolean {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0;
}

function isUsage(value: unknown): value is Usage {
  return isObject(value) && ['input', 'cacheRead', 'cacheWrite', 'output'].every((k) => typeof value[k] === 'number');
}
