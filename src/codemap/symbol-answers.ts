/**
 * The answers of find_references and get_dependencies as edges between code map symbols: from the
 * TypeScript checker for TS/JS symbols, from the resolved index for the other languages (and for
 * TS/JS when the checker cannot answer). Sure references and possible ones (a method name called
 * on a receiver whose type is unknown) are kept apart.
 */
import type { CheckerHit, CheckerTarget } from './checker-protocol.js';
import type { CodeGraph, ProjectSymbol } from './graph-types.js';
import type { SymbolSource } from './tool-support.js';
import type { EdgeKind } from './types.js';

export interface Reference {
  readonly file: string;
  readonly line: number;
  readonly kind: EdgeKind;
  /** The referencing symbol's id, -1 for top level. */
  readonly from: number;
}

export interface References {
  readonly sure: readonly Reference[];
  readonly possible: readonly Reference[];
  /** Why the checker was not used, when it should have been (the answer is then partial: the syntax index's). */
  readonly note?: string;
}

/** The words a fallback answer starts its note with, and a tool's summary carries. */
export const PARTIAL = 'partial';

export interface Dependency {
  readonly to: number;
  readonly kind: EdgeKind;
}

export function checkerTarget(s: ProjectSymbol): CheckerTarget {
  return { file: s.file, line: s.startLine, endLine: s.endLine, name: s.name };
}

/** The innermost symbol of `file` whose lines hold `line`; -1 for none (top level). */
export function enclosingSymbol(graph: CodeGraph, file: string, line: number): number {
  let best = -1;
  let span = Infinity;
  for (const id of graph.byFile.get(file) ?? []) {
    const s = graph.symbols[id]!;
    if (s.startLine > line) break;
    if (line <= s.endLine && s.endLine - s.startLine <= span) {
      best = id;
      span = s.endLine - s.startLine;
    }
  }
  return best;
}

/** The symbol a checker hit declares: named as the hit says, its lines holding the hit's line. */
function declaredAt(graph: CodeGraph, hit: CheckerHit): number | undefined {
  let best: number | undefined;
  let span = Infinity;
  for (const id of graph.byFile.get(hit.file) ?? []) {
    const s = graph.symbols[id]!;
    if (s.startLine > hit.line) break;
    if (s.name === hit.name && hit.line <= s.endLine && s.endLine - s.startLine < span) {
      best = id;
      span = s.endLine - s.startLine;
    }
  }
  return best;
}

const byPlace = (graph: CodeGraph) => (a: Reference, b: Reference): number => {
  if (a.file !== b.file) return a.file < b.file ? -1 : 1;
  // Grouped by the referencing symbol (in its order in the file), top level first.
  const sa = a.from >= 0 ? graph.symbols[a.from]!.startLine : 0;
  const sb = b.from >= 0 ? graph.symbols[b.from]!.startLine : 0;
  return sa - sb || a.from - b.from || a.line - b.line;
};

