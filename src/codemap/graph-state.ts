/**
 * The reference graph of an open code map: the per-file parts (loaded from the graph store on first
 * use), the files changed since, and the assembled graph. Asking for the graph re-resolves only
 * the parts a change can reach; a project with nothing stored is resolved whole once.
 */
import { assembleGraph, updateFileGraphs, type FileGraph } from './file-graph.js';
import type { CodeGraph } from './graph-types.js';
import { loadGraphStore, saveGraphStore, type Stamp, type StoredGraph } from './graph-store.js';
import type { IndexedFile } from './resolve-names.js';
import type { FileIndex, ProjectFacts } from './types.js';

export interface GraphStateOptions {
  readonly root: string;
  readonly cacheDir: string;
  readonly facts: ProjectFacts;
  /** Every indexed file, its index parsed on first use. */
  files(): ReadonlyMap<string, IndexedFile>;
  /** The stamp of an indexed file; undefined when it is not indexed. */
  stamp(rel: string): Stamp | undefined;
}

export interface GraphState {
  /** The file's index changed (edited, added, deleted); `before`: the index it had. */
  changed(rel: string, before?: () => FileIndex): void;
  /** True when the next graph needs file indexes (something changed, or nothing was stored). */
  needsIndexes(): boolean;
  graph(): CodeGraph;
  /** Writes the parts when they changed since they were loaded. */
  save(): Promise<void>;
}

function sameStamp(a: Stamp | undefined, b: Stamp | undefined): boolean {
  return !!a && !!b && a.size === b.size && a.mtimeMs === b.mtimeMs && a.plugin === b.plugin;
}

export function createGraphState(opts: GraphStateOptions): GraphState {
  /** Loaded (or found missing) on first use. */
  let loaded = false;
  /** The stored graph while nothing has changed since it was written. */
  let stored: StoredGraph | undefined;
  /** The parts, once something had to be resolved. */
  let parts: Map<string, FileGraph> | undefined;
  const pending = new Set<string>();
  /** The index each changed file's part was made from (a file changed more than once: its first). */
  const before = new Map<string, FileIndex>();
  let graph: CodeGraph | undefined;
  let unsaved = false;

  const load = (): void => {
    if (loaded) return;
    loaded = true;
    const found = loadGraphStore(opts.cacheDir, opts.root, opts.facts);
    if (!found) return;
    for (const rel of opts.files().keys()) if (!sameStamp(opts.stamp(rel), found.stamps.get(rel))) pending.add(rel);
    for (const rel of found.files) if (!opts.stamp(rel)) pending.add(rel);
    // Past a third of the project changed, resolving it all again costs about the same.
    if (pending.size * 3 > found.files.length) pending.clear();
    else stored = found;
  };

  const needsIndexes = (): boolean => {
    load();
    return pending.size > 0 || (!stored && !parts && opts.files().size > 0);
  };

  const update = (): CodeGraph => {
    let prev: Map<string, FileGraph> = parts ?? new Map();
    if (!parts && stored) {
      try {
        prev = stored.parts();
      } catch {
        // Stored data we cannot read back: resolve everything.
      }
    }
    parts = updateFileGraphs(prev, opts.files(), pending, opts.facts, before);
    stored = undefined;
    pending.clear();
    before.clear();
    unsaved = true;
    return assembleGraph(parts);
  };

  return {
    changed(rel, was) {
      // A part made from that index: one resolved here, or a stored one whose stamp matched (else it is pending already).
      if (was && loaded && (parts || stored) && !pending.has(rel)) {
        try {
          before.set(rel, was());
        } catch {
          // An old index we cannot read back: the file is treated as changed throughout.
        }
      }
      pending.add(rel);
      graph = undefined;
    },
    needsIndexes,
    graph() {
      if (!graph) {
        if (needsIndexes()) graph = update();
        else if (stored) {
          try {
            graph = stored.graph();
          } catch {
            stored = undefined; // stored data we cannot read back: resolve everything
            graph = update();
          }
        } else graph = assembleGraph(parts ?? new Map());
      }
      return graph;
    },
    async save() {
      if (!unsaved || !parts) return;
      unsaved = false;
      // A part whose file changed since it was made gets no stamp: the next session re-resolves it.
      await saveGraphStore(opts.cacheDir, opts.root, opts.facts, parts, (rel) => (pending.has(rel) ? undefined : opts.stamp(rel)));
    },
  };
}
