/** get_dependencies: what a symbol needs, transitively, as a tree of signatures with cycles marked. */
import type { ToolDefinition } from '../tools/types.js';
import type { CodeGraph } from './graph-types.js';
import { arg, optional } from '../tools/args.js';
import { describe, SYMBOL_ARGS, symbolTool, type SymbolSource } from './tool-support.js';

const DEFAULT_DEPTH = 3;
const MAX_LINES = 300;

export function dependencyTree(graph: CodeGraph, root: number, depth: number): { text: string; count: number } {
  const lines = [describe(graph.symbols[root]!, 160)];
  const expanded = new Set<number>([root]);
  let truncated = false;
  const walk = (id: number, level: number, prefix: string, path: Set<number>): void => {
    const seen = new Set<number>();
    const children: { to: number; kind: string }[] = [];
    for (const e of graph.outgoing[id] ?? []) {
      const edge = graph.edges[e]!;
      if (edge.kind === 'imports' || seen.has(edge.to)) continue;
      seen.add(edge.to);
      children.push({ to: edge.to, kind: edge.kind });
    }
    children.forEach((child, i) => {
      if (lines.length >= MAX_LINES) { truncated = true; return; }
      const last = i === children.length - 1;
      const branch = `${prefix}${last ? '└─ ' : '├─ '}`;
      const label = `${child.kind} ${describe(graph.symbols[child.to]!, 140)}`;
      if (path.has(child.to)) { lines.push(`${branch}${label}  (cycle)`); return; }
      if (expanded.has(child.to)) { lines.push(`${branch}${label}  (shown above)`); return; }
      expanded.add(child.to);
      lines.push(`${branch}${label}`);
      if (level < depth) {
        path.add(child.to);
        walk(child.to, level + 1, `${prefix}${last ? '   ' : '│  '}`, path);
        path.delete(child.to);
      }
    });
  };
  walk(root, 1, '', new Set([root]));
  if (truncated) lines.push(`… cut at ${MAX_LINES} lines; ask for a smaller depth or a dependency by name`);
  return { text: lines.join('\n'), count: expanded.size - 1 };
}

export function getDependenciesTool(source: SymbolSource): ToolDefinition {
  return symbolTool(source, {
    name: 'get_dependencies',
    description: 'Show what a symbol depends on: the functions it calls and the types it references, transitively, '
      + 'as a tree of signatures (cycles marked). depth limits how far to follow (default 3, at most 10).',
    args: {
      ...SYMBOL_ARGS,
      depth: optional(arg.integer('How many levels to follow (default 3, at most 10).', { min: 1, clampTo: 10, minInSchema: false, expects: 'a positive integer' })),
    },
    async run(symbol, graph, args) {
      const depth = args.depth ?? DEFAULT_DEPTH;
      const tree = dependencyTree(graph, symbol.id, depth);
      const note = tree.count === 0 ? '\n(no dependencies inside the project)' : '';
      return { ok: true, content: `${tree.text}${note}`, summary: `${symbol.qualified}: ${tree.count} dependencies (depth ${depth})` };
    },
  });
}
