/**
 * The code map for the system prompt: per file, one line per symbol (line number, signature, doc),
 * the most important symbols kept when the budget is short. The same graph gives the same bytes.
 */
import type { CodeGraph, ProjectSymbol } from './graph-types.js';

const MAX_SIGNATURE_CHARS = 160;
const MAX_DOC_CHARS = 80;
const MAX_TYPE_CHARS = 100;
/** Code runs about 3.5 characters per token; erring low keeps the map inside its budget. */
const CHARS_PER_TOKEN = 3.5;

/** Every tunable number of the rendering, so stored maps are keyed by them (map-cache.ts). */
export const RENDER_SETTINGS = { MAX_SIGNATURE_CHARS, MAX_DOC_CHARS, MAX_TYPE_CHARS, CHARS_PER_TOKEN } as const;

export function estimateTokens(text: string): number {
  return Math.ceil(text.length / CHARS_PER_TOKEN);
}

function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** A signature on one line: doc comment split off, whitespace collapsed, long ones clipped. */
export function mapLine(s: ProjectSymbol): string {
  let doc: string | undefined;
  let sig = s.signature;
  const docMatch = /^\/\*\*\s*(.*?)\s*\*\/\n/.exec(sig);
  if (docMatch) {
    doc = docMatch[1];
    sig = sig.slice(docMatch[0].length);
  }
  let flat = sig.replace(/\s+/g, ' ').trim();
  // Members of classes and interfaces are their own lines (or one read_symbol away): show the header.
  if ((s.kind === 'interface' || s.kind === 'enum' || s.kind === 'class') && flat.includes('{')) {
    flat = `${flat.slice(0, flat.indexOf('{')).trimEnd()} { … }`;
  }
  const one = clip(flat, s.kind === 'type' ? MAX_TYPE_CHARS : MAX_SIGNATURE_CHARS);
  const indent = s.container ? '    ' : '  ';
  return `${indent}${s.startLine}: ${one}${doc ? `  // ${clip(doc, MAX_DOC_CHARS)}` : ''}`;
}

export interface MapInput {
  readonly graph: CodeGraph;
  readonly scores: Float64Array;
  readonly budgetTokens: number;
}

function compareIds(graph: CodeGraph, a: number, b: number): number {
  const sa = graph.symbols[a]!;
  const sb = graph.symbols[b]!;
  if (sa.file !== sb.file) return sa.file < sb.file ? -1 : 1;
  return sa.startLine - sb.startLine || a - b;
}

export function renderMap({ graph, scores, budgetTokens }: MapInput): string {
  const total = graph.symbols.length;
  const fileCount = graph.byFile.size;
  const header = `Code map of this project (${fileCount} files, ${total} symbols; signatures only, line numbers first). `
    + 'Use read_symbol, find_references and get_dependencies to read code by name instead of whole files.';
  if (total === 0) return `${header}\n(no symbols found)`;
  const footerReserve = 40;
  let budget = Math.max(0, budgetTokens - estimateTokens(header) - footerReserve);
  const order = graph.symbols.map((s) => s.id).sort((a, b) => scores[b]! - scores[a]! || compareIds(graph, a, b));
  const chosen = new Set<number>();
  const filesShown = new Set<string>();
  const containerOf = (s: ProjectSymbol): number | undefined => {
    if (!s.container) return undefined;
    const ids = graph.byFile.get(s.file) ?? [];
    return ids.find((id) => graph.symbols[id]!.qualified === s.container);
  };
  for (const id of order) {
    if (chosen.has(id)) continue;
    const s = graph.symbols[id]!;
    const parent = containerOf(s);
    // An interface's members are its header's `{ … }`: one read_symbol away, never map lines of their own.
    if (parent !== undefined && graph.symbols[parent]!.kind === 'interface') continue;
    let cost = estimateTokens(mapLine(s)) + 1;
    if (!filesShown.has(s.file)) cost += estimateTokens(s.file) + 1;
    if (parent !== undefined && !chosen.has(parent)) cost += estimateTokens(mapLine(graph.symbols[parent]!)) + 1;
    // Keep scanning: a cheaper line further down may still fit.
    if (cost > budget) continue;
    budget -= cost;
    chosen.add(id);
    if (parent !== undefined) chosen.add(parent);
    filesShown.add(s.file);
  }
  const lines = [header];
  const sorted = [...chosen].sort((a, b) => compareIds(graph, a, b));
  let currentFile = '';
  let currentTop = '';
  for (const id of sorted) {
    const s = graph.symbols[id]!;
    if (s.file !== currentFile) {
      currentFile = s.file;
      currentTop = '';
      lines.push(s.file);
    }
    if (!s.container) currentTop = s.qualified;
    // Members away from their container (Rust impl blocks, Go methods) name it.
    const line = mapLine(s);
    lines.push(s.container && s.container !== currentTop ? line.replace(/^(\s*\d+: )/, `$1[${s.container}] `) : line);
  }
  const leftSymbols = total - chosen.size;
  if (leftSymbols > 0) {
    const filesWithSymbols = [...graph.byFile.entries()].filter(([, ids]) => ids.length > 0).length;
    const leftFiles = filesWithSymbols - filesShown.size;
    lines.push(`(${leftSymbols} less central symbols left out to fit the budget${leftFiles > 0 ? `; ${leftFiles} files not shown at all` : ''}; `
      + 'find them with read_symbol, grep or glob)');
  }
  return lines.join('\n');
}
