/** Importance of each symbol: PageRank over the reference graph, weighted by exports and entry points. */
import type { CodeGraph, GraphEdge } from './graph-types.js';

const DAMPING = 0.85;
const ITERATIONS = 24;
/** A call says more about importance than a type annotation does. */
const EDGE_WEIGHT: Readonly<Record<string, number>> = { calls: 1, extends: 0.8, implements: 0.8, references: 0.4, imports: 0.5, possible: 0.15 };
const TEST_FILE = /(^|\/)(test|tests|__tests__|spec|e2e)\/|\.(test|spec)\.[^/]+$|_test\.(go|py)$|(^|\/)test_[^/]+\.py$/;

/** Recursion and helpers inside one file say little about a symbol's place in the project. */
const SAME_FILE_WEIGHT = 0.3;

/** Every tunable number of the ranking, so stored maps are keyed by them (map-cache.ts). */
export const RANK_SETTINGS = { DAMPING, ITERATIONS, EDGE_WEIGHT, TEST_FILE: TEST_FILE.source, SAME_FILE_WEIGHT } as const;

function edgeWeight(graph: CodeGraph, e: GraphEdge): number {
  const w = EDGE_WEIGHT[e.kind] ?? 1;
  return graph.symbols[e.to]!.file === e.file ? w * SAME_FILE_WEIGHT : w;
}

/**
 * Interface members are never map lines of their own (their interface's `{ … }` is): a use of one
 * counts for the interface, so the ranking is the one the interface had before members were symbols.
 */
function rankedAs(graph: CodeGraph): Int32Array {
  const to = new Int32Array(graph.symbols.length);
  const interfaces = new Map<string, number>();
  for (const s of graph.symbols) if (s.kind === 'interface') interfaces.set(`${s.file}\0${s.qualified}`, s.id);
  for (const s of graph.symbols) to[s.id] = (s.container ? interfaces.get(`${s.file}\0${s.container}`) : undefined) ?? s.id;
  return to;
}

/** PageRank with uniform teleport; dangling nodes spread their rank evenly. Deterministic for a given graph. */
export function pageRank(graph: CodeGraph): Float64Array {
  const as = rankedAs(graph);
  const redirected = graph.edges.some((e) => as[e.to] !== e.to || (e.from >= 0 && as[e.from] !== e.from));
  if (redirected) {
    const edges = graph.edges.map((e) => ({ ...e, to: as[e.to]!, from: e.from >= 0 ? as[e.from]! : -1 })).filter((e) => e.to !== e.from);
    const members = new Set(graph.symbols.filter((s) => as[s.id] !== s.id).map((s) => s.id));
    // Ids stay as they are (members keep a rank of 0): only the edges and the node count change.
    return pageRankOf({ ...graph, edges }, graph.symbols.length, graph.symbols.length - members.size, members);
  }
  return pageRankOf(graph, graph.symbols.length, graph.symbols.length, new Set());
}

function pageRankOf(graph: CodeGraph, size: number, live: number, skipped: ReadonlySet<number>): Float64Array {
  const n = size;
  let rank = new Float64Array(n).fill(live > 0 ? 1 / live : 0);
  for (const id of skipped) rank[id] = 0;
  if (n === 0) return rank;
  const weights = graph.edges.map((e) => edgeWeight(graph, e));
  const outWeight = new Float64Array(n);
  graph.edges.forEach((e, i) => {
    if (e.from >= 0) outWeight[e.from]! += weights[i]!;
  });
  for (let iter = 0; iter < ITERATIONS; iter++) {
    const next = new Float64Array(n);
    let dangling = 0;
    for (let i = 0; i < n; i++) if (outWeight[i] === 0 && !skipped.has(i)) dangling += rank[i]!;
    next.fill((1 - DAMPING) / live + (DAMPING * dangling) / live);
    for (const id of skipped) next[id] = 0;
    graph.edges.forEach((e, i) => {
      if (e.from >= 0) next[e.to]! += (DAMPING * rank[e.from]! * weights[i]!) / outWeight[e.from]!;
    });
    rank = next;
  }
  return rank;
}

export interface RankInput {
  readonly graph: CodeGraph;
  /** Project-relative files that are entry points (package.json main/bin/exports, main.go …). */
  readonly entryFiles: ReadonlySet<string>;
}

/** A score per symbol id; higher is more important. Mean is about 1 for an average symbol. */
export function scoreSymbols({ graph, entryFiles }: RankInput): Float64Array {
  const pr = pageRank(graph);
  const as = rankedAs(graph);
  const n = graph.symbols.filter((s) => as[s.id] === s.id).length;
  const scores = new Float64Array(n);
  // How many other files use a symbol is the plainest sign that it is part of the project's API.
  const users = graph.symbols.map(() => new Set<string>());
  for (const e of graph.edges) if (graph.symbols[e.to]!.file !== e.file) users[as[e.to]!]!.add(e.file);
  for (const s of graph.symbols) {
    let score = pr[s.id]! * n + 1.5 * Math.log2(1 + users[s.id]!.size);
    if (s.exported) score *= 1.5;
    if (entryFiles.has(s.file)) score *= 2;
    if (s.container && !s.exported) score *= 0.4;
    if (s.kind === 'property' || (s.kind === 'variable' && !s.exported)) score *= 0.6;
    if (s.kind === 'interface' || s.kind === 'type') score *= 0.8;
    if (TEST_FILE.test(s.file)) score *= 0.3;
    scores[s.id] = score;
  }
  return scores;
}
