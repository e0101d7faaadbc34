/** Shared pieces of the symbol tools: argument checks, policy check, file lines, signature lines. */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { accessPath, displayPath, gatePath } from '../tools/path-access.js';
import { arg, optional, type ArgSpecs, type ParsedArgs } from '../tools/args.js';
import { defineTool } from '../tools/define-tool.js';
import { failure } from '../tools/results.js';
import type { ToolContext, ToolDefinition, ToolResult } from '../tools/types.js';
import type { CheckerAnswer, CheckerQuestion } from './checker-protocol.js';
import type { CodeGraph, ProjectSymbol } from './graph-types.js';
import { lookupSymbol, suggestNames, type Lookup } from './symbol-lookup.js';

export type Found = Extract<Lookup, { kind: 'found' }>;

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

/** The arguments every symbol tool takes (get_dependencies adds depth). */
export const SYMBOL_ARGS = {
  name: arg.string('Symbol name, e.g. "parseConfig" or "Session.save".', {
    nonEmpty: true,
    trim: true,
    expects: 'a non-empty string (a symbol name such as "parseConfig" or "Session.save")',
  }),
  file: optional(arg.string('Project-relative file to pick among same-named symbols.', { trim: true, expects: 'a string path' })),
  line: optional(arg.integer('A line of the wanted definition (as listed when a name is ambiguous), with file.', {
    min: 1, minInSchema: false, expects: 'a positive integer (a line of the definition, as the ambiguity list shows it)',
  })),
};

/** The file to look in: none when empty. */
function fileArg(file: string | undefined): string | undefined {
  return file === undefined || file === '' ? undefined : file;
}

type SymbolArgSpecs = typeof SYMBOL_ARGS & ArgSpecs;

/**
 * A code-map tool: the symbol arguments (and any of its own), read-only, offloadable, and the
 * lookup every one starts with — the name found in the graph (its file re-indexed first when it
 * changed on disk since), or the answer that it is ambiguous or unknown.
 */
export function symbolTool<S extends SymbolArgSpecs>(
  source: SymbolSource,
  spec: {
    readonly name: string;
    readonly description: string;
    readonly args: S;
    /** `found.definitions`: the symbol's declarations, several for overloads and variants (the first is `found.symbol`). */
    run(found: Found, graph: CodeGraph, args: ParsedArgs<S>, ctx: ToolContext): Promise<ToolResult>;
  },
): ToolDefinition {
  return defineTool({
    name: spec.name,
    description: spec.description,
    args: spec.args,
    closed: false,
    kind: 'read',
    bulk: true,
    async run(args, ctx) {
      const name = args.name as string;
      const file = fileArg(args.file as string | undefined);
      const line = args.line as number | undefined;
      await source.prepare?.();
      let found = lookupSymbol(source.graph(), name, file, line);
      if (found.kind === 'found') {
        await source.ensureFresh(found.symbol.file);
        found = lookupSymbol(source.graph(), name, file, line);
      }
      const graph = source.graph();
      if (found.kind !== 'found') return lookupFailure(graph, spec.name, name, found);
      return spec.run(found, graph, args, ctx);
    },
  });
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
    return false; // a path that cannot be resolved is not quoted silently
  }
}

export async function fileLines(root: string, rel: string): Promise<string[] | undefined> {
  try {
    return (await readFile(join(root, rel), 'utf8')).split(/\r?\n/);
  } catch {
    return undefined; // deleted or unreadable since it was indexed: the caller says so
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
    return failure(`"${name}" is ambiguous: ${why}. Call ${tool} again with the arguments of the one you mean:\n${list}${more}`, `${name}: ambiguous`, 'invalid_args');
  }
  const near = found.suggestions.length > 0 ? found.suggestions : suggestNames(graph, name);
  const hint = near.length > 0 ? ` Nearest names:\n${near.map((n) => `  ${n}`).join('\n')}` : ' Try grep to search the text.';
  return failure(`No symbol named "${name}" in the code map.${hint}`, `${name}: not found`, 'not_found');
}
