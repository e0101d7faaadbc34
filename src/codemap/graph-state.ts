/**
 * The reference graph of an open code map: the per-file parts (loaded from the graph store on first
 * use), the files changed since, and the assembled graph. Asking for the graph re-resolves only
 * the parts a change can reach; a project with nothing stored is resolved whole once.
 */
import { assembleGraph, updateFileGraphs, type FileGraph } from './file-graph.js';
import type { CodeGraph } from './graph-types.js';
import { loadGraphStore, saveGraphStore, type Stamp } from './graph-store.js';
import type { IndexedFile } from './resolve-names.js';
import type { ProjectFacts } from './types.js';

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
  /** The file's index changed (edited, added, deleted). */
  changed(rel: string): void;
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
  let parts: Map<string, FileGraph> | undefined;
  const pending = new Set<string>();
  let graph: CodeGraph | undefined;
  let unsaved = false;

  const load = (): Map<string, FileGraph> => {
    if (parts) return parts;
    parts = new Map();
    const stored = loadGraphStore(opts.cacheDir, opts.root, opts.facts);
    if (!stored) return parts;
    for (const rel of opts.files().keys()) if (!sameStamp(opts.stamp(rel), stored.stamps.get(rel))) pending.add(rel);
    for (const rel of stored.parts.keys()) if (!opts.stamp(rel)) pending.add(rel);
    // Past a third of the project changed, resolving it all again costs about the same.
    if (pending.size * 3 > stored.parts.size) pending.clear();
    else parts = stored.parts;
    return parts;
  };

  const needsIndexes = (): boolean => {
    const current = load();
    return pending.size > 0 || (current.size === 0 && opts.files().size > 0);
  };

  return {
    changed(rel) {
      pending.add(rel);
      graph = undefined;
    },
    needsIndexes,
    graph() {
      if (!graph) {
        if (needsIndexes()) {
          parts = updateFileGraphs(load(), opts.files(), pending, opts.facts);
          pending.clear();
          unsaved = true;
        }
        graph = assembleGraph(load());
      }
      return graph;
    },
    async save() {
      if (!unsaved || !parts) return;
      unsaved = false;
      const snapshot = parts;
      // A part whose file changed since it was made gets no stamp: the next session re-resolves it.
      await saveGraphStore(opts.cacheDir, opts.root, opts.facts, snapshot, (rel) => (pending.has(rel) ? undefined : opts.stamp(rel)));
    },
  };
}
