/**
 * The code map's find_references and get_dependencies (depth 1) scored against the TypeScript
 * language service, by symbol kind (scripts/compare-codemap.ts on any project, and the test suite).
 *
 * The truth is language services of its own, one per tsconfig as an editor opens them (ts-truth.ts):
 * - references of a symbol: findReferences at its declaration, minus the declarations, in the
 *   project's indexed files, as file:line pairs;
 * - dependencies of a symbol: every project symbol one of whose references (not an import) lies
 *   inside the symbol's lines — functions, methods, classes, interfaces, types, enums in any use,
 *   variables and properties when called — not counting the symbol's own members.
 * The tools are asked through a real code map (--index-only: without the checker, the syntax index).
 * Symbols are sampled evenly per kind (--per-kind); the dependency truth needs every symbol's references.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type * as TS from 'typescript';
import tsModule from 'typescript';
import type { CodeMap } from '../../src/codemap/code-map.js';
import { skipReason } from '../../src/codemap/index-file.js';
import { walkProject } from '../../src/codemap/walk-project.js';
import { createSessionGrants } from '../../src/policy/session-grants.js';
import type { ProjectSymbol } from '../../src/codemap/graph-types.js';
import { nodeAt, usageKind } from '../../src/codemap/ts-locate.js';
import type { Config } from '../../src/config/types.js';
import type { ToolContext } from '../../src/tools/types.js';
import { buildTruth } from './ts-truth.js';


// typescript is CommonJS: its API is the default export.
const ts = tsModule as unknown as typeof TS;

const DEPENDENCY_KINDS = new Set(['function', 'method', 'class', 'interface', 'type', 'enum', 'namespace', 'module']);

interface Count { tp: number; fp: number; fn: number }
const count = (): Count => ({ tp: 0, fp: 0, fn: 0 });
function tally(c: Count, truth: ReadonlySet<string>, got: ReadonlySet<string>): void {
  for (const x of got) if (truth.has(x)) c.tp++; else c.fp++;
  for (const x of truth) if (!got.has(x)) c.fn++;
}
const pct = (n: number, d: number): string => (d === 0 ? '  -  ' : (n / d).toFixed(3));

export function toolContext(config: ToolContext['config']): ToolContext {
  return {
    config, projectRoot: config.projectRoot, sessionId: 'compare', signal: new AbortController().signal, readOnly: true,
    preApproved: new Set(['read']), sessionGrants: createSessionGrants(), approve: async () => 'no',
    offload: { read: async () => undefined }, vision: false,
  };
}

/** The position of `s`'s declared name: the first identifier of that name on its lines that declares something. */
function declarationPosition(sf: TS.SourceFile, s: ProjectSymbol): number | undefined {
  let found: number | undefined;
  const visit = (n: TS.Node): void => {
    if (found !== undefined) return;
    const line = sf.getLineAndCharacterOfPosition(n.getStart(sf)).line + 1;
    const end = sf.getLineAndCharacterOfPosition(n.getEnd()).line + 1;
    if (end < s.startLine || line > s.endLine) return;
    if (s.name === 'constructor' && ts.isConstructorDeclaration(n)) {
      found = n.getChildren(sf).find((c) => c.kind === ts.SyntaxKind.ConstructorKeyword)?.getStart(sf);
      return;
    }
    const name = ts.getNameOfDeclaration(n as TS.Declaration);
    if (name && !ts.isParameter(n) && (ts.isIdentifier(name) || ts.isPrivateIdentifier(name) || ts.isStringLiteral(name)) && name.text === s.name
      && line >= s.startLine) {
      found = name.getStart(sf);
      return;
    }
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return found;
}

export interface Tally { tp: number; fp: number; fn: number }
export interface Comparison {
  readonly report: string;
  readonly refs: Tally;
  readonly deps: Tally;
  /** Per symbol asked, what was missed or wrong. */
  readonly misses: readonly string[];
}

/** Where the names of every declaration of the symbol declared at `pos` start (file:offset). */
function declarationsMerged(ts: typeof TS, prog: TS.Program, sf: TS.SourceFile, pos: number): Set<string> {
  const node = nodeAt(ts, sf, pos);
  const sym = node ? prog.getTypeChecker().getSymbolAtLocation(node) : undefined;
  const out = new Set<string>();
  for (const d of sym?.declarations ?? []) {
    const name = ts.getNameOfDeclaration(d);
    if (name) out.add(`${d.getSourceFile().fileName}:${name.getStart()}`);
  }
  return out;
}

/**
 * Asks `map`'s tools about up to `perKind` symbols of each kind and scores them against the language
 * service. `beforeEach` runs before each symbol's questions (a fresh checker for each, say).
 */
export async function compareWithLanguageService(root: string, map: CodeMap, config: Config, perKind: number,
  label = 'checker-backed', beforeEach?: () => void): Promise<Comparison> {
  const out: string[] = [];
  const misses: string[] = [];
  const log = (line: string): void => { out.push(line); };
  {
    let t0 = performance.now();
    const symbols = map.symbols();
    // The files the code map indexes (same walk), less generated ones.
    const walked = await walkProject(root, { extensions: new Set(['.ts', '.tsx', '.mts', '.cts', '.js', '.jsx', '.mjs', '.cjs']), maxFileBytes: 512 * 1024 });
    const tsFiles = walked.files.map((f) => f.rel).filter((f) => skipReason(readFileSync(join(root, f), 'utf8')) === undefined);
    const fileSet = new Set(tsFiles);
    log(`project: ${root}: ${tsFiles.length} TS/JS files, ${symbols.length} symbols (indexed in ${(performance.now() - t0).toFixed(0)} ms)`);

    // The truth: language services of its own, one per tsconfig, over the same files.
    t0 = performance.now();
    const truth = buildTruth(root, tsFiles.map((f) => join(root, f)));
    const prefix = resolve(root) + '/';
    const relOf = (fileName: string): string | undefined => {
      const r = resolve(fileName);
      const rel = r.startsWith(prefix) ? r.slice(prefix.length) : undefined;
      return rel !== undefined && fileSet.has(rel) ? rel : undefined;
    };
    const truthRefs = new Map<number, Set<string>>();
    /** For the dependency truth: where each symbol is used, with how (calls or not). */
    const uses = new Map<number, { file: string; line: number; call: boolean }[]>();
    let unlocated = 0;
    for (const s of symbols) {
      if (!fileSet.has(s.file)) continue;
      const refs = new Set<string>();
      const where = new Map<string, { file: string; line: number; call: boolean }>();
      let located = false;
      for (const { service: ls, program: prog } of truth.servicesFor(join(root, s.file))) {
        const sf = prog.getSourceFile(join(root, s.file)) ?? prog.getSourceFiles().find((f) => relOf(f.fileName) === s.file);
        const pos = sf ? declarationPosition(sf, s) : undefined;
        if (!sf || pos === undefined) continue;
        located = true;
        const groups = ls.findReferences(sf.fileName, pos) ?? [];
        // Uses of the symbol itself: its own group, not the groups of the members it overrides or implements.
        // (Groups whose definition is an import or export alias are the symbol's uses under another name.)
        // (A constructor's uses are `new` and `super()` calls, listed under its class.)
        // (Declarations that merge under one name — an interface and a function — are one symbol: its
        // group may be listed under the other declaration's name.)
        const merged = declarationsMerged(ts, prog, sf, pos);
        const own = s.name === 'constructor' ? groups : groups.filter((g) => g.definition.kind === ts.ScriptElementKind.alias || (g.definition.fileName === sf.fileName
          && g.definition.textSpan.start <= pos && pos < g.definition.textSpan.start + Math.max(1, g.definition.textSpan.length))
          || merged.has(`${g.definition.fileName}:${g.definition.textSpan.start}`));
        for (const group of groups) {
          for (const r of group.references) {
            if (r.isDefinition) continue;
            const rel = relOf(r.fileName);
            const rsf = rel === undefined ? undefined : prog.getSourceFile(r.fileName);
            if (rel === undefined || !rsf) continue;
            const line = rsf.getLineAndCharacterOfPosition(r.textSpan.start).line + 1;
            refs.add(`${rel}:${line}`);
            let node: TS.Node | undefined;
            const find = (n: TS.Node): void => {
              if (r.textSpan.start < n.getStart(rsf) || r.textSpan.start >= n.getEnd()) return;
              node = n;
              ts.forEachChild(n, find);
            };
            find(rsf);
            const kind = node ? usageKind(ts, node) : 'references';
            // An overriding or merged declaration is listed by findReferences, but it is not a use.
            const declares = !!node?.parent && !ts.isExpression(node.parent) && ts.getNameOfDeclaration(node.parent as TS.Declaration) === node;
            if (kind !== 'imports' && (!declares || ts.isShorthandPropertyAssignment(node!.parent)) && (own.length === 0 || own.includes(group))) {
              const call = kind === 'calls';
              const key = `${rel}:${line}:${call}`;
              if (!where.has(key)) where.set(key, { file: rel, line, call });
            }
          }
        }
      }
      if (!located) { unlocated++; continue; }
      truthRefs.set(s.id, refs);
      uses.set(s.id, [...where.values()]);
    }
    log(`truth: ${truth.services.length} language services (${truth.services.map((x) => x.label).join(', ')}); findReferences for ${truthRefs.size} symbols in ${((performance.now() - t0) / 1000).toFixed(1)} s (${unlocated} declarations not located, left out)`);
    const inside = (outer: ProjectSymbol, inner: ProjectSymbol): boolean =>
      outer.id === inner.id || (outer.file === inner.file && inner.startLine >= outer.startLine && inner.endLine <= outer.endLine);
    const truthDeps = (s: ProjectSymbol): Set<string> => {
      const out = new Set<string>();
      for (const [id, where] of uses) {
        const t = symbols[id]!;
        if (inside(s, t)) continue;
        const eligible = DEPENDENCY_KINDS.has(t.kind);
        if (where.some((w) => w.file === s.file && w.line >= s.startLine && w.line <= s.endLine && (eligible || w.call))) out.add(`${t.file}:${t.startLine} ${t.qualified}`);
      }
      return out;
    };

    // Sample evenly per kind, among symbols the truth could locate.
    const byKind = new Map<string, ProjectSymbol[]>();
    for (const s of symbols) if (truthRefs.has(s.id)) byKind.set(s.kind, [...(byKind.get(s.kind) ?? []), s]);
    const ctx = toolContext(config);
    const refsTool = map.tools().find((t) => t.name === 'find_references')!;
    const depsTool = map.tools().find((t) => t.name === 'get_dependencies')!;
    const rows: string[] = [];
    const total = { refs: count(), deps: count() };
    const times: number[] = [];
    for (const [kind, list] of [...byKind].sort()) {
      const step = Math.max(1, list.length / perKind);
      const sample: ProjectSymbol[] = [];
      for (let i = 0; i < list.length && sample.length < perKind; i += step) sample.push(list[Math.floor(i)]!);
      const c = { refs: count(), deps: count() };
      for (const s of sample) {
        const pick = { name: s.qualified, file: s.file, line: s.startLine };
        beforeEach?.();
        const t1 = performance.now();
        const r = await refsTool.run(pick, ctx);
        times.push(performance.now() - t1);
        const sure = r.content.split(/\nPossible references/)[0]!;
        const got = new Set([...sure.matchAll(/^ {2}(\S+?):(\d+) /gm)].map((m) => `${m[1]}:${m[2]}`));
        tally(c.refs, truthRefs.get(s.id)!, got);
        const d = await depsTool.run({ ...pick, depth: 1 }, ctx);
        const gotDeps = new Set([...d.content.matchAll(/^[├└]─ \w+ (\S+?:\d+) \w+ (\S+) —/gm)].map((m) => `${m[1]} ${m[2]}`));
        const want = truthDeps(s);
        tally(c.deps, want, gotDeps);
        {
          const missed = [...want].filter((x) => !gotDeps.has(x));
          const extra = [...gotDeps].filter((x) => !want.has(x));
          const got = new Set([...sure.matchAll(/^ {2}(\S+?):(\d+) /gm)].map((m) => `${m[1]}:${m[2]}`));
          const refMissed = [...truthRefs.get(s.id)!].filter((x) => !got.has(x));
          const refExtra = [...got].filter((x) => !truthRefs.get(s.id)!.has(x));
          if (missed.length || extra.length || refMissed.length || refExtra.length) {
            misses.push(`${s.kind} ${s.qualified} ${s.file}:${s.startLine}: deps missed ${missed.slice(0, 6).join(', ')} extra ${extra.slice(0, 6).join(', ')}; `
              + `refs missed ${refMissed.slice(0, 5).join(', ')} extra ${refExtra.slice(0, 5).join(', ')}`);
          }
        }
      }
      for (const k of ['refs', 'deps'] as const) {
        total[k].tp += c[k].tp; total[k].fp += c[k].fp; total[k].fn += c[k].fn;
      }
      rows.push(`${kind.padEnd(10)} ${String(sample.length).padStart(5)}  `
        + `${pct(c.refs.tp, c.refs.tp + c.refs.fn)}  ${pct(c.refs.tp, c.refs.tp + c.refs.fp)}  ${String(c.refs.tp + c.refs.fn).padStart(6)}   `
        + `${pct(c.deps.tp, c.deps.tp + c.deps.fn)}  ${pct(c.deps.tp, c.deps.tp + c.deps.fp)}  ${String(c.deps.tp + c.deps.fn).padStart(6)}`);
    }
    log(`\n${label}: find_references and get_dependencies (depth 1) against the language service`);
    log('kind       asked  refs: recall  prec   truth   deps: recall  prec   truth');
    for (const r of rows) log(r);
    log(`${'all'.padEnd(10)} ${String(times.length).padStart(5)}  ${pct(total.refs.tp, total.refs.tp + total.refs.fn)}  ${pct(total.refs.tp, total.refs.tp + total.refs.fp)}  `
      + `${String(total.refs.tp + total.refs.fn).padStart(6)}   ${pct(total.deps.tp, total.deps.tp + total.deps.fn)}  ${pct(total.deps.tp, total.deps.tp + total.deps.fp)}  ${String(total.deps.tp + total.deps.fn).padStart(6)}`);
    const sorted = [...times].sort((a, b) => a - b);
    log(`find_references: first ${times[0]?.toFixed(0)} ms, median ${sorted[Math.floor(sorted.length / 2)]?.toFixed(0)} ms, p95 ${sorted[Math.floor(sorted.length * 0.95)]?.toFixed(0)} ms`);
    return { report: out.join('\n'), refs: total.refs, deps: total.deps, misses };
  }
}

