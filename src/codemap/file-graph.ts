/**
 * The graph kept per file, so an edit re-resolves only the files it can affect. Each file holds its
 * symbols, its references resolved to (file, symbol index in that file), and what resolving them
 * read: the files its imports reach (through re-exports) and the names it looked up project-wide.
 * A change to file X can alter another file's answers only through those, so a file whose reach
 * and names miss X keeps its answers; the assembled graph is the one a full build makes.
 */
import type { CodeGraph, GraphEdge, GraphEdgeKind, ProjectSymbol } from './graph-types.js';
import { createNameResolver, type IndexedFile, type NameResolver } from './resolve-names.js';
import { mentions, shapeChange, type ShapeChange } from './graph-shape.js';
import type { FileIndex, ProjectFacts, SymbolInfo } from './types.js';

export const EDGE_KINDS: readonly GraphEdgeKind[] = ['calls', 'references', 'extends', 'implements', 'imports', 'possible'];
const EDGE_KIND_INDEX = new Map(EDGE_KINDS.map((k, i) => [k, i]));
const TYPE_KINDS = new Set(['class', 'interface', 'type', 'enum']);

export interface FileGraph {
  /**
   * In line order; a symbol's id is its file's offset plus its index here. They may be the
   * ProjectSymbols of an assembled graph: reused as they are while their id still fits.
   */
  readonly symbols: readonly SymbolInfo[];
  /**
   * Resolved references, four numbers each (flat, as they are stored): from (symbol index in this
   * file, -1 for top level), target symbol index in its file, kind (index in EDGE_KINDS), line.
   */
  readonly edges: readonly number[];
  /** The target file of each edge. */
  readonly targets: readonly string[];
  /** Files whose declarations the answers may have read: import targets and their re-exports, transitively. */
  readonly deps: readonly string[];
  /** Names looked up project-wide. */
  readonly names: readonly string[];
  /** Each import source with the files it named, to notice a file added or deleted changing them. */
  readonly imports: readonly (readonly [string, readonly string[]])[];
}

export function sortedSymbols(symbols: readonly SymbolInfo[]): SymbolInfo[] {
  return [...symbols].sort((a, b) => a.startLine - b.startLine || a.endLine - b.endLine);
}

interface Tables {
  readonly symbols: ProjectSymbol[];
  readonly byFile: Map<string, number[]>;
  readonly byName: Map<string, number[]>;
  readonly start: Map<string, number>;
}

/** One shape for every symbol (no spread of optional fields): thousands are made per graph. */
export function projectSymbol(s: SymbolInfo, id: number, file: string): ProjectSymbol {
  const out: { -readonly [K in keyof ProjectSymbol]: ProjectSymbol[K] } = {
    name: s.name, kind: s.kind, startLine: s.startLine, endLine: s.endLine, exported: s.exported, signature: s.signature,
    id, file, qualified: s.container ? `${s.container}.${s.name}` : s.name,
  };
  if (s.container) out.container = s.container;
  if (s.isDefault) out.isDefault = true;
  return out;
}

function symbolTables(lists: ReadonlyMap<string, readonly SymbolInfo[]>): Tables {
  const symbols: ProjectSymbol[] = [];
  const byFile = new Map<string, number[]>();
  const byName = new Map<string, number[]>();
  const start = new Map<string, number>();
  for (const file of [...lists.keys()].sort()) {
    const ids: number[] = [];
    start.set(file, symbols.length);
    for (const s of lists.get(file)!) {
      const id = symbols.length;
      const known = s as Partial<ProjectSymbol>;
      symbols.push(known.id === id && known.file === file ? (s as ProjectSymbol) : projectSymbol(s, id, file));
      ids.push(id);
      const list = byName.get(s.name);
      if (list) list.push(id);
      else byName.set(s.name, [id]);
    }
    byFile.set(file, ids);
  }
  return { symbols, byFile, byName, start };
}

const NONE: readonly number[] = Object.freeze([]);

/** A graph's edges and each symbol's outgoing / incoming edge indexes, filled in one pass. */
export interface EdgeLists {
  readonly edges: GraphEdge[];
  readonly outgoing: (readonly number[])[];
  readonly incoming: (readonly number[])[];
  add(edge: GraphEdge): void;
}