function fromIndex(graph: CodeGraph, defs: readonly ProjectSymbol[]): References {
  const sure: Reference[] = [];
  const possible: Reference[] = [];
  const seen = new Set<string>();
  for (const d of defs) {
    for (const e of graph.incoming[d.id] ?? []) {
      const edge = graph.edges[e]!;
      const key = `${edge.file}:${edge.line}:${edge.kind}:${edge.from}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const ref = { file: edge.file, line: edge.line, kind: edge.kind === 'possible' ? 'calls' as const : edge.kind, from: edge.from };
      (edge.kind === 'possible' ? possible : sure).push(ref);
    }
  }
  return { sure: sure.sort(byPlace(graph)), possible: possible.sort(byPlace(graph)) };
}

export async function findReferences(source: SymbolSource, graph: CodeGraph, defs: readonly ProjectSymbol[]): Promise<References> {
  const first = defs[0]!;
  if (!source.askChecker || !source.checked?.(first.file)) return fromIndex(graph, defs);
  const answer = await source.askChecker({ op: 'references', targets: [checkerTarget(first)] });
  const result = answer.ok ? answer.results[0] : undefined;
  if (!result?.found) {
    const why = answer.ok ? `the checker did not find the declaration at ${first.file}:${first.startLine}` : answer.error;
    const head = answer.ok || !answer.late ? `${PARTIAL} answer: ${why}` : why;
    return { ...fromIndex(graph, defs), note: `${head}; these references come from the syntax index (methods called through values it cannot type are missing)` };
  }
  const sure = result.hits.map((h) => ({ file: h.file, line: h.line, kind: h.kind, from: enclosingSymbol(graph, h.file, h.line) }));
  return { sure: sure.sort(byPlace(graph)), possible: [] };
}

/** Kinds a dependency can be of, whatever the use; variables and properties count when called. */
const DEPENDENCY_KINDS = new Set(['function', 'method', 'class', 'interface', 'type', 'enum', 'namespace', 'module']);

function inside(graph: CodeGraph, root: ProjectSymbol, id: number): boolean {
  const s = graph.symbols[id]!;
  return id === root.id || (s.file === root.file && s.startLine >= root.startLine && s.endLine <= root.endLine);
}

function indexDependencies(graph: CodeGraph, root: ProjectSymbol): Dependency[] {
  const out: Dependency[] = [];
  // A class (or namespace) depends on what its members use.
  const ids = [root.id, ...(graph.byFile.get(root.file) ?? []).filter((id) => id !== root.id && inside(graph, root, id))];
  for (const id of ids) {
    for (const e of graph.outgoing[id] ?? []) {
      const edge = graph.edges[e]!;
      if (edge.kind === 'imports' || edge.kind === 'possible' || inside(graph, root, edge.to)) continue;
      out.push({ to: edge.to, kind: edge.kind });
    }
  }
  return out;
}

/** The direct dependencies of one symbol per target, from the checker or the index. */
async function directDependencies(source: SymbolSource, graph: CodeGraph, targets: readonly ProjectSymbol[],
  indexOnly = false): Promise<{ lists: Dependency[][]; note?: string; late?: boolean }> {
  const lists: Dependency[][] = targets.map(() => []);
  const viaChecker: number[] = [];
  targets.forEach((t, i) => {
    if (!indexOnly && source.askChecker && source.checked?.(t.file)) viaChecker.push(i);
    else lists[i] = indexDependencies(graph, t);
  });
  let note: string | undefined;
  if (viaChecker.length === 0) return { lists };
  const answer = await source.askChecker!({ op: 'dependencies', targets: viaChecker.map((i) => checkerTarget(targets[i]!)) });
  viaChecker.forEach((i, k) => {
    const target = targets[i]!;
    const result = answer.ok ? answer.results[k] : undefined;
    if (!result?.found) {
      const why = answer.ok ? `the checker did not find ${target.qualified} at ${target.file}:${target.startLine}` : answer.error;
      note ??= `${answer.ok || !answer.late ? `${PARTIAL} answer: ${why}` : why}; dependencies from the syntax index`;
      lists[i] = indexDependencies(graph, target);
      return;
    }
    for (const hit of result.hits) {
      if (hit.kind === 'imports') continue;
      const to = declaredAt(graph, hit);
      if (to === undefined || inside(graph, target, to)) continue;
      if (!DEPENDENCY_KINDS.has(graph.symbols[to]!.kind) && hit.kind !== 'calls') continue;
      lists[i]!.push({ to, kind: hit.kind });
    }
  });
  return { lists, ...(note ? { note } : {}), ...(!answer.ok && answer.late ? { late: true } : {}) };
}

/**
 * Each symbol's direct dependencies, for every symbol a tree of `depth` levels from the root
 * (`defs`: its definitions, several for overloads) reaches; at most `limit` symbols are asked.
 */
export async function dependencyLevels(source: SymbolSource, graph: CodeGraph, defs: readonly ProjectSymbol[],
  depth: number, limit = 200): Promise<{ children: Map<number, Dependency[]>; note?: string }> {
  const children = new Map<number, Dependency[]>();
  const root = defs[0]!;
  const first = await directDependencies(source, graph, defs);
  children.set(root.id, first.lists.flat().filter((d) => !defs.some((def) => def.id === d.to)));
  let frontier = [...new Set(children.get(root.id)!.map((d) => d.to))];
  // A checker that missed its budget is not waited for again in the same call.
  let late = first.late === true;
  for (let level = 2; level <= depth && frontier.length > 0 && children.size < limit; level++) {
    const ask = frontier.filter((id) => !children.has(id)).slice(0, limit - children.size);
    const next = await directDependencies(source, graph, ask.map((id) => graph.symbols[id]!), late);
    late ||= next.late === true;
    const { lists } = next;
    ask.forEach((id, i) => children.set(id, lists[i]!));
    frontier = [...new Set(ask.flatMap((id) => children.get(id)!.map((d) => d.to)))];
  }
  return { children, ...(first.note ? { note: first.note } : {}) };
}
