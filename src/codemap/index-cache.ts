/**
 * The on-disk index cache: one file per project. A first line naming the format and the header's
 * length, a small JSON header (per file: path, size, mtime, plugin, byte length, content hash; the
 * body's length and CRC) and then every file's index as JSON, back to back. A file whose stamp
 * changed but whose bytes hash the same (a checkout, a `touch`) keeps its index unparsed.
 *
 * Opening reads the header only: a warm start whose map is already stored never touches the
 * 10 MB body. The file stays open until the body is first needed (a tool call, a map for a new
 * budget, a save), so a cache replaced meanwhile by another session is never mixed with ours; the
 * body is then read once and checked against its CRC, and each file's index is parsed the first
 * time something asks for it. Entries never parsed are written back as the same bytes.
 */
import { createHash } from 'node:crypto';
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import { writeFileAtomic } from '../io/atomic-write.js';
import type { FileIndex } from './types.js';

const FORMAT = 4;
/** Format 3 rows have no content hash; such a cache is still used (its files are re-parsed when their stamp changes). */
const READABLE_FORMATS: ReadonlySet<number> = new Set([3, FORMAT]);
const MAGIC_PREFIX = 'lindwyrm-codemap-index ';
/** The first line is at most this long; the header's length follows the format number. */
const FIRST_LINE_MAX = 64;

/** Named by the project, so two projects never share a file even if handed the same directory. */
export function cacheFile(cacheDir: string, root: string): string {
  return join(cacheDir, `index-${createHash('sha256').update(root).digest('hex').slice(0, 16)}.json`);
}

export interface CacheEntry {
  readonly size: number;
  readonly mtimeMs: number;
  /** `name@version` of the plugin that produced it: a new plugin version reparses. */
  readonly plugin: string;
  /** True when its index lives in the cache body (unusable if the body turns out damaged). */
  readonly fromCache?: boolean;
  /** contentHash of the bytes the index was made from; '' when not known. */
  readonly hash: string;
  /** The parsed index (parsed from the cache on first use). */
  index(): FileIndex;
  /** The index as JSON bytes (as read from the cache, or encoded once). */
  bytes(): Buffer;
}

export interface LoadedCache {
  readonly entries: Map<string, CacheEntry>;
  /** Set when a cache existed but could not be used. */
  readonly warning?: string;
  /**
   * Reads and checks the body (once; synchronous, one read). False when it is torn or altered:
   * then no entry with `fromCache` may be used or saved, they must be indexed again.
   */
  loadBody(): boolean;
  /** Closes the file if the body was never needed. */
  release(): void;
}

/** Header row: [path, size, mtimeMs, plugin index, byte length, content hash] (format 3: without the hash). */
type Row = [string, number, number, number, number, string?];

interface Header {
  readonly root: string;
  readonly plugins: readonly string[];
  readonly files: readonly Row[];
  readonly bodyLength: number;
  /** CRC-32 of the body (a few ms for 10 MB): a flipped byte is caught before any of it is used. */
  readonly crc: number;
}

const EMPTY: FileIndex = { symbols: [], edges: [], imports: [] };

function isIndex(value: unknown): value is FileIndex {
  const i = value as Partial<FileIndex> | null;
  return !!i && Array.isArray(i.symbols) && Array.isArray(i.edges) && Array.isArray(i.imports);
}

/** An entry just indexed: from its index (encoded when saved), or from its JSON text (parsed when first used). */
export function freshEntry(size: number, mtimeMs: number, plugin: string, index: FileIndex | string, hash = ''): CacheEntry {
  let encoded: Buffer | undefined;
  if (typeof index === 'string') {
    const text = index;
    let parsed: FileIndex | undefined;
    return {
      size, mtimeMs, plugin, hash,
      index: () => (parsed ??= JSON.parse(text) as FileIndex),
      bytes: () => (encoded ??= Buffer.from(text)),
    };
  }
  return { size, mtimeMs, plugin, hash, index: () => index, bytes: () => (encoded ??= Buffer.from(JSON.stringify(index))) };
}

