/** The on-disk index cache: one JSON file per project, one entry per source file. */
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import type { FileIndex } from './types.js';

const CACHE_FORMAT = 1;

/** Named by the project, so two projects never share a file even if handed the same directory. */
function cacheFile(cacheDir: string, root: string): string {
  return join(cacheDir, `index-${createHash('sha256').update(root).digest('hex').slice(0, 16)}.json`);
}

export interface CacheEntry {
  readonly size: number;
  readonly mtimeMs: number;
  /** `name@version` of the plugin that produced it: a new plugin version reparses. */
  readonly plugin: string;
  readonly index: FileIndex;
}

export interface LoadedCache {
  readonly entries: Map<string, CacheEntry>;
  /** Set when a cache existed but could not be used. */
  readonly warning?: string;
}

interface CacheFile {
  readonly format: number;
  readonly root: string;
  readonly files: Record<string, CacheEntry>;
}

function isCacheFile(value: unknown, root: string): value is CacheFile {
  if (!value || typeof value !== 'object') return false;
  const v = value as Partial<CacheFile>;
  return v.format === CACHE_FORMAT && v.root === root && typeof v.files === 'object' && v.files !== null;
}

function isEntry(value: unknown): value is CacheEntry {
  const e = value as Partial<CacheEntry> | null;
  return !!e && typeof e.size === 'number' && typeof e.mtimeMs === 'number' && typeof e.plugin === 'string'
    && !!e.index && Array.isArray(e.index.symbols) && Array.isArray(e.index.edges) && Array.isArray(e.index.imports);
}

export async function loadCache(cacheDir: string, root: string): Promise<LoadedCache> {
  let text: string;
  try {
    text = await readFile(cacheFile(cacheDir, root), 'utf8');
  } catch {
    return { entries: new Map() };
  }
  try {
    const parsed: unknown = JSON.parse(text);
    if (!isCacheFile(parsed, root)) {
      const stale = (parsed as Partial<CacheFile> | null)?.format !== CACHE_FORMAT;
      return stale ? { entries: new Map() } : { entries: new Map(), warning: 'code map cache belongs to another project; rebuilding it' };
    }
    const entries = new Map<string, CacheEntry>();
    for (const [rel, entry] of Object.entries(parsed.files)) {
      if (!isEntry(entry)) return { entries: new Map(), warning: `code map cache entry for ${rel} is malformed; rebuilding the cache` };
      entries.set(rel, entry);
    }
    return { entries };
  } catch (err) {
    return { entries: new Map(), warning: `code map cache is corrupt (${(err as Error).message}); rebuilding it` };
  }
}

/** Written to a temp file and renamed, so a crash mid-write leaves the old cache intact. */
export async function saveCache(cacheDir: string, root: string, entries: ReadonlyMap<string, CacheEntry>): Promise<void> {
  await mkdir(cacheDir, { recursive: true, mode: 0o700 });
  const files: Record<string, CacheEntry> = {};
  for (const [rel, entry] of entries) files[rel] = entry;
  const body: CacheFile = { format: CACHE_FORMAT, root, files };
  const target = cacheFile(cacheDir, root);
  const temp = `${target}.${process.pid}.${Date.now()}.tmp`;
  await writeFile(temp, JSON.stringify(body), { mode: 0o600 });
  await rename(temp, target);
}
