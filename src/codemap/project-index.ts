/** The project's index: files → per-file indexes (cached on disk), and the graph built from them. */
import { createHash } from 'node:crypto';
import { stat } from 'node:fs/promises';
import { isAbsolute, join, relative, sep } from 'node:path';
import { buildGraph } from './build-graph.js';
import { createGraphState } from './graph-state.js';
import type { CodeGraph } from './graph-types.js';
import { freshEntry, loadCache, restamped, saveCache, type CacheEntry } from './index-cache.js';
import { indexPath, type FileOutcome } from './index-file.js';
import { pluginKey, type PluginSet } from './plugin-set.js';
import { readProjectFacts } from './project-facts.js';
import type { IndexedFile } from './resolve-names.js';
import type { IndexJob, IndexResult, RunOptions } from './run-indexing.js';
import type { LanguagePlugin, ProjectFacts } from './types.js';
import { SKIPPED_DIRS, walkProject } from './walk-project.js';
import { absent } from '../diagnostics/ignore-error.js';

export interface ProjectIndexOptions {
  readonly root: string;
  readonly cacheDir: string;
  readonly plugins: PluginSet;
  readonly maxFileBytes: number;
  readonly timeoutMs: number;
  readonly maxFiles?: number;
  readonly onProgress?: (done: number, total: number) => void;
  readonly warn: (message: string) => void;
  /** Re-indexes one file for refresh() (a serving worker); default: in this thread. */
  readonly reindex?: (job: IndexJob) => Promise<FileOutcome>;
  /**
   * Called once, during the walk, when a cold index of at least `prestart.files` files is coming (the
   * cache holds nothing, and the walk has found that many): the runner can start its workers then.
   */
  readonly prestart?: { readonly files: number; readonly start: () => void };
  /** Runs the batch of files that need parsing (in a worker or in this thread). */
  readonly runJobs: (jobs: readonly IndexJob[], plugins: PluginSet, opts: RunOptions) => Promise<IndexResult[]>;
}

export interface OpenStats {
  readonly files: number;
  /** Files parsed (their stamp changed, or nothing was cached). */
  readonly reparsed: number;
  /** Files whose stamp changed but whose bytes hash as before: read, not parsed. */
  readonly unchanged: number;
  readonly failed: number;
}

/** The cache entry for a file's outcome (undefined for a failure); `cached` is what an `unchanged` outcome keeps. */
function entryFor(outcome: FileOutcome, stamp: { size: number; mtimeMs: number }, plugin: string, cached: CacheEntry | undefined): CacheEntry | undefined {
  if (!outcome.ok) return undefined;
  if ('unchanged' in outcome) return cached && restamped(cached, stamp.size, stamp.mtimeMs);
  if ('encoded' in outcome) return freshEntry(stamp.size, stamp.mtimeMs, plugin, outcome.encoded, outcome.hash);
  return freshEntry(stamp.size, stamp.mtimeMs, plugin, outcome.index, outcome.hash);
}

export interface ProjectIndex {
  readonly root: string;
  readonly stats: OpenStats;
  graph(): CodeGraph;
  /** The indexed files (relative path → plugin and index, parsed on first use). */
  files(): ReadonlyMap<string, IndexedFile>;
  /** Re-indexes one file now (or forgets it when it is gone). Paths outside the project are ignored. */
  refresh(path: string): Promise<void>;
  /** The file's size and mtime when it was indexed. */
  indexedStamp(rel: string): { size: number; mtimeMs: number } | undefined;
  /** Writes pending cache changes. */
  flush(): Promise<void>;
  /**
   * Gets the graph's inputs ready: when the graph needs file indexes (something changed, nothing
   * stored), reads the cache body a warm start left unread and, if it is damaged, indexes those
   * files again. graph() works without it, but leaves damaged files out.
   */
  prepare(): Promise<void>;
  /** Closes the cache file if its body was never read (the index is unusable afterwards). */
  release(): void;
  /** True while some cached indexes are known damaged and not yet re-indexed (maps made now must not be kept). */
  degraded(): boolean;
  /** Changes whenever a file's stamp, plugin or the project facts change (keys caches of derived data). */
  fingerprint(): string;
}

