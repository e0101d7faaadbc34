/** Shared pieces of the symbol tools: argument checks, policy check, file lines, signature lines. */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { accessPath, displayPath, gatePath } from '../tools/path-access.js';
import type { ToolContext, ToolResult } from '../tools/types.js';
import type { CheckerAnswer, CheckerQuestion } from './checker-protocol.js';
import type { CodeGraph, ProjectSymbol } from './graph-types.js';
import { suggestNames, type Lookup } from './symbol-lookup.js';

export interface SymbolSource {
  readonly root: string;
  graph(): CodeGraph;
  /** Makes the graph complete first (reads the cache body a warm start skipped); optional for stand-ins. */
  prepare?(): Promise<void>;
  /** Re-indexes `rel` first when it changed on disk since it was indexed (edits by bash, git). */
  ensureFresh(rel: string): Promise<void>;
  /** True when `rel` is answered by the TypeScript checker (a TS/JS file). */
  checked?(rel: string): boolean;
  /** Asks the TypeScript checker (root and file list are filled in). */
  askChecker?(request: CheckerQuestion): Promise<CheckerAnswer>;
}

export interface SymbolArgs {
  readonly name: string;
  readonly file?: string;
  /** A line inside the wanted definition (1-based), to pick one of several. */
  readonly line?: number;
  readonly depth?: number;
}

/** The argument schema the three symbol tools share. */
export const SYMBOL_ARG_PROPERTIES = {
  name: { type: 'string', description: 'Symbol name, e.g. "parseConfig" or "Session.save".' },
  file: { type: 'string', description: 'Project-relative file to pick among same-named symbols.' },
  line: { type: 'integer', description: 'A line of the wanted definition (as listed when a name is ambiguous), with file.' },
} as const;

export function failure(content: string, summary: string): ToolResult {
  return { ok: false, content, summary };
}

export function parseArgs(args: unknown, tool: string, withDepth: boolean): SymbolArgs | string {
  if (!args || typeof args !== 'object') return `${tool} needs an object argument like {"name": "parseConfig"}`;
  const a = args as Record<string, unknown>;
  if (typeof a['name'] !== 'string' || !a['name'].trim()) return `${tool}: "name" must be a non-empty string (a symbol name such as "parseConfig" or "Session.save")`;
  if (a['file'] !== undefined && a['file'] !== null && typeof a['file'] !== 'string') return `${tool}: "file" must be a string path`;
  if (a['line'] !== undefined && a['line'] !== null && (typeof a['line'] !== 'number' || !Number.isInteger(a['line']) || a['line'] < 1)) {
    return `${tool}: "line" must be a positive integer (a line of the definition, as the ambiguity list shows it)`;
  }
  const line = typeof a['line'] === 'number' ? a['line'] : undefined;
  let depth: number | undefined;
  if (withDepth && a['depth'] !== undefined && a['depth'] !== null) {
    if (typeof a['depth'] !== 'number' || !Number.isInteger(a['depth']) || a['depth'] < 1) return `${tool}: "depth" must be a positive integer`;
    depth = Math.min(a['depth'], 10);
  }
  const file = typeof a['file'] === 'string' && a['file'].trim() ? a['file'].trim() : undefined;
  return { name: a['name'].trim(), ...(file ? { file } : {}), ...(line ? { line } : {}), ...(depth ? { depth } : {}) };
}

/**
 * Reading a symbol is reading its file: the same policy gate as read_file (rules, confirm, audit).
 * Returns the result to hand back when the read is not allowed.
 */
export async function gateRead(ctx: ToolContext, tool: string, abs: string): Promise<ToolResult | undefined> {
  const access = await accessPath(ctx, 'read', abs);
  const gate = await gatePath(ctx, tool, 'read', access, `${tool} ${displayPath(access.resolved)}`);
  return gate.ok ? undefined : gate.result;
}

/** For listings that quote single lines of many files: quote only where reading needs no question. */
export async function quietlyReadable(ctx: ToolContext, abs: string): Promise<boolean> {
  try {
    const access = await accessPath(ctx, 'read', abs);
    const level = access.decision.level;
    return level === 'allow' || (level === 'confirm' && !access.decision.alwaysAsk && access.resolved.inside
      && (ctx.preApproved.has('read') || ctx.sessionGrants.has('read')));
  } catch {
    return false;
  }
}

export async function fileLines(root: string, rel: string): Promise<string[] | undefined> {
  try {
    return (await readFile(join(root, rel), 'utf8')).split(/\r?\n/);
  } catch {
    return undefined;
  }
}

export function numbered(lines: readonly string[], start: number, end: number): string {
  const width = String(end).length;
  const out: string[] = [];
  for (let n = start; n <= end && n <= lines.length; n++) out.push(`${String(n).padStart(width)}  ${lines[n - 1]}`);
  return out.join('\n');
}

/** `src/a.ts:12 function Foo.run — signature on one line` */
export function describe(s: ProjectSymbol, maxSignature = 200): string {
  const sig = s.signature.replace(/^\/\*\*.*?\*\/\n/, '').replace(/\s+/g, ' ').trim();
  const clipped = sig.length > maxSignature ? `${sig.slice(0, maxSignature - 1)}…` : sig;
  return `${s.file}:${s.startLine} ${s.kind} ${s.qualified} — ${clipped}`;
}

export function lookupFailure(graph: CodeGraph, tool: string, name: string, found: Exclude<Lookup, { kind: 'found' }>): ToolResult {
  if (found.kind === 'ambiguous') {
    // Each candidate as the arguments that pick it, so the next call can pass one back as it is.
    const list = found.candidates.slice(0, 40).map((s) => `  ${JSON.stringify({ name: s.qualified, file: s.file, line: s.startLine })}  `
      + `${s.kind} — ${s.signature.replace(/^\/\*\*.*?\*\/\n/, '').replace(/\s+/g, ' ').trim().slice(0, 100)}`).join('\n');
    const more = found.candidates.length > 40 ? `\n  … ${found.candidates.length - 40} more (narrow with "file")` : '';
    const why = found.line !== undefined ? `no definition of "${name}" spans line ${found.line}; ${found.candidates.length} match` : `${found.candidates.length} symbols match`;
    return failure(`"${name}" is ambiguous: ${why}. Call ${tool} again with the arguments of the one you mean:\n${list}${more}`, `${name}: ambiguous`);
  }
  const near = found.suggestions.length > 0 ? found.suggestions : suggestNames(graph, name);
  const hint = near.length > 0 ? ` Nearest names:\n${near.map((n) => `  ${n}`).join('\n')}` : ' Try grep to search the text.';
  return failure(`No symbol named "${name}" in the code map.${hint}`, `${name}: not found`);
}
