/** find_references: every place in the project that uses a symbol, with the line's text. */
import { join } from 'node:path';
import type { ToolContext, ToolDefinition } from '../tools/types.js';
import type { CodeGraph } from './graph-types.js';
import { findReferences, PARTIAL, type Reference } from './symbol-answers.js';
import { fileLines, quietlyReadable, SYMBOL_ARGS, symbolTool, type SymbolSource } from './tool-support.js';

/** References shown with their line's text; past that, by place only (still every one, up to MAX_LISTED). */
const MAX_REFERENCES = 200;
const MAX_LISTED = 10_000;
const MAX_POSSIBLE = 60;

async function listing(source: SymbolSource, ctx: ToolContext, graph: CodeGraph, refs: readonly Reference[], max: number, listed: number): Promise<string[]> {
  const cache = new Map<string, string[] | undefined>();
  const out: string[] = [];
  for (const [i, r] of refs.slice(0, listed).entries()) {
    if (i >= max) {
      if (i === max) out.push(`  (${refs.length - max} more, without their text:)`);
      out.push(`  ${r.file}:${r.line} ${r.from >= 0 ? graph.symbols[r.from]!.qualified : '(top level)'} [${r.kind}]`);
      continue;
    }
    if (!cache.has(r.file)) {
      cache.set(r.file, (await quietlyReadable(ctx, join(source.root, r.file))) ? await fileLines(source.root, r.file) : undefined);
    }
    const text = cache.get(r.file)?.[r.line - 1]?.trim() ?? '';
    const by = r.from >= 0 ? graph.symbols[r.from]!.qualified : '(top level)';
    out.push(`  ${r.file}:${r.line} ${by} [${r.kind}]: ${text.length > 160 ? `${text.slice(0, 159)}…` : text}`);
  }
  if (refs.length > listed) out.push(`  … ${refs.length - listed} more`);
  return out;
}

export function findReferencesTool(source: SymbolSource): ToolDefinition {
  return symbolTool(source, {
    name: 'find_references',
    description: 'List every place in the project that calls, references, extends, implements or imports the named symbol, '
      + 'grouped by the symbol it sits in, with file:line and the text of that line. Use before changing a function\'s signature.',
    args: SYMBOL_ARGS,
    async run(found, graph, _args, ctx) {
      const s = found.symbol;
      const refs = await findReferences(source, graph, found.definitions);
      const defs = found.definitions.length > 1 ? `, ${found.definitions.length} definitions` : '';
      const head = `${s.kind} ${s.qualified} (${s.file}:${s.startLine}${defs})`;
      // A partial answer says so first: the model then knows the list may be short.
      const note = refs.note ? `(${refs.note})\n` : '';
      const parts: string[] = [];
      if (refs.sure.length === 0) parts.push(`No references to ${head} found in the project (dynamic uses and external callers are not tracked).`);
      else {
        const users = new Set(refs.sure.map((r) => `${r.file}\0${r.from}`)).size;
        parts.push(`${refs.sure.length} references to ${head}, in ${users} ${users === 1 ? 'symbol' : 'symbols'}:`, ...await listing(source, ctx, graph, refs.sure, MAX_REFERENCES, MAX_LISTED));
      }
      if (refs.possible.length > 0) {
        parts.push(`Possible references (receiver type unknown; a call of a method named ${s.name} on a value the index could not type) (${refs.possible.length}):`,
          ...await listing(source, ctx, graph, refs.possible, MAX_POSSIBLE, MAX_POSSIBLE));
      }
      const extra = refs.possible.length > 0 ? `, ${refs.possible.length} possible` : '';
      const partial = refs.note ? ` (${PARTIAL}: syntax index)` : '';
      return { ok: true, content: `${note}${parts.join('\n')}`, summary: `${s.qualified}: ${refs.sure.length} references${extra}${partial}` };
    },
  });
}
