/** Finds symbols by the name the model wrote: bare or qualified, narrowed by file; suggests near names. */
import type { CodeGraph, ProjectSymbol } from './graph-types.js';

export type Lookup =
  /** `definitions`: the symbol's declarations, several for overloads and variants (the first is `symbol`). */
  | { readonly kind: 'found'; readonly symbol: ProjectSymbol; readonly definitions: readonly ProjectSymbol[] }
  /** `line` when a line was given that none of the candidates spans. */
  | { readonly kind: 'ambiguous'; readonly candidates: readonly ProjectSymbol[]; readonly line?: number }
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

const CALLABLE = new Set(['function', 'method']);

/**
 * Overloads and variants (TypeScript overload lists, Python @overload, Java overloads, Rust cfg
 * variants): same file, same qualified name, callable. They are one symbol with several definitions.
 */
function overloadSet(candidates: readonly ProjectSymbol[]): boolean {
  const first = candidates[0]!;
  return candidates.every((s) => s.file === first.file && s.qualified === first.qualified && CALLABLE.has(s.kind) && CALLABLE.has(first.kind));
}

/** The candidates whose lines hold `line`, innermost first; else those declared on that line. */
function atLine(candidates: readonly ProjectSymbol[], line: number): ProjectSymbol[] {
  const holding = candidates.filter((s) => s.startLine <= line && line <= s.endLine);
  return holding.sort((a, b) => (a.endLine - a.startLine) - (b.endLine - b.startLine)).slice(0, 1);
}

/** The symbol with its overloads or variants (`picked` first when a line chose it). */
function found(graph: CodeGraph, definitions: readonly ProjectSymbol[], picked?: ProjectSymbol): Lookup {
  const first = picked ?? definitions[0]!;
  const siblings = CALLABLE.has(first.kind)
    ? (graph.byFile.get(first.file) ?? []).map((id) => graph.symbols[id]!).filter((s) => s.qualified === first.qualified && CALLABLE.has(s.kind))
    : definitions;
  const sorted = [...new Set([...siblings, ...definitions])].sort((a, b) => a.startLine - b.startLine);
  const symbol = picked ?? sorted[0]!;
  return { kind: 'found', symbol, definitions: [symbol, ...sorted.filter((s) => s !== symbol)] };
}

export function lookupSymbol(graph: CodeGraph, name: string, file?: string, line?: number): Lookup {
  // `Foo#bar` (a doc comment's way to name a member) is Foo.bar; `Foo.#bar` is a private name.
  const clean = name.trim().replace(/::/g, '.').replace(/([\w$])#(?=[\w$])/g, '$1.').replace(/\(\)$/, '');
  const last = clean.split('.').pop()!;
  let candidates = (graph.byName.get(last) ?? []).map((id) => graph.symbols[id]!);
  if (clean.includes('.')) candidates = candidates.filter((s) => s.qualified === clean || s.qualified.endsWith(`.${clean}`));
  if (file) candidates = candidates.filter((s) => matchesFile(s.file, file));
  if (line !== undefined && candidates.length > 0) {
    const picked = atLine(candidates, line);
    if (picked.length === 0) return { kind: 'ambiguous', candidates, line };
    return found(graph, picked, picked[0]);
  }
  if (candidates.length === 1) return found(graph, candidates);
  if (candidates.length > 1) {
    if (overloadSet(candidates)) return found(graph, candidates);
    // A class and its constructor, or a top-level name and same-named members: prefer the top level.
    const top = candidates.filter((s) => !s.container);
    if (top.length === 1 && !clean.includes('.')) return found(graph, top);
    if (top.length > 1 && !clean.includes('.') && overloadSet(top)) return found(graph, top);
    return { kind: 'ambiguous', candidates };
  }
  return { kind: 'unknown', suggestions: suggestNames(graph, clean) };
}
