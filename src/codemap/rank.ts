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

/** PageRank with uniform teleport; dangling nodes spread their rank evenly. Deterministic for a given graph. */
export function pageRank(graph: CodeGraph): Float64Array {
  const n = graph.symbols.length;
  let rank = new Float64Array(n).fill(n > 0 ? 1 / n : 0);
  if (n === 0) return rank;
  const weights = graph.edges.map((e) => edgeWeight(graph, e));
  const outWeight = new Float64Array(n);
  graph.edges.forEach((e, i) => {
    if (e.from >= 0) outWeight[e.from]! += weights[i]!;
  });
  for (let iter = 0; iter < ITERATIONS; iter++) {
    const next = new Float64Array(n);
    let dangling = 0;
    for (let i = 0; i < n; i++) if (outWeight[i] === 0) dangling += rank[i]!;
    next.fill((1 - DAMPING) / n + (DAMPING * dangling) / n);
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
  const n = graph.symbols.length;
  const scores = new Float64Array(n);
  // How many other files use a symbol is the plainest sign that it is part of the project's API.
  const users = graph.symbols.map(() => new Set<string>());
  for (const e of graph.edges) if (graph.symbols[e.to]!.file !== e.file) users[e.to]!.add(e.file);
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