/** The same index under a new stamp: the file was touched, its bytes are the same. */
export function restamped(entry: CacheEntry, size: number, mtimeMs: number): CacheEntry {
  return {
    size, mtimeMs, plugin: entry.plugin, hash: entry.hash, ...(entry.fromCache ? { fromCache: true } : {}),
    index: () => entry.index(),
    bytes: () => entry.bytes(),
  };
}

interface Body {
  /** The body bytes, or undefined when they cannot be trusted. */
  get(): Buffer | undefined;
}

/** A class, not closures: a warm start makes one per file and reads none of them. */
class CachedEntry implements CacheEntry {
  readonly fromCache = true;
  private parsed: FileIndex | undefined;
  constructor(
    readonly size: number,
    readonly mtimeMs: number,
    readonly plugin: string,
    readonly hash: string,
    private readonly offset: number,
    private readonly length: number,
    private readonly body: Body,
  ) {}

  bytes(): Buffer {
    const all = this.body.get();
    // Callers check loadBody() first; reaching here with a damaged body is a bug, never a silent empty index.
    if (!all) throw new Error('the code map cache body is damaged');
    return all.subarray(this.offset, this.offset + this.length);
  }

  index(): FileIndex {
    if (!this.parsed) {
      const raw = this.bytes();
      // The checksum matched, so this is what we wrote; a shape we cannot use still must not throw.
      try {
        const value: unknown = JSON.parse(raw.toString('utf8'));
        this.parsed = isIndex(value) ? value : EMPTY;
      } catch {
        this.parsed = EMPTY; // derived data: a torn entry is re-indexed
      }
    }
    return this.parsed;
  }
}

function isHeader(value: unknown): value is Header {
  const h = value as Partial<Header> | null;
  return !!h && typeof h.root === 'string' && typeof h.crc === 'number' && Number.isInteger(h.bodyLength)
    && Array.isArray(h.plugins) && Array.isArray(h.files);
}

function isRow(row: unknown, plugins: number, format: number): row is Row {
  return Array.isArray(row) && row.length === (format === 3 ? 5 : 6) && typeof row[0] === 'string' && typeof row[1] === 'number'
    && typeof row[2] === 'number' && Number.isInteger(row[3]) && row[3] >= 0 && row[3] < plugins
    && Number.isInteger(row[4]) && row[4] >= 0 && (format === 3 || typeof row[5] === 'string');
}

const NO_BODY = { loadBody: () => true, release: () => undefined };
const nothing = (warning?: string): LoadedCache => ({ entries: new Map(), ...NO_BODY, ...(warning ? { warning } : {}) });
const corrupt = (why: string): LoadedCache => nothing(`code map cache is corrupt (${why}); rebuilding it`);

/** Reads `length` bytes at `position`; throws when fewer are there. */
type ReadAt = (position: number, length: number) => Buffer;

