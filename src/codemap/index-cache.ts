/**
 * The on-disk index cache: one file per project. A magic line, a small JSON header (per file: path,
 * size, mtime, plugin, byte length) and then every file's index as JSON, back to back. Opening
 * reads the header only; a file's index is parsed the first time something asks for it, and
 * entries never parsed are written back as the same bytes. That keeps a warm start from paying
 * for a 10 MB JSON.parse and the garbage it makes.
 */
import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import type { FileIndex } from './types.js';

const MAGIC = 'lindwyrm-codemap-index 2\n';
const MAGIC_BYTES = Buffer.from(MAGIC);

/** Named by the project, so two projects never share a file even if handed the same directory. */
export function cacheFile(cacheDir: string, root: string): string {
  return join(cacheDir, `index-${createHash('sha256').update(root).digest('hex').slice(0, 16)}.json`);
}

export interface CacheEntry {
  readonly size: number;
  readonly mtimeMs: number;
  /** `name@version` of the plugin that produced it: a new plugin version reparses. */
  readonly plugin: string;
  /** The parsed index (parsed from the cache on first use). */
  index(): FileIndex;
  /** The index as JSON bytes (as read from the cache, or encoded once). */
  bytes(): Buffer;
}

export interface LoadedCache {
  readonly entries: Map<string, CacheEntry>;
  /** Set when a cache existed but could not be used. */
  readonly warning?: string;
}

/** Header row: [path, size, mtimeMs, plugin index, byte length]. */
type Row = [string, number, number, number, number];

interface Header {
  readonly root: string;
  readonly plugins: readonly string[];
  readonly files: readonly Row[];
  /** CRC-32 of the body (a few ms for 10 MB): a torn or flipped cache is caught at open, not mid tool call. */
  readonly crc: number;
}

const EMPTY: FileIndex = { symbols: [], edges: [], imports: [] };

function isIndex(value: unknown): value is FileIndex {
  const i = value as Partial<FileIndex> | null;
  return !!i && Array.isArray(i.symbols) && Array.isArray(i.edges) && Array.isArray(i.imports);
}

export function freshEntry(size: number, mtimeMs: number, plugin: string, index: FileIndex): CacheEntry {
  let encoded: Buffer | undefined;
  return { size, mtimeMs, plugin, index: () => index, bytes: () => (encoded ??= Buffer.from(JSON.stringify(index))) };
}

function lazyEntry(size: number, mtimeMs: number, plugin: string, raw: Buffer): CacheEntry {
  let parsed: FileIndex | undefined;
  return {
    size, mtimeMs, plugin,
    index() {
      if (!parsed) {
        // The checksum matched, so this is what we wrote; a shape we cannot use still must not throw.
        try {
          const value: unknown = JSON.parse(raw.toString('utf8'));
          parsed = isIndex(value) ? value : EMPTY;
        } catch {
          parsed = EMPTY;
        }
      }
      return parsed;
    },
    bytes: () => raw,
  };
}

function isHeader(value: unknown): value is Header {
  const h = value as Partial<Header> | null;
  return !!h && typeof h.root === 'string' && typeof h.crc === 'number' && Array.isArray(h.plugins) && Array.isArray(h.files);
}

function isRow(row: unknown, plugins: number): row is Row {
  return Array.isArray(row) && row.length === 5 && typeof row[0] === 'string' && typeof row[1] === 'number'
    && typeof row[2] === 'number' && Number.isInteger(row[3]) && row[3] >= 0 && row[3] < plugins
    && Number.isInteger(row[4]) && row[4] >= 0;
}

const corrupt = (why: string): LoadedCache => ({ entries: new Map(), warning: `code map cache is corrupt (${why}); rebuilding it` });

export function decodeCache(data: Buffer, root: string): LoadedCache {
  if (!data.subarray(0, MAGIC_BYTES.length).equals(MAGIC_BYTES)) {
    const start = data.subarray(0, 64).toString('utf8');
    return /^\{"format":\d+,/.test(start) && data.length > 0 && data[data.length - 1] === 0x7d
      ? { entries: new Map(), warning: 'code map cache has an older format; rebuilding it' }
      : corrupt('unknown format');
  }
  const headerEnd = data.indexOf(0x0a, MAGIC_BYTES.length);
  if (headerEnd < 0) return corrupt('no header');
  let header: unknown;
  try {
    header = JSON.parse(data.toString('utf8', MAGIC_BYTES.length, headerEnd));
  } catch (err) {
    return corrupt((err as Error).message);
  }
  if (!isHeader(header)) return corrupt('bad header');
  if (header.root !== root) return { entries: new Map(), warning: 'code map cache belongs to another project; rebuilding it' };
  const body = data.subarray(headerEnd + 1);
  if (crc32(body) !== header.crc) return corrupt('checksum mismatch');
  const entries = new Map<string, CacheEntry>();
  let offset = 0;
  for (const row of header.files) {
    if (!isRow(row, header.plugins.length) || offset + row[4] > body.length) return corrupt('bad file entry');
    entries.set(row[0], lazyEntry(row[1], row[2], header.plugins[row[3]]!, body.subarray(offset, offset + row[4])));
    offset += row[4];
  }
  if (offset !== body.length) return corrupt('trailing bytes');
  return { entries };
}

export async function loadCache(cacheDir: string, root: string): Promise<LoadedCache> {
  let data: Buffer;
  try {
    data = await readFile(cacheFile(cacheDir, root));
  } catch {
    return { entries: new Map() };
  }
  return decodeCache(data, root);
}

export function encodeCache(root: string, entries: ReadonlyMap<string, CacheEntry>): Buffer {
  const plugins: string[] = [];
  const pluginIds = new Map<string, number>();
  const files: Row[] = [];
  const parts: Buffer[] = [];
  for (const [rel, entry] of entries) {
    let pid = pluginIds.get(entry.plugin);
    if (pid === undefined) {
      pid = plugins.length;
      plugins.push(entry.plugin);
      pluginIds.set(entry.plugin, pid);
    }
    const bytes = entry.bytes();
    files.push([rel, entry.size, entry.mtimeMs, pid, bytes.length]);
    parts.push(bytes);
  }
  const body = Buffer.concat(parts);
  const header: Header = { root, plugins, files, crc: crc32(body) };
  return Buffer.concat([MAGIC_BYTES, Buffer.from(`${JSON.stringify(header)}\n`), body]);
}

/** Written to a temp file and renamed, so a crash mid-write leaves the old cache intact. */
export async function saveCache(cacheDir: string, root: string, entries: ReadonlyMap<string, CacheEntry>): Promise<void> {
  await mkdir(cacheDir, { recursive: true, mode: 0o700 });
  await writeAtomic(cacheFile(cacheDir, root), encodeCache(root, entries));
}

export async function writeAtomic(target: string, data: Buffer | string): Promise<void> {
  const temp = `${target}.${process.pid}.${Date.now()}.tmp`;
  await writeFile(temp, data, { mode: 0o600 });
  await rename(temp, target);
}
