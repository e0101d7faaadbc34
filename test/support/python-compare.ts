/**
 * The code map's Python find_references against pyright's textDocument/references: per symbol kind,
 * the recall of the sure references, their precision, and the recall counting the possible ones too.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { CodeMap } from '../../src/codemap/code-map.js';
import type { ProjectSymbol } from '../../src/codemap/graph-types.js';
import type { ToolContext } from '../../src/tools/types.js';
import type { PyrightClient } from './pyright-client.js';

export interface Tally { tp: number; fp: number; fn: number; possibleHits: number }

export interface PythonComparison {
  readonly byKind: ReadonlyMap<string, Tally & { asked: number }>;
  readonly total: Tally & { asked: number };
  /** Per symbol, what was missed and what was wrong (for reports). */
  readonly misses: readonly string[];
}

const lineSet = (text: string): Set<string> => new Set([...text.matchAll(/^ {2}(\S+?):(\d+) /gm)].map((m) => `${m[1]}:${m[2]}`));

/** The column of a symbol's name on its first line (`def name`, `class name`, `self.name`, `name =`). */
async function nameColumn(root: string, s: ProjectSymbol, cache: Map<string, string[]>): Promise<number | undefined> {
  let lines = cache.get(s.file);
  if (!lines) cache.set(s.file, (lines = (await readFile(join(root, s.file), 'utf8')).split('\n')));
  const text = lines[s.startLine - 1] ?? '';
  const escaped = s.name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const m = new RegExp(`(?:def|class)\\s+(${escaped})\\b|self\\.(${escaped})\\b|^\\s*(${escaped})\\b`).exec(text);
  if (!m) return undefined;
  return m.index + m[0].length - s.name.length;
}

/** `only`: count references in files under this prefix only (both sides). */
export async function comparePython(root: string, map: CodeMap, pyright: PyrightClient, ctx: ToolContext,
  symbols: readonly ProjectSymbol[], only = ''): Promise<PythonComparison> {
  const refs = map.tools().find((t) => t.name === 'find_references')!;
  const byKind = new Map<string, Tally & { asked: number }>();
  const total = { tp: 0, fp: 0, fn: 0, possibleHits: 0, asked: 0 };
  const misses: string[] = [];
  const cache = new Map<string, string[]>();
  for (const s of symbols) {
    const column = await nameColumn(root, s, cache);
    if (column === undefined) continue;
    const truth = new Set((await pyright.references(s.file, s.startLine, column)).map((l) => `${l.file}:${l.line}`).filter((x) => x.startsWith(only)));
    const answer = (await refs.run({ name: s.qualified, file: s.file, line: s.startLine }, ctx)).content;
    const [sureText, possibleText = ''] = answer.split(/\nPossible references/);
    const sure = new Set([...lineSet(sureText!)].filter((x) => x.startsWith(only)));
    const possible = new Set([...lineSet(possibleText)].filter((x) => x.startsWith(only)));
    const k = byKind.get(s.kind) ?? { tp: 0, fp: 0, fn: 0, possibleHits: 0, asked: 0 };
    k.asked++;
    total.asked++;
    for (const x of sure) if (truth.has(x)) { k.tp++; total.tp++; } else { k.fp++; total.fp++; }
    for (const x of truth) {
      if (sure.has(x)) continue;
      k.fn++;
      total.fn++;
      if (possible.has(x)) { k.possibleHits++; total.possibleHits++; }
    }
    byKind.set(s.kind, k);
    const missed = [...truth].filter((x) => !sure.has(x));
    const wrong = [...sure].filter((x) => !truth.has(x));
    if (missed.length || wrong.length) misses.push(`${s.kind} ${s.qualified} (${s.file}:${s.startLine}): missed ${missed.slice(0, 5).join(' ')}; wrong ${wrong.slice(0, 5).join(' ')}`);
  }
  return { byKind, total, misses };
}

export function formatComparison(c: PythonComparison): string {
  const pct = (n: number, d: number): string => (d === 0 ? '  -  ' : (n / d).toFixed(3));
  const row = (kind: string, t: Tally & { asked: number }): string => `${kind.padEnd(10)} ${String(t.asked).padStart(5)}  `
    + `${pct(t.tp, t.tp + t.fn)}  ${pct(t.tp, t.tp + t.fp)}  ${pct(t.tp + t.possibleHits, t.tp + t.fn)}  ${String(t.tp + t.fn).padStart(6)}`;
  return ['kind       asked  recall  prec   recall+possible  truth',
    ...[...c.byKind].sort().map(([k, t]) => row(k, t)), row('all', c.total)].join('\n');
}