export function toProjectPath(root: string, path: string): string | undefined {
  const abs = isAbsolute(path) ? path : join(root, path);
  const rel = relative(root, abs);
  if (!rel || rel.startsWith('..') || isAbsolute(rel)) return undefined;
  return rel.split(sep).join('/');
}

export async function openProjectIndex(opts: ProjectIndexOptions): Promise<ProjectIndex> {
  const { root, cacheDir, plugins } = opts;
  // A cold index on its way starts the parse workers while the walk goes on.
  let cold: boolean | undefined;
  let found = 0;
  let prestarted = false;
  const prestart = (): void => {
    if (prestarted || !cold || !opts.prestart || found < opts.prestart.files) return;
    prestarted = true;
    opts.prestart.start();
  };
  const [walk, cache, facts] = await Promise.all([
    walkProject(root, {
      extensions: plugins.extensions(), maxFileBytes: opts.maxFileBytes, maxFiles: opts.maxFiles,
      ...(opts.prestart ? { onProgress: (n: number) => { found = n; prestart(); } } : {}),
    }),
    loadCache(cacheDir, root).then((c) => { cold = c.entries.size === 0; prestart(); return c; }),
    readProjectFacts(root, ['go.mod']),
  ]);
  if (cache.warning) opts.warn(cache.warning);
  const walked = walk.files;
  if (walk.truncated) opts.warn(`the code map covers only ${walked.length} files of this project (the limit); is ${root} really one project?`);
  const entries = new Map<string, CacheEntry>();
  const jobs: IndexJob[] = [];
  const keys = new Map<LanguagePlugin, string>();
  for (const f of walked) {
    const plugin = plugins.forFile(f.rel);
    if (!plugin) continue;
    let key = keys.get(plugin);
    if (key === undefined) keys.set(plugin, (key = pluginKey(plugin)));
    const cached = cache.entries.get(f.rel);
    if (cached && cached.size === f.size && cached.mtimeMs === f.mtimeMs && cached.plugin === key) {
      entries.set(f.rel, cached);
    } else {
      // Touched but maybe not changed (a checkout, a build tool): the worker compares the bytes' hash before parsing.
      const hash = cached && cached.plugin === key && cached.hash ? cached.hash : undefined;
      jobs.push({ rel: f.rel, abs: f.abs, ...(hash ? { hash } : {}) });
    }
  }
  const stats = { files: 0, reparsed: 0, unchanged: 0, failed: 0 };
  /** Indexes `jobs` and stores the results under the stamps they were walked with. */
  const indexJobs = async (batch: readonly IndexJob[], stamps: ReadonlyMap<string, { size: number; mtimeMs: number }>): Promise<void> => {
    const results = await opts.runJobs(batch, plugins, { timeoutMs: opts.timeoutMs, ...(opts.onProgress ? { onProgress: opts.onProgress } : {}) });
    for (const { rel, outcome } of results) {
      const plugin = plugins.forFile(rel)!;
      const entry = entryFor(outcome, stamps.get(rel)!, pluginKey(plugin), cache.entries.get(rel));
      if (outcome.ok && 'unchanged' in outcome) stats.unchanged++;
      else stats.reparsed++;
      if (!entry) {
        stats.failed++;
        entries.delete(rel);
        opts.warn(outcome.ok ? `no cached index of ${rel} to keep` : outcome.error);
        continue;
      }
      entries.set(rel, entry);
    }
    stats.files = entries.size;
  };
  if (jobs.length > 0) await indexJobs(jobs, new Map(walked.map((f) => [f.rel, f])));
  else opts.onProgress?.(walked.length, walked.length);
  stats.files = entries.size;

  let indexed: Map<string, IndexedFile> | undefined;
  let print: string | undefined;
  let bodyBad = false;
  /** Set once the body was dealt with: no entry depends on it any more if it was damaged. */
  let bodySettled = false;
  /** A graph made while the body was damaged (files left out); never stored. */
  let partial: CodeGraph | undefined;
  const changed = (rel?: string, before?: CacheEntry): void => {
    dirty = true;
    partial = undefined;
    print = undefined;
    // One file changed: patch the map the graph reads rather than rebuild it for every file.
    const e = rel === undefined ? undefined : entries.get(rel);
    if (rel === undefined) indexed = undefined;
    else if (e) indexed?.set(rel, indexedFile(rel, e));
    else indexed?.delete(rel);
    if (rel !== undefined) graphs.changed(rel, before && (() => before.index()));
  };
  /** Synchronous check of the cache body, for a graph asked for before prepare(). */
  const bodyUsable = (): boolean => {
    if (!bodySettled && !bodyBad && !cache.loadBody()) {
      bodyBad = true;
      opts.warn('code map cache is corrupt (checksum mismatch); rebuilding it');
    }
    return !bodyBad;
  };

  let checking: Promise<void> | undefined;
  /** Reads the cache body; if it is damaged, indexes the files it held again. */
  const ensureBody = (): Promise<void> => (checking ??= (async () => {
    if (bodyUsable()) {
      bodySettled = true;
      return;
    }
    const redo: IndexJob[] = [];
    const stamps = new Map<string, { size: number; mtimeMs: number }>();
    for (const [rel, e] of entries) {
      if (!e.fromCache) continue;
      redo.push({ rel, abs: join(root, rel) });
      stamps.set(rel, e);
      entries.delete(rel);
    }
    await indexJobs(redo, stamps);
    bodySettled = true;
    bodyBad = false;
    changed();
  })());

  let dirty = jobs.length > 0 || cache.entries.size !== entries.size;
  let pending: Promise<void> = Promise.resolve();
  const flush = async (): Promise<void> => {
    pending = pending.then(async () => {
      if (dirty) {
        dirty = false;
        await ensureBody();
        await saveCache(cacheDir, root, entries);
      }
      await graphs.save();
    }).catch((err: unknown) => {
      opts.warn(`could not write the code map cache: ${(err as Error).message}`);
    });
    return pending;
  };

  const indexedFile = (rel: string, e: CacheEntry): IndexedFile => {
    const plugin = plugins.forFile(rel);
    // A getter, so a file's index is parsed from the cache only when the graph needs it.
    return plugin ? { get index() { return e.index(); }, plugin } : { get index() { return e.index(); } };
  };
  const files = (): ReadonlyMap<string, IndexedFile> => {
    if (!indexed) {
      indexed = new Map();
      for (const [rel, e] of entries) indexed.set(rel, indexedFile(rel, e));
    }
    return indexed;
  };
  const projectFacts: ProjectFacts = facts;
  const graphs = createGraphState({ root, cacheDir, facts: projectFacts, files, stamp: (rel) => entries.get(rel) });
  await flush();
  const fingerprint = (): string => {
    if (print === undefined) {
      const parts = [JSON.stringify(projectFacts)];
      for (const rel of [...entries.keys()].sort()) {
        const e = entries.get(rel)!;
        parts.push(rel, String(e.size), String(e.mtimeMs), e.plugin);
      }
      print = createHash('sha1').update(parts.join('\0')).digest('hex');
    }
    return print;
  };
  const graph = (): CodeGraph => {
    if (!graphs.needsIndexes() || bodyUsable()) return graphs.graph();
    // Asked for synchronously with a damaged body: the files it held are left out until prepare().
    return (partial ??= buildGraph(new Map([...files()].filter(([rel]) => !entries.get(rel)!.fromCache)), projectFacts));
  };

  return {
    root,
    stats,
    files,
    graph,
    indexedStamp: (rel) => entries.get(rel),
    flush,
    prepare: async () => {
      if (graphs.needsIndexes()) await ensureBody();
    },
    degraded: () => bodyBad,
    release: () => cache.release(),
    fingerprint,
    async refresh(path) {
      const rel = toProjectPath(root, path);
      if (!rel || rel.split('/').some((part) => SKIPPED_DIRS.has(part))) return;
      const plugin = plugins.forFile(rel);
      if (!plugin) return;
      const abs = join(root, rel);
      const st = await stat(abs).catch(absent);
      if (!st?.isFile() || st.size > opts.maxFileBytes) {
        if (entries.delete(rel)) changed(rel);
        return;
      }
      const outcome = opts.reindex ? await opts.reindex({ rel, abs }) : await indexPath(plugin, rel, abs, opts.timeoutMs);
      const was = entries.get(rel);
      const entry = entryFor(outcome, st, pluginKey(plugin), was);
      if (!entry) {
        if (!outcome.ok) opts.warn(outcome.error);
        return;
      }
      entries.set(rel, entry);
      changed(rel, was);
    },
  };
}
