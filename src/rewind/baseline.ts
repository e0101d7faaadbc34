/**
 * The baseline: for every tracked path of the project, its last lstat and its state (a file's
 * contents as a blob hash, a link's target, a folder's mode). It is what makes a pre-image exist
 * for a file a command is about to change without copying the project on every command: each file
 * is read and stored once, and after that only what the stat says changed is read again.
 *
 * refresh() scans, compares each path's stat with the one recorded (same size, mtime, ctime, inode
 * and mode: unchanged, not read), reads what differs, and returns the changes. A file changed within
 * RACY_MS of the scan that recorded it may change again within the file system's timestamp
 * granularity without its stat moving, so it is read again at the next scan (git's "racy clean").
 */
import { readlinkSync, type Stats } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { hashOf, type BlobStore } from './blob-store.js';
import { lstatQuiet, scanProject, type RulesCache, type ScanOptions, type SkipReason } from './project-scan.js';
import type { Entry, PathState } from './types.js';
import { sameState } from './types.js';

export const RACY_MS = 2000;

export interface Known {
  kind: 'file' | 'dir' | 'link';
  size: number;
  mtimeMs: number;
  ctimeMs: number;
  ino: number;
  mode: number;
  state: Entry;
  /** The scan generation that last saw it. */
  seen: number;
  /** Read it again at the next scan: its stat may not show a change made right after this one. */
  racy: boolean;
}

export interface ObservedChange {
  readonly path: string;
  readonly before: PathState;
  readonly after: PathState;
}

export interface SkippedPath {
  readonly path: string;
  readonly why: SkipReason;
  readonly size?: number;
  readonly mtimeMs?: number;
}

export interface RefreshOutcome {
  readonly changes: readonly ObservedChange[];
  readonly skipped: readonly SkippedPath[];
  /** Untracked folders that appeared, went, or had entries added or removed since the last scan. */
  readonly untrackedChanged: readonly string[];
  readonly truncated: boolean;
  readonly ignoredFiles: number;
}

export interface BaselineOptions extends ScanOptions {
  readonly blobs: BlobStore;
  /** Raw bytes of file contents the baseline may keep; files past it are tracked by stat only. */
  readonly budgetBytes: number;
  /** Raw bytes of new contents one checkpoint may add (a turn that generates gigabytes keeps the first part). */
  readonly turnBudgetBytes: number;
}

function kindOf(info: Stats): Known['kind'] {
  return info.isDirectory() ? 'dir' : info.isSymbolicLink() ? 'link' : 'file';
}

function statMatches(k: Known, info: Stats): boolean {
  return (
    k.size === info.size && k.mtimeMs === info.mtimeMs && k.ctimeMs === info.ctimeMs && k.ino === info.ino && k.mode === info.mode && k.kind === kindOf(info)
  );
}

export function stampOf(info: Pick<Stats, 'size' | 'mtimeMs' | 'ino'>): string {
  return `${info.size}:${info.mtimeMs}:${info.ino}`;
}

export class Baseline {
  readonly map = new Map<string, Known>();
  private gen = 0;
  private lastScanStart = 0;
  private keptBytes = 0;
  /** New contents stored since the checkpoint began. */
  private turnAdded = 0;
  private lastSkipped = new Map<string, number | undefined>();
  private readonly rulesCache: RulesCache = new Map();
  /** Whether the map reflects a completed scan (false until the first refresh). */
  ready = false;

  constructor(private readonly opts: BaselineOptions) {}

  /** Reads one path's state now, storing a file's contents (the pre-image of a change about to happen). */
  async stateOf(abs: string, info?: Stats): Promise<PathState> {
    const st = info ?? lstatQuiet(abs);
    if (!st) return null;
    const mode = st.mode & 0o7777;
    if (st.isDirectory()) return { kind: 'dir', mode };
    if (st.isSymbolicLink()) return { kind: 'link', target: readlinkSync(abs) };
    if (!st.isFile()) return null;
    const unkept: Entry = { kind: 'unkept', mode, size: st.size, stamp: stampOf(st) };
    if (st.size > this.opts.maxFileBytes || this.keptBytes + st.size > this.opts.budgetBytes) return unkept;
    const data = await readFile(abs);
    // Past the checkpoint's share, only contents the store already has are kept. The share is
    // taken before storing (files are read many at a time) and given back if nothing was new.
    const counted = this.ready;
    if (counted) {
      if (this.turnAdded + data.length > this.opts.turnBudgetBytes && !this.opts.blobs.has(hashOf(data))) return unkept;
      this.turnAdded += data.length;
    }
    const { hash, added } = await this.opts.blobs.add(data);
    if (counted && !added) this.turnAdded -= data.length;
    return { kind: 'file', hash, mode, size: data.length };
  }

  /** A checkpoint begins: its share of new contents starts from nothing. */
  startTurn(): void {
    this.turnAdded = 0;
  }

  /** Records what a path is now, after a file tool changed it (or to seed it before). */
  async note(rel: string, abs: string): Promise<PathState> {
    const info = lstatQuiet(abs);
    const state = await this.stateOf(abs, info ?? undefined);
    const old = this.map.get(rel);
    if (old?.state.kind === 'file') this.keptBytes -= old.state.size;
    if (!info || state === null) {
      this.map.delete(rel);
      return state;
    }
    this.record(rel, info, state, Date.now());
    return state;
  }

