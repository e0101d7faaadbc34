/**
 * Stored maps are served by key, so a change to how maps are ranked or rendered must change the key,
 * or a session would be handed a map made by the old code. Constants are in the key already; this
 * test catches changes to the code: it renders a fixed synthetic graph and checks the result
 * against the one recorded for the current MAP_RENDER_LOGIC.
 *
 * When it fails on purpose: bump MAP_RENDER_LOGIC in src/codemap/map-cache.ts and add the printed
 * hash under the new number (an old number cannot take a second hash: duplicate keys do not compile).
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { assembleGraph, EDGE_KINDS, type FileGraph } from '../../src/codemap/file-graph.js';
import { MAP_RENDER_LOGIC, MAP_RENDER_VERSION } from '../../src/codemap/map-cache.js';
import { renderMap } from '../../src/codemap/map-text.js';
import { scoreSymbols } from '../../src/codemap/rank.js';
import type { SymbolInfo, SymbolKind } from '../../src/codemap/types.js';

const RECORDED: Readonly<Record<number, string>> = {
  2: '60f2a0238d1d6a53f4e269d96b3d18cc00704a63',
  // 3: 'possible' edges (method calls on receivers of unknown type) weigh in the ranking.
  3: 'b5135fb1aef0d85b4464cd490787cda0b6ea7fde',
};

/** A project-like graph from a fixed pseudo-random sequence: files, classes with members, doc lines, tests, edges of every kind. */
function syntheticGraph() {
  let seed = 12345;
  const next = (n: number): number => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    // The low bits of this generator cycle quickly: use the high ones.
    return Math.floor(seed / 65536) % n;
  };
  const kinds: SymbolKind[] = ['function', 'class', 'interface', 'type', 'variable', 'enum'];
  const files = Array.from({ length: 24 }, (_, i) => (i % 7 === 6 ? `test/case${i}.test.ts` : `src/mod${i % 5}/file${i}.ts`)).sort();
  const parts = new Map<string, FileGraph>();
  for (const file of files) {
    const symbols: SymbolInfo[] = [];
    let line = 1;
    for (let k = 0; k < 3 + next(6); k++) {
      const kind = kinds[next(kinds.length)]!;
      const name = `${kind.slice(0, 3)}${next(40)}`;
      const doc = next(3) === 0 ? `/** Does thing number ${next(100)} for the caller. */\n` : '';
      const long = next(5) === 0 ? `, extra${'Parameter'.repeat(next(20))}: string` : '';
      symbols.push({ name, kind, startLine: line, endLine: line + 4, exported: next(4) !== 0, signature: `${doc}export ${kind} ${name}(a: number${long}) {\n  body\n}` });
      if (kind === 'class') {
        for (let m = 0; m < next(4); m++) {
          symbols.push({ name: `method${m}`, kind: 'method', startLine: line + 1 + m, endLine: line + 1 + m, exported: false, container: name, signature: `method${m}(): void` });
        }
      }
      line += 6;
    }
    parts.set(file, { symbols, edges: [], targets: [], deps: [], names: [], imports: [] });
  }
  for (const file of files) {
    const part = parts.get(file)!;
    const edges: number[] = [];
    const targets: string[] = [];
    for (let e = 0; e < next(12); e++) {
      const to = files[next(files.length)]!;
      edges.push(next(part.symbols.length + 1) - 1, next(parts.get(to)!.symbols.length), next(EDGE_KINDS.length), 1 + next(30));
      targets.push(to);
    }
    parts.set(file, { ...part, edges, targets });
  }
  return assembleGraph(parts);
}

describe('the stored-map key', () => {
  it('changes when ranking or rendering output changes (bump MAP_RENDER_LOGIC; see the header)', () => {
    const graph = syntheticGraph();
    const scores = scoreSymbols({ graph, entryFiles: new Set(['src/mod0/file0.ts']) });
    const texts = [200, 600, 4000].map((budgetTokens) => renderMap({ graph, scores, budgetTokens }));
    expect(texts[0]).toContain('less central symbols left out');
    expect(texts[2]).toMatch(/\n {4}\d+: method\d/);
    const hash = createHash('sha1').update(texts.join('\0')).digest('hex');
    expect(Math.max(...Object.keys(RECORDED).map(Number)), 'MAP_RENDER_LOGIC must be the newest recorded number').toBe(MAP_RENDER_LOGIC);
    expect(hash, `rendering changed: bump MAP_RENDER_LOGIC and record ${hash} under it`).toBe(RECORDED[MAP_RENDER_LOGIC]);
    expect(MAP_RENDER_VERSION.startsWith(`${MAP_RENDER_LOGIC}-`)).toBe(true);
  });
});
