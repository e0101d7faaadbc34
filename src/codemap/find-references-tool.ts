/** find_references: every place in the project that uses a symbol, with the line's text. */
import { join } from 'node:path';
import type { ToolDefinition } from '../tools/types.js';
import { fileLines, quietlyReadable, SYMBOL_ARGS, symbolTool, type SymbolSource } from './tool-support.js';

const MAX_REFERENCES = 200;

export function findReferencesTool(source: SymbolSource): ToolDefinition {
  return symbolTool(source, {
    name: 'find_references',
    description: 'List every symbol in the project that calls, references, extends, implements or imports the named symbol, '
      + 'with file:line and the text of that line. Use before changing a function\'s signature.',
    args: SYMBOL_ARGS,
    async run(s, graph, _args, ctx) {
      const edges = (graph.incoming[s.id] ?? []).map((e) => graph.edges[e]!)
        .sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : a.line - b.line));
      const head = `${s.kind} ${s.qualified} (${s.file}:${s.startLine})`;
      if (edges.length === 0) {
        return { ok: true, content: `No references to ${head} found in the project (dynamic uses and external callers are not tracked).`, summary: `${s.qualified}: 0 references` };
      }
      const cache = new Map<string, string[] | undefined>();
      const out: string[] = [];
      for (const e of edges.slice(0, MAX_REFERENCES)) {
        if (!cache.has(e.file)) {
          cache.set(e.file, (await quietlyReadable(ctx, join(source.root, e.file))) ? await fileLines(source.root, e.file) : undefined);
        }
        const text = cache.get(e.file)?.[e.line - 1]?.trim() ?? '';
        const by = e.from >= 0 ? graph.symbols[e.from]!.qualified : '(top level)';
        out.push(`  ${e.file}:${e.line} ${by} [${e.kind}]: ${text.length > 160 ? `${text.slice(0, 159)}…` : text}`);
      }
      if (edges.length > MAX_REFERENCES) out.push(`  … ${edges.length - MAX_REFERENCES} more`);
      return { ok: true, content: `${edges.length} references to ${head}:\n${out.join('\n')}`, summary: `${s.qualified}: ${edges.length} references` };
    },
  });
}