export function edgeLists(symbolCount: number): EdgeLists {
  const edges: GraphEdge[] = [];
  // Most symbols have no edges one way or the other: they share one empty list.
  const outgoing = new Array<readonly number[]>(symbolCount).fill(NONE);
  const incoming = new Array<readonly number[]>(symbolCount).fill(NONE);
  const note = (lists: (readonly number[])[], at: number, index: number): void => {
    const list = lists[at]!;
    if (list === NONE) lists[at] = [index];
    else (list as number[]).push(index);
  };
  return {
    edges,
    outgoing,
    incoming,
    add(edge) {
      const index = edges.length;
      edges.push(edge);
      if (edge.from >= 0) note(outgoing, edge.from, index);
      note(incoming, edge.to, index);
    },
  };
}

/**
 * The symbol tables updateFileGraphs made for the parts it returned (the same symbols, in the same
 * order): assembling those parts does not make them again (on 5,000 files, a sixth of an edit's update).
 */
const tablesOf = new WeakMap<ReadonlyMap<string, FileGraph>, Tables>();

/** The global graph from the per-file parts (linear; no name is resolved here). */
export function assembleGraph(parts: ReadonlyMap<string, FileGraph>): CodeGraph {
  const { symbols, byFile, byName, start } = tablesOf.get(parts) ?? symbolTables(new Map([...parts].map(([f, p]) => [f, p.symbols])));
  const lists = edgeLists(symbols.length);
  for (const file of [...parts.keys()].sort()) {
    const base = start.get(file)!;
    const { edges: flat, targets } = parts.get(file)!;
    for (let i = 0, e = 0; i < flat.length; i += 4, e++) {
      const toBase = start.get(targets[e]!);
      if (toBase === undefined) continue;
      const from = flat[i]! >= 0 ? base + flat[i]! : -1;
      lists.add({ from, to: toBase + flat[i + 1]!, kind: EDGE_KINDS[flat[i + 2]!]!, file, line: flat[i + 3]! });
    }
  }
  const { edges, outgoing, incoming } = lists;
  return { symbols, edges, outgoing, incoming, byName, byFile };
}

