/** Importance of each symbol: PageRank over the reference graph, weighted by exports and entry points. */
import type { CodeGraph } from './graph-types.js';

const DAMPING = 0.85;
const ITERATIONS = 24;
/** A call says more about importance than a type annotation does. */
const EDGE_WEIGHT: Readonly<Record<string, number>> = { calls: 1, extends: 0.8, implements: 0.8, references: 0.4, imports: 0.5 };
const TEST_FILE = /(^|\/)(test|tests|__tests__|spec|e2e)\/|\.(test|spec)\.[^/]+$|_test\.(go|py)$|(^|\/)test_[^/]+\.py$/;

/** PageRank with uniform teleport; dangling nodes spread their rank evenly. Deterministic for a given graph. */
export function pageRank(graph: CodeGraph): Float64Array {
  const n = graph.symbols.length;
  let rank = new Float64Array(n).fill(n > 0 ? 1 / n : 0);
  if (n === 0) return rank;
  const outCount = new Float64Array(n);
  for (const e of graph.edges) if (e.from >= 0) outCount[e.from]! += EDGE_WEIGHT[e.kind] ?? 1;
  for (let iter = 0; iter < ITERATIONS; iter++) {
    const next = new Float64Array(n);
    let dangling = 0;
    for (let i = 0; i < n; i++) if (outCount[i] === 0) dangling += rank[i]!;
    const base = (1 - DAMPING) / n + (DAMPING * dangling) / n;
    next.fill(base);
    for (const e of graph.edges) {
      if (e.from < 0) continue;
      next[e.to]! += (DAMPING * rank[e.from]! * (EDGE_WEIGHT[e.kind] ?? 1)) / outCount[e.from]!;
    }
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
  // Imports and top-level uses are not symbols, so PageRank misses them: count them directly.
  const fileRefs = new Uint32Array(n);
  for (const e of graph.edges) if (e.from < 0) fileRefs[e.to]!++;
  for (const s of graph.symbols) {
    let score = pr[s.id]! * n + 0.25 * Math.log1p(fileRefs[s.id]! + graph.incoming[s.id]!.length);
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