function decode(readAt: ReadAt, total: number, root: string, release: () => void): LoadedCache {
  const first = readAt(0, Math.min(total, FIRST_LINE_MAX)).toString('latin1');
  if (!first.startsWith(MAGIC_PREFIX)) {
    return /^\{"format":\d+,/.test(first) ? nothing('code map cache has an older format; rebuilding it') : corrupt('unknown format');
  }
  const lineEnd = first.indexOf('\n');
  const m = /^(\d+)(?: (\d+))?$/.exec(first.slice(MAGIC_PREFIX.length, lineEnd < 0 ? undefined : lineEnd));
  if (!m || lineEnd < 0) return corrupt('no header');
  const format = Number(m[1]);
  if (!READABLE_FORMATS.has(format)) return nothing('code map cache has an older format; rebuilding it');
  const headerStart = lineEnd + 1;
  const headerLength = Number(m[2] ?? -1);
  if (headerLength < 0 || headerStart + headerLength + 1 > total) return corrupt('header cut short');
  let header: unknown;
  try {
    const text = readAt(headerStart, headerLength + 1).toString('utf8');
    if (!text.endsWith('\n')) return corrupt('no header end');
    header = JSON.parse(text);
  } catch (err) {
    return corrupt((err as Error).message);
  }
  if (!isHeader(header)) return corrupt('bad header');
  if (header.root !== root) return nothing('code map cache belongs to another project; rebuilding it');
  const bodyStart = headerStart + headerLength + 1;
  // A torn write shows in the length at once; a flipped byte in the body when it is loaded.
  if (bodyStart + header.bodyLength !== total) return corrupt('size mismatch');
  let state: 'unloaded' | 'ok' | 'bad' = 'unloaded';
  let data: Buffer | undefined;
  const loadBody = (): boolean => {
    if (state === 'unloaded') {
      try {
        data = readAt(bodyStart, header.bodyLength);
        state = crc32(data) === header.crc ? 'ok' : 'bad';
      } catch {
        state = 'bad'; // a short read is a torn cache: it is rebuilt
      }
      if (state === 'bad') data = undefined;
      release();
    }
    return state === 'ok';
  };
  const body: Body = { get: () => (loadBody() ? data : undefined) };
  const entries = new Map<string, CacheEntry>();
  let offset = 0;
  for (const row of header.files) {
    if (!isRow(row, header.plugins.length, format)) return corrupt('bad file entry');
    entries.set(row[0], new CachedEntry(row[1], row[2], header.plugins[row[3]]!, row[5] ?? '', offset, row[4], body));
    offset += row[4];
  }
  if (offset !== header.bodyLength) return corrupt('entry lengths do not add up');
  return { entries, loadBody, release };
}

/** Decodes a whole cache file held in memory. */
export function decodeCache(data: Buffer, root: string): LoadedCache {
  const readAt: ReadAt = (position, length) => {
    if (position + length > data.length) throw new Error('short read');
    return data.subarray(position, position + length);
  };
  try {
    return decode(readAt, data.length, root, () => undefined);
  } catch (err) {
    return corrupt((err as Error).message);
  }
}

/** Opens the project's cache and reads its header; the body is read only when asked for. */
export async function loadCache(cacheDir: string, root: string): Promise<LoadedCache> {
  let fd: number | undefined;
  try {
    fd = openSync(cacheFile(cacheDir, root), 'r');
  } catch {
    return nothing(); // no cache yet (or unreadable): a cold index
  }
  const release = (): void => {
    if (fd === undefined) return;
    const open = fd;
    fd = undefined;
    try {
      closeSync(open);
    } catch {
      // Already closed: nothing to release.
    }
  };
  const readAt: ReadAt = (position, length) => {
    if (fd === undefined) throw new Error('cache file closed');
    const buf = Buffer.allocUnsafe(length);
    let done = 0;
    while (done < length) {
      const n = readSync(fd, buf, done, length - done, position + done);
      if (n === 0) throw new Error('short read');
      done += n;
    }
    return buf;
  };
  try {
    const loaded = decode(readAt, fstatSync(fd).size, root, release);
    if (loaded.entries.size === 0) release();
    return loaded;
  } catch (err) {
    release();
    return corrupt((err as Error).message);
  }
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
    files.push([rel, entry.size, entry.mtimeMs, pid, bytes.length, entry.hash]);
    parts.push(bytes);
  }
  const body = Buffer.concat(parts);
  const header: Header = { root, plugins, files, bodyLength: body.length, crc: crc32(body) };
  const headerBytes = Buffer.from(`${JSON.stringify(header)}\n`);
  return Buffer.concat([Buffer.from(`${MAGIC_PREFIX}${FORMAT} ${headerBytes.length - 1}\n`), headerBytes, body]);
}

/** Written to a temp file and renamed, so a crash mid-write leaves the old cache intact. */
export async function saveCache(cacheDir: string, root: string, entries: ReadonlyMap<string, CacheEntry>): Promise<void> {
  await mkdir(cacheDir, { recursive: true, mode: 0o700 });
  // Derived data: a power cut may cost a re-index, never a torn cache; a sync would only slow the save.
  await writeFileAtomic(cacheFile(cacheDir, root), encodeCache(root, entries), { durable: false });
}
