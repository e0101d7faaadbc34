/** Finds symbols by the name the model wrote: bare or qualified, narrowed by file; suggests near names. */
import type { CodeGraph, ProjectSymbol } from './graph-types.js';

export type Lookup =
  | { readonly kind: 'found'; readonly symbol: ProjectSymbol }
  | { readonly kind: 'ambiguous'; readonly candidates: readonly ProjectSymbol[] }
  | { readonly kind: 'unknown'; readonly suggestions: readonly string[] };

function matchesFile(symbolFile: string, file: string): boolean {
  const wanted = file.replace(/\\/g, '/').replace(/^\.\//, '');
  return symbolFile === wanted || symbolFile.endsWith(`/${wanted}`);
}

/** Edit distance with an early exit once it exceeds `max`. */
function distance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      const v = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
      cur.push(v);
      if (v < best) best = v;
    }
    if (best > max) return max + 1;
    prev = cur;
  }
  return prev[b.length]!;
}

export function suggestNames(graph: CodeGraph, name: string, limit = 8): string[] {
  const wanted = name.split('.').pop()!.toLowerCase();
  const max = Math.max(2, Math.floor(wanted.length / 3));
  const scored: { label: string; score: number }[] = [];
  const seen = new Set<string>();
  for (const s of graph.symbols) {
    const label = s.qualified;
    if (seen.has(label)) continue;
    const lower = s.name.toLowerCase();
    const d = lower.includes(wanted) || wanted.includes(lower) ? (lower === wanted ? 0 : 1) : distance(lower, wanted, max);
    if (d > max) continue;
    seen.add(label);
    scored.push({ label: `${label} (${s.file}:${s.startLine})`, score: d });
  }
  scored.sort((a, b) => a.score - b.score || (a.label < b.label ? -1 : 1));
  return scored.slice(0, limit).map((s) => s.label);
}

export function lookupSymbol(graph: CodeGraph, name: string, file?: string): Lookup {
  const clean = name.trim().replace(/::/g, '.').replace(/#/g, '.').replace(/\(\)$/, '');
  const last = clean.split('.').pop()!;
  let candidates = (graph.byName.get(last) ?? []).map((id) => graph.symbols[id]!);
  if (clean.includes('.')) candidates = candidates.filter((s) => s.qualified === clean || s.qualified.endsWith(`.${clean}`));
  if (file) candidates = candidates.filter((s) => matchesFile(s.file, file));
  if (candidates.length === 1) return { kind: 'found', symbol: candidates[0]! };
  if (candidates.length > 1) {
    // A class and its constructor, or a top-level name and same-named members: prefer the top level.
    const top = candidates.filter((s) => !s.container);
    if (top.length === 1 && !clean.includes('.')) return { kind: 'found', symbol: top[0]! };
    return { kind: 'ambiguous', candidates };
  }
  return { kind: 'unknown', suggestions: suggestNames(graph, clean) };
}
