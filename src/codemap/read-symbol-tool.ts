/** read_symbol: one symbol's source with line numbers, then who uses it, what it calls and which types it uses. */
import { join } from 'node:path';
import type { ToolDefinition } from '../tools/types.js';
import type { CodeGraph, ProjectSymbol } from './graph-types.js';
import { checkerTarget } from './symbol-answers.js';
import { failure } from '../tools/results.js';
import { describe, fileLines, numbered, gateRead, SYMBOL_ARGS, symbolTool, type SymbolSource } from './tool-support.js';
import { ignoreError } from '../diagnostics/ignore-error.js';

const MAX_SOURCE_LINES = 300;
/** Containers longer than this are shown as an outline of their members. */
const OUTLINE_AFTER_LINES = 120;
const MAX_LIST = 25;
/** How many referenced types are shown whole. */
const FULL_TYPES = 3;
const TYPE_KINDS = new Set(['references', 'extends', 'implements']);

function uniqueTargets(graph: CodeGraph, ids: readonly number[], kinds: (k: string) => boolean): ProjectSymbol[] {
  const seen = new Set<number>();
  const out: ProjectSymbol[] = [];
  for (const e of ids.flatMap((id) => graph.outgoing[id] ?? [])) {
    const edge = graph.edges[e]!;
    if (!kinds(edge.kind) || seen.has(edge.to)) continue;
    seen.add(edge.to);
    out.push(graph.symbols[edge.to]!);
  }
  return out;
}

function usedBy(graph: CodeGraph, ids: readonly number[]): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const e of ids.flatMap((id) => graph.incoming[id] ?? [])) {
    const edge = graph.edges[e]!;
    // An import line is not a use (find_references still lists it); a possible use is find_references' to show.
    if (edge.kind === 'imports' || edge.kind === 'possible') continue;
    const from = edge.from >= 0 ? graph.symbols[edge.from]! : undefined;
    const key = from ? `s${from.id}` : `f${edge.file}:${edge.line}`;
    if (seen.has(key)) continue;
    seen.add(key);
    // Callers by name and place only: their signatures are one read_symbol away, and this list can be long.
    out.push(from ? `${edge.file}:${edge.line} ${from.qualified} (${edge.kind})` : `${edge.file}:${edge.line} (${edge.kind}, top level)`);
  }
  return out;
}

function section(title: string, items: readonly string[]): string {
  if (items.length === 0) return `${title}: none found in the project`;
  const shown = items.slice(0, MAX_LIST).map((i) => `  ${i}`);
  if (items.length > MAX_LIST) shown.push(`  … ${items.length - MAX_LIST} more (find_references lists them all)`);
  return `${title} (${items.length}):\n${shown.join('\n')}`;
}

/** Small types are shown whole (their fields are what a reader needs); others by their signature. */
function typeEntry(s: ProjectSymbol, index: number): string {
  const lines = s.signature.replace(/^\/\*\*.*?\*\/\n/, '').split('\n');
  if (index < FULL_TYPES && lines.length > 1 && lines.length <= 6) return `${s.file}:${s.startLine} ${s.kind} ${s.qualified}\n${lines.map((l) => `    ${l}`).join('\n')}`;
  return describe(s, 120);
}

/** Comment lines (doc comments, attributes, decorators) just above a declaration: shown with it. */
const LEADING = /^(\/\*\*?|\*|\/\/|#\[|@[\w.]+)|\*\/$/;

export function leadingStart(lines: readonly string[], start: number): number {
  let at = start;
  while (at > 1 && at > start - 40 && LEADING.test(lines[at - 2]?.trim() ?? '')) at--;
  return at;
}

function sourceBlock(graph: CodeGraph, s: ProjectSymbol, lines: readonly string[]): string {
  const from = leadingStart(lines, s.startLine);
  const span = s.endLine - s.startLine + 1;
  const members = (graph.byFile.get(s.file) ?? []).map((i) => graph.symbols[i]!).filter((m) => m.container === s.qualified);
  if (members.length > 0 && span > OUTLINE_AFTER_LINES) {
    const firstMember = Math.min(...members.map((m) => m.startLine));
    const head = numbered(lines, from, Math.min(firstMember - 1, s.startLine + 20));
    const outline = members.map((m) => `  ${m.startLine}: ${m.signature.replace(/^\/\*\*.*?\*\/\n/, '').replace(/\s+/g, ' ').trim()}`);
    return `${head}\n… ${span} lines; members (read_symbol "${s.qualified}.<member>" for one):\n${outline.join('\n')}`;
  }
  if (span > MAX_SOURCE_LINES) {
    const end = s.startLine + MAX_SOURCE_LINES - 1;
    return `${numbered(lines, from, end)}\n… ${s.endLine - end} more lines (read_file ${s.file} with offset ${end + 1})`;
  }
  return numbered(lines, from, s.endLine);
}

export function readSymbolTool(source: SymbolSource): ToolDefinition {
  return symbolTool(source, {
    name: 'read_symbol',
    description: 'Read one function, class, method, type or variable by name (from the code map) instead of its whole file: '
      + 'its source with line numbers, the symbols that use it, what it calls, and the types it references. '
      + 'Use "Class.method" or pass file (and line) when a name is ambiguous.',
    args: SYMBOL_ARGS,
    async run(found, graph, _args, ctx) {
      const s = found.symbol;
      // Reading a symbol is often the step before asking who uses it: get the checker going meanwhile.
      if (source.askChecker && source.checked?.(s.file)) {
        void source.askChecker({ op: 'warm', targets: [checkerTarget(s)] }).catch(ignoreError('warm up the TypeScript checker'));
      }
      const refused = await gateRead(ctx, 'read_symbol', join(source.root, s.file));
      if (refused) return refused;
      const lines = await fileLines(source.root, s.file);
      if (!lines) return failure(`${s.file} can no longer be read (deleted or moved?)`, `read_symbol ${s.qualified}: file missing`, 'not_found');
      const defs = found.definitions;
      const ids = defs.map((d) => d.id);
      // Overloads and variants: each definition with its own source.
      const blocks = defs.length === 1 ? [sourceBlock(graph, s, lines)]
        : defs.map((d, i) => `definition ${i + 1} of ${defs.length}, ${d.file}:${d.startLine}-${d.endLine}:\n${sourceBlock(graph, d, lines)}`);
      const parts = [
        `${s.file}:${s.startLine}-${defs[defs.length - 1]!.endLine} ${s.kind} ${s.qualified}${s.exported ? ' (exported)' : ''}`
          + (defs.length > 1 ? ` (${defs.length} definitions; pass "line" to pick one)` : ''),
        ...blocks,
        section('Used by', usedBy(graph, ids)),
        section('Calls', uniqueTargets(graph, ids, (k) => k === 'calls').map((t) => describe(t, 120))),
        section('Referenced types', uniqueTargets(graph, ids, (k) => TYPE_KINDS.has(k)).map(typeEntry)),
      ];
      return { ok: true, content: parts.join('\n\n'), summary: `${s.qualified} (${s.file}:${s.startLine}-${s.endLine})` };
    },
  });
}
