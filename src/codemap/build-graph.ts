/** Builds the project graph: numbers every symbol, then resolves each raw edge to at most one target. */
import type { CodeGraph, GraphEdge, ProjectSymbol } from './graph-types.js';
import { createNameResolver, type IndexedFile } from './resolve-names.js';
import type { ProjectFacts } from './types.js';

export function buildGraph(files: ReadonlyMap<string, IndexedFile>, facts: ProjectFacts): CodeGraph {
  const symbols: ProjectSymbol[] = [];
  const byFile = new Map<string, number[]>();
  const byName = new Map<string, number[]>();
  const paths = [...files.keys()].sort();
  for (const file of paths) {
    const ids: number[] = [];
    const sorted = [...files.get(file)!.index.symbols].sort((a, b) => a.startLine - b.startLine || a.endLine - b.endLine);
    for (const s of sorted) {
      const id = symbols.length;
      symbols.push({ ...s, id, file, qualified: s.container ? `${s.container}.${s.name}` : s.name });
      ids.push(id);
      const list = byName.get(s.name);
      if (list) list.push(id);
      else byName.set(s.name, [id]);
    }
    byFile.set(file, ids);
  }
  const resolver = createNameResolver({ files, symbols, byFile, byName, facts });
  const edges: GraphEdge[] = [];
  const outgoing: number[][] = symbols.map(() => []);
  const incoming: number[][] = symbols.map(() => []);
  for (const file of paths) {
    let last: GraphEdge | undefined;
    for (const raw of files.get(file)!.index.edges) {
      const from = raw.from ? resolver.local(file, raw.from) ?? -1 : -1;
      const to = resolver.resolve(file, raw.from, raw.to);
      if (to === undefined || to === from) continue;
      // Plugins list raw edges once per line; two names on a line that meet in one symbol are adjacent.
      if (last && last.from === from && last.to === to && last.kind === raw.kind && last.line === raw.line) continue;
      const index = edges.length;
      last = { from, to, kind: raw.kind, file, line: raw.line };
      edges.push(last);
      if (from >= 0) outgoing[from]!.push(index);
      incoming[to]!.push(index);
    }
  }
  return { symbols, edges, outgoing, incoming, byName, byFile };
}