  private record(rel: string, info: Stats, state: Entry, scanStart: number): void {
    if (state.kind === 'file') this.keptBytes += state.size;
    this.map.set(rel, {
      kind: kindOf(info),
      size: info.size,
      mtimeMs: info.mtimeMs,
      ctimeMs: info.ctimeMs,
      ino: info.ino,
      mode: info.mode,
      state,
      seen: this.gen,
      racy: Math.max(info.mtimeMs, info.ctimeMs) >= scanStart - RACY_MS,
    });
  }

  /** Seeds the map from a saved baseline; every entry is checked against the disk by the next scan. */
  load(entries: Iterable<[string, Known]>, savedScanStart: number): void {
    for (const [rel, k] of entries) {
      const racy = k.racy || Math.max(k.mtimeMs, k.ctimeMs) >= savedScanStart - RACY_MS || (k.state.kind === 'file' && !this.opts.blobs.has(k.state.hash));
      this.map.set(rel, { ...k, seen: 0, racy });
      if (k.state.kind === 'file') this.keptBytes += k.state.size;
    }
  }

  async refresh(): Promise<RefreshOutcome> {
    const gen = ++this.gen;
    const scanStart = Date.now();
    const firstScan = !this.ready;
    const dirty: [string, Stats][] = [];
    const skipped: SkippedPath[] = [];
    const outcome = await scanProject({ ...this.opts, rulesCache: this.rulesCache }, {
      entry: (rel, info) => {
        const k = this.map.get(rel);
        if (k !== undefined && !k.racy && statMatches(k, info)) k.seen = gen;
        else dirty.push([rel, info]);
      },
      skip: (path, why, detail) => skipped.push({ path, why, ...detail }),
    });
    if (outcome.truncated && firstScan) {
      // Too large to track by scanning: read nothing (the file tools still keep what they change).
      this.map.clear();
      this.keptBytes = 0;
      this.ready = true;
      return { changes: [], skipped, untrackedChanged: [], truncated: true, ignoredFiles: outcome.ignoredFiles };
    }
    const changes: ObservedChange[] = [];
    const states = await mapPool(dirty, 8, async ([rel, info]) => {
      try {
        return await this.stateOf(`${this.opts.root}/${rel}`, info);
      } catch {
        return null; // vanished between the listing and the read: the next pass sees it gone
      }
    });
    dirty.forEach(([rel, info], i) => {
      const state = states[i] ?? null;
      if (state === null) return;
      const old = this.map.get(rel);
      if (old?.state.kind === 'file') this.keptBytes -= old.state.size;
      this.record(rel, info, state, scanStart);
      if (firstScan) return;
      if (old === undefined) {
        // Unchanged since before the last scan, so not made by what ran since: it only became
        // visible (a .gitignore line removed). Its ctime would have moved had anything touched it.
        if (Math.max(info.ctimeMs, info.mtimeMs) < this.lastScanStart - RACY_MS) return;
        changes.push({ path: rel, before: null, after: state });
      } else if (!sameState(old.state, state)) {
        changes.push({ path: rel, before: old.state, after: state });
      }
    });
    if (!outcome.truncated) {
      for (const [rel, k] of this.map) {
        if (k.seen === gen) continue;
        // Not listed: gone, or only hidden now (newly ignored, under a new vendored folder).
        // A path that cannot be looked at (a folder above it made unreadable) is not taken for gone.
        const still = stillThere(`${this.opts.root}/${rel}`);
        if (k.state.kind === 'file') this.keptBytes -= k.state.size;
        this.map.delete(rel);
        if (!still && !firstScan) changes.push({ path: rel, before: k.state, after: null });
      }
    }
    const untrackedChanged: string[] = [];
    const nowSkipped = new Map(skipped.filter((s) => s.path.endsWith('/')).map((s) => [s.path, s.mtimeMs]));
    if (!firstScan) {
      for (const [path, mtime] of nowSkipped) if (!this.lastSkipped.has(path) || this.lastSkipped.get(path) !== mtime) untrackedChanged.push(path);
      for (const path of this.lastSkipped.keys()) if (!nowSkipped.has(path) && !outcome.truncated) untrackedChanged.push(path);
    }
    this.lastSkipped = nowSkipped;
    this.lastScanStart = scanStart;
    this.ready = true;
    changes.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    return { changes, skipped, untrackedChanged, truncated: outcome.truncated, ignoredFiles: outcome.ignoredFiles };
  }

  /** Every blob the baseline names (so collection keeps them). */
  hashes(): Set<string> {
    const out = new Set<string>();
    for (const k of this.map.values()) if (k.state.kind === 'file') out.add(k.state.hash);
    return out;
  }

  scanStart(): number {
    return this.lastScanStart;
  }
}

function stillThere(abs: string): boolean {
  try {
    return lstatQuiet(abs) !== undefined;
  } catch {
    return true;
  }
}

/** Runs `task` over `items` with at most `limit` at a time; results in the items' order. */
export async function mapPool<T, R>(items: readonly T[], limit: number, task: (item: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const i = next++;
      out[i] = await task(items[i] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}
