/** get_dependencies: what a symbol needs, transitively, as a tree of signatures with cycles marked. */
import type { ToolDefinition } from '../tools/types.js';
import type { CodeGraph } from './graph-types.js';
import { dependencyLevels, PARTIAL, type Dependency } from './symbol-answers.js';
import { arg, optional } from '../tools/args.js';
import { describe, SYMBOL_ARGS, symbolTool, type SymbolSource } from './tool-support.js';

const DEFAULT_DEPTH = 3;
const MAX_LINES = 300;

export function dependencyTree(graph: CodeGraph, root: number, depth: number,
  childrenOf: (id: number) => readonly Dependency[]): { text: string; count: number } {
  const lines = [describe(graph.symbols[root]!, 160)];
  const expanded = new Set<number>([root]);
  let truncated = false;
  const walk = (id: number, level: number, prefix: string, path: Set<number>): void => {
    const seen = new Set<number>();
    const children: Dependency[] = [];
    for (const child of childrenOf(id)) {
      if (seen.has(child.to)) continue;
      seen.add(child.to);
      children.push(child);
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
    description: 'Show what a symbol depends on: the functions and methods it calls and the types it references '
      + '(for a class, what its members use), transitively, as a tree of signatures (cycles marked). '
      + 'depth limits how far to follow (default 3, at most 10).',
    args: {
      ...SYMBOL_ARGS,
      depth: optional(arg.integer('How many levels to follow (default 3, at most 10).', { min: 1, clampTo: 10, minInSchema: false, expects: 'a positive integer' })),
    },
    async run(found, graph, args) {
      const depth = args.depth ?? DEFAULT_DEPTH;
      const root = found.symbol;
      const levels = await dependencyLevels(source, graph, found.definitions, depth);
      const tree = dependencyTree(graph, root.id, depth, (id) => levels.children.get(id) ?? []);
      const note = tree.count === 0 ? '\n(no dependencies inside the project)' : '';
      // A partial answer says so first: the model then knows the tree may be short.
      const partial = levels.note ? `(${levels.note})\n` : '';
      return { ok: true, content: `${partial}${tree.text}${note}`,
        summary: `${root.qualified}: ${tree.count} dependencies (depth ${depth})${levels.note ? ` (${PARTIAL}: syntax index)` : ''}` };
    },
  });
}
