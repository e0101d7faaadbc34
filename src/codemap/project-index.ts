/** The project's index: files → per-file indexes (cached on disk), and the graph built from them. */
import { createHash } from 'node:crypto';
import { stat } from 'node:fs/promises';
import { isAbsolute, join, relative, sep } from 'node:path';
import { buildGraph } from './build-graph.js';
import type { CodeGraph } from './graph-types.js';
import { freshEntry, loadCache, saveCache, type CacheEntry } from './index-cache.js';
import { indexPath } from './index-file.js';
import { pluginKey, type PluginSet } from './plugin-set.js';
import { readProjectFacts } from './project-facts.js';
import type { IndexedFile } from './resolve-names.js';
import type { IndexJob, IndexResult, RunOptions } from './run-indexing.js';
import type { ProjectFacts } from './types.js';
import { SKIPPED_DIRS, walkProject } from './walk-project.js';

export interface ProjectIndexOptions {
  readonly root: string;
  readonly cacheDir: string;
  readonly plugins: PluginSet;
  readonly maxFileBytes: number;
  readonly timeoutMs: number;
  readonly maxFiles?: number;
  readonly onProgress?: (done: number, total: number) => void;
  readonly warn: (message: string) => void;
  /** Runs the batch of files that need parsing (in a worker or in this thread). */
  readonly runJobs: (jobs: readonly IndexJob[], plugins: PluginSet, opts: RunOptions) => Promise<IndexResult[]>;
}

export interface OpenStats {
  readonly files: number;
  readonly reparsed: number;
  readonly failed: number;
}

export interface ProjectIndex {
  readonly root: string;
  readonly stats: OpenStats;
  graph(): CodeGraph;
  /** The indexed files (relative path → plugin and index). */
  files(): ReadonlyMap<string, IndexedFile>;
  /** Re-indexes one file now (or forgets it when it is gone). Paths outside the project are ignored. */
  refresh(path: string): Promise<void>;
  /** The file's size and mtime when it was indexed. */
  indexedStamp(rel: string): { size: number; mtimeMs: number } | undefined;
  /** Writes pending cache changes. */
  flush(): Promise<void>;
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
  const [walk, cache, facts] = await Promise.all([
    walkProject(root, { extensions: plugins.extensions(), maxFileBytes: opts.maxFileBytes, maxFiles: opts.maxFiles }),
    loadCache(cacheDir, root),
    readProjectFacts(root, ['go.mod']),
  ]);
  if (cache.warning) opts.warn(cache.warning);
  const walked = walk.files;
  if (walk.truncated) opts.warn(`the code map covers only ${walked.length} files of this project (the limit); is ${root} really one project?`);
  const entries = new Map<string, CacheEntry>();
  const jobs: IndexJob[] = [];
  for (const f of walked) {
    const plugin = plugins.forFile(f.rel);
    if (!plugin) continue;
    const cached = cache.entries.get(f.rel);
    if (cached && cached.size === f.size && cached.mtimeMs === f.mtimeMs && cached.plugin === pluginKey(plugin)) {
      entries.set(f.rel, cached);
    } else jobs.push({ rel: f.rel, abs: f.abs });
  }
  const stamps = new Map(walked.map((f) => [f.rel, f]));
  let failed = 0;
  if (jobs.length > 0) {
    const results = await opts.runJobs(jobs, plugins, { timeoutMs: opts.timeoutMs, ...(opts.onProgress ? { onProgress: opts.onProgress } : {}) });
    for (const { rel, outcome } of results) {
      const plugin = plugins.forFile(rel)!;
      const st = stamps.get(rel)!;
      if (!outcome.ok) {
        failed++;
        opts.warn(outcome.error);
        continue;
      }
      entries.set(rel, freshEntry(st.size, st.mtimeMs, pluginKey(plugin), outcome.index));
    }
  } else opts.onProgress?.(walked.length, walked.length);
  let dirty = jobs.length > 0 || cache.entries.size !== entries.size;
  let pending: Promise<void> = Promise.resolve();
  const flush = async (): Promise<void> => {
    if (!dirty) return pending;
    dirty = false;
    pending = pending.then(() => saveCache(cacheDir, root, entries)).catch((err: unknown) => {
      opts.warn(`could not write the code map cache: ${(err as Error).message}`);
    });
    return pending;
  };
  await flush();

  let graph: CodeGraph | undefined;
  let indexed: Map<string, IndexedFile> | undefined;
  const files = (): ReadonlyMap<string, IndexedFile> => {
    if (!indexed) {
      indexed = new Map();
      for (const [rel, e] of entries) {
        const plugin = plugins.forFile(rel);
        // A getter, so a file's index is parsed from the cache only when the graph is built.
        indexed.set(rel, plugin ? { get index() { return e.index(); }, plugin } : { get index() { return e.index(); } });
      }
    }
    return indexed;
  };
  const projectFacts: ProjectFacts = facts;
  let print: string | undefined;
  const fingerprint = (): string => {
    if (print === undefined) {
      const hash = createHash('sha1').update(JSON.stringify(projectFacts));
      for (const rel of [...entries.keys()].sort()) {
        const e = entries.get(rel)!;
        hash.update(`\0${rel}\0${e.size}\0${e.mtimeMs}\0${e.plugin}`);
      }
      print = hash.digest('hex');
    }
    return print;
  };
  const changed = (): void => {
    dirty = true;
    graph = undefined;
    indexed = undefined;
    print = undefined;
  };

  return {
    root,
    stats: { files: entries.size, reparsed: jobs.length, failed },
    files,
    graph: () => (graph ??= buildGraph(files(), projectFacts)),
    indexedStamp: (rel) => entries.get(rel),
    flush,
    fingerprint,
    async refresh(path) {
      const rel = toProjectPath(root, path);
      if (!rel || rel.split('/').some((part) => SKIPPED_DIRS.has(part))) return;
      const plugin = plugins.forFile(rel);
      if (!plugin) return;
      const abs = join(root, rel);
      const st = await stat(abs).catch(() => undefined);
      if (!st?.isFile() || st.size > opts.maxFileBytes) {
        if (entries.delete(rel)) changed();
        return;
      }
      const outcome = await indexPath(plugin, rel, abs, opts.timeoutMs);
      if (!outcome.ok) {
        opts.warn(outcome.error);
        return;
      }
      entries.set(rel, freshEntry(st.size, st.mtimeMs, pluginKey(plugin), outcome.index));
      changed();
    },
  };
}
