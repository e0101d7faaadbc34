/** Builds the project graph in one go: every file's references resolved (see file-graph.ts). */
import { assembleGraph, updateFileGraphs } from './file-graph.js';
import type { CodeGraph } from './graph-types.js';
import type { IndexedFile } from './resolve-names.js';
import type { ProjectFacts } from './types.js';

export function buildGraph(files: ReadonlyMap<string, IndexedFile>, facts: ProjectFacts): CodeGraph {
  return assembleGraph(updateFileGraphs(new Map(), files, new Set(), facts));
}