function resolveOne(file: string, files: ReadonlyMap<string, IndexedFile>, t: Tables, resolver: NameResolver,
  namesOf: (file: string) => readonly string[], readsOf: (file: string) => readonly string[]): FileGraph {
  const index = files.get(file)!.index;
  const edges: number[] = [];
  const targets: string[] = [];
  const base = t.start.get(file)!;
  let last: { from: number; to: number; kind: GraphEdgeKind; line: number } | undefined;
  const push = (from: number, to: number, kind: GraphEdgeKind, line: number): void => {
    // Plugins list raw edges once per line; two names on a line that meet in one symbol are adjacent.
    if (last && last.from === from && last.to === to && last.kind === kind && last.line === line) return;
    const target = t.symbols[to]!;
    // The name on its own declaration line (`self.x = ...` declaring the field x) is not a use of it.
    if (kind === 'references' && target.file === file && target.startLine === line) return;
    last = { from, to, kind, line };
    edges.push(from >= 0 ? from - base : -1, to - t.start.get(target.file)!, EDGE_KIND_INDEX.get(kind)!, line);
    targets.push(target.file);
  };
  for (const raw of index.edges) {
    const from = raw.from ? resolver.local(file, raw.from) ?? -1 : -1;
    const to = resolver.resolve(file, raw.from, raw.to, raw.via);
    if (to === undefined && raw.kind === 'calls') {
      for (const maybe of resolver.possible(file, raw.from, raw.to)) if (maybe !== from) push(from, maybe, 'possible', raw.line);
    }
    if (to === undefined || to === from) continue;
    push(from, to, raw.kind, raw.line);
    // `Type.method()` / `Type::new()` is a use of the type as well.
    const dot = raw.to.indexOf('.');
    if (raw.kind === 'calls' && dot > 0 && raw.via === undefined) {
      const head = resolver.resolve(file, raw.from, raw.to.slice(0, dot));
      if (head !== undefined && head !== to && head !== from && TYPE_KINDS.has(t.symbols[head]!.kind) && t.symbols[to]!.container !== undefined) {
        push(from, head, 'references', raw.line);
      }
    }
  }
  const deps = new Set<string>(readsOf(file));
  deps.delete(file);
  const imports: [string, readonly string[]][] = [];
  const reach = (at: string): void => {
    for (const imp of files.get(at)?.index.imports ?? []) {
      if (at !== file && !imp.reexport) continue;
      const targets = resolver.targets(at, imp.source);
      if (at === file) imports.push([imp.source, targets]);
      for (const target of targets) {
        if (target === file || deps.has(target)) continue;
        deps.add(target);
        reach(target);
      }
    }
  };
  reach(file);
  const symbols = t.symbols.slice(base, base + (t.byFile.get(file)?.length ?? 0));
  return { symbols, edges, targets, deps: [...deps], names: namesOf(file), imports };
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

/**
 * The per-file parts for `files` given the previous parts and the files whose index changed
 * (edited, added or deleted) since. With no previous parts every file is resolved.
 */
export function updateFileGraphs(prev: ReadonlyMap<string, FileGraph>, files: ReadonlyMap<string, IndexedFile>,
  changed: ReadonlySet<string>, facts: ProjectFacts, before: ReadonlyMap<string, FileIndex> = new Map()): Map<string, FileGraph> {
  const fresh = (f: string): boolean => changed.has(f) || !prev.has(f);
  const lists = new Map<string, readonly SymbolInfo[]>();
  for (const f of files.keys()) lists.set(f, fresh(f) ? sortedSymbols(files.get(f)!.index.symbols) : prev.get(f)!.symbols);
  /** Changed files whose outward shape held but for some names (`before`: the index each one's part was made from). */
  const shaped = new Map<string, ShapeChange>();
  for (const f of changed) {
    const was = before.get(f);
    const now = files.get(f);
    const change = was && now && prev.has(f) ? shapeChange(was, now.index, sortedSymbols(was.symbols), lists.get(f)!) : undefined;
    if (change) shaped.set(f, change);
  }
  const tables = symbolTables(lists);
  const names = new Map<string, Set<string>>();
  const reads = new Map<string, Set<string>>();
  const note = (map: Map<string, Set<string>>, file: string, value: string): void => {
    let set = map.get(file);
    if (!set) map.set(file, (set = new Set()));
    set.add(value);
  };
  const resolver = createNameResolver({
    files, symbols: tables.symbols, byFile: tables.byFile, byName: tables.byName, facts,
    onGlobalName: (file, name) => note(names, file, name),
    onRead: (file, read) => note(reads, file, read),
  });
  const touched = new Set<string>();
  const declared = new Set<string>();
  for (const f of changed) {
    const change = shaped.get(f);
    if (change) {
      for (const n of change.names) declared.add(n);
      continue;
    }
    touched.add(f);
    for (const s of prev.get(f)?.symbols ?? []) declared.add(s.name);
    for (const s of lists.get(f) ?? []) declared.add(s.name);
  }
  for (const f of files.keys()) if (!prev.has(f)) touched.add(f);
  const fileSetChanged = [...touched].some((f) => !prev.has(f) || !files.has(f));
  if (fileSetChanged) {
    // A file that appeared or went away can change where an import leads.
    for (const [f, part] of prev) {
      if (!files.has(f) || touched.has(f)) continue;
      if (part.imports.some(([source, was]) => !sameList(was, resolver.targets(f, source)))) touched.add(f);
    }
  }
  const affected = (f: string, part: FileGraph): boolean =>
    part.deps.some((d) => touched.has(d) || (shaped.has(d) && mentions(files.get(f)!.index, shaped.get(d)!.names)))
    || part.names.some((n) => declared.has(n));
  const next = new Map<string, FileGraph>();
  for (const f of [...files.keys()].sort()) {
    const part = prev.get(f);
    const kept = part && !touched.has(f) && !shaped.has(f) && !affected(f, part) ? moveEdges(part, shaped) : undefined;
    next.set(f, kept ? withTableSymbols(kept, f, tables) : resolveOne(f, files, tables, resolver, (file) => [...(names.get(file) ?? [])], (file) => [...(reads.get(file) ?? [])]));
  }
  tablesOf.set(next, tables);
  return next;
}

/**
 * A kept part holding the tables' symbols: when an edit before it in file order moved its ids,
 * the ProjectSymbols made for the new ids (kept, they are reused as they are by the next update).
 */
function withTableSymbols(part: FileGraph, file: string, t: Tables): FileGraph {
  const base = t.start.get(file)!;
  const first = part.symbols[0] as Partial<ProjectSymbol> | undefined;
  if (!first || (first.id === base && first.file === file)) return part;
  return { ...part, symbols: t.symbols.slice(base, base + part.symbols.length) };
}

/** A kept part with its edges into reshaped files moved to their symbols' new indexes; undefined when one's target went away. */
function moveEdges(part: FileGraph, shaped: ReadonlyMap<string, ShapeChange>): FileGraph | undefined {
  if (shaped.size === 0 || !part.targets.some((t) => shaped.has(t))) return part;
  const edges = [...part.edges];
  for (let e = 0; e < part.targets.length; e++) {
    const change = shaped.get(part.targets[e]!);
    if (!change) continue;
    const to = change.moved[edges[e * 4 + 1]!];
    if (to === undefined || to < 0) return undefined;
    edges[e * 4 + 1] = to;
  }
  return { ...part, edges };
}
