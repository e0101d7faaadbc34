/** Python: functions, classes, methods, module constants; calls, base classes, annotations, imports. */
import { posix } from 'node:path';
import { Collector, field, named, signatureOf, treeSitterPlugin, visit, type Node } from './tree-sitter-kit.js';
import type { ImportResolveContext } from './types.js';

function docstring(body: Node | null): string | undefined {
  const first = named(body)[0];
  const str = first?.type === 'expression_statement' ? named(first)[0] : undefined;
  if (str?.type !== 'string') return undefined;
  const line = str.text.replace(/^[rRbBuU]*("""|'''|"|')/, '').split('\n').map((l) => l.trim()).find((l) => l && !/^("""|''')$/.test(l));
  return line?.replace(/("""|''')$/, '').trim() || undefined;
}

function calleeName(fn: Node): string | undefined {
  if (fn.type === 'identifier') return fn.text;
  if (fn.type === 'attribute') {
    const obj = field(fn, 'object');
    const attr = field(fn, 'attribute');
    const head = obj ? calleeName(obj) : undefined;
    return head && attr ? `${head}.${attr.text}` : undefined;
  }
  return undefined;
}

function bodyEdges(c: Collector, node: Node, from: string): void {
  visit(node, (n) => {
    if (n.type === 'call') {
      const fn = field(n, 'function');
      const name = fn ? calleeName(fn) : undefined;
      if (name) c.edge(from, name, 'calls', n);
    } else if (n.type === 'type') {
      visit(n, (t) => {
        if (t.type === 'identifier') c.edge(from, t.text, 'references', t);
      });
    }
  }, (n) => n.type === 'class_definition');
}

function definition(c: Collector, node: Node, container: string | undefined): void {
  const inner = node.type === 'decorated_definition' ? field(node, 'definition') : node;
  if (!inner) return;
  const nameNode = field(inner, 'name');
  if (!nameNode) return;
  const name = nameNode.text;
  const body = field(inner, 'body');
  const qualified = container ? `${container}.${name}` : name;
  const exported = !name.startsWith('_') || /^__\w+__$/.test(name);
  if (inner.type === 'function_definition') {
    c.symbol(node, name, container ? 'method' : 'function', exported, signatureOf(inner, body), container, docstring(body));
    bodyEdges(c, inner, qualified);
  } else if (inner.type === 'class_definition') {
    c.symbol(node, name, 'class', exported, signatureOf(inner, body), container, docstring(body));
    for (const base of named(field(inner, 'superclasses'))) {
      const baseName = calleeName(base);
      if (baseName) c.edge(qualified, baseName, 'extends', base);
    }
    for (const st of named(body)) {
      if (st.type === 'function_definition' || st.type === 'class_definition' || st.type === 'decorated_definition') definition(c, st, qualified);
    }
  }
}

function importStatement(c: Collector, node: Node): void {
  if (node.type === 'import_statement') {
    for (const n of named(node)) {
      const dotted = n.type === 'aliased_import' ? field(n, 'name') : n;
      const alias = n.type === 'aliased_import' ? field(n, 'alias')?.text : undefined;
      if (dotted) c.imports.push({ source: dotted.text, names: { [alias ?? dotted.text]: '*' } });
    }
    return;
  }
  const module = field(node, 'module_name');
  if (!module) return;
  const names: Record<string, string> = {};
  for (const n of node.childrenForFieldName('name')) {
    if (!n) continue;
    if (n.type === 'aliased_import') {
      const orig = field(n, 'name')?.text;
      const alias = field(n, 'alias')?.text;
      if (orig && alias) names[alias] = orig;
    } else names[n.text] = n.text;
  }
  c.imports.push({ source: module.text, names });
  for (const local of Object.keys(names)) c.edge('', local, 'imports', node);
}

function extract(root: Node): ReturnType<Collector['result']> {
  const c = new Collector();
  for (const st of named(root)) {
    if (st.type === 'function_definition' || st.type === 'class_definition' || st.type === 'decorated_definition') definition(c, st, undefined);
    else if (st.type === 'import_statement' || st.type === 'import_from_statement') importStatement(c, st);
    else if (st.type === 'expression_statement' && named(st)[0]?.type === 'assignment') {
      const assign = named(st)[0]!;
      const left = field(assign, 'left');
      if (left?.type === 'identifier') {
        c.symbol(st, left.text, 'variable', !left.text.startsWith('_'), signatureOf(assign, field(assign, 'right')).replace(/\s*=$/, '')
          + ` = ${(field(assign, 'right')?.text ?? '').split('\n')[0]!.slice(0, 60)}`);
        bodyEdges(c, st, left.text);
      } else bodyEdges(c, st, '');
    } else bodyEdges(c, st, '');
  }
  return c.result({ moduleScoped: true });
}

/** `.mod`, `..pkg.mod` relative to the file; `a.b` from the project root, a `src/` folder, or any unique suffix. */
export function resolvePythonImport(fromFile: string, source: string, ctx: ImportResolveContext): readonly string[] {
  const dots = /^\.*/.exec(source)![0].length;
  const rest = source.slice(dots).replace(/\./g, '/');
  const candidates = (base: string): string[] => (base ? [`${base}.py`, `${base}/__init__.py`] : []);
  if (dots > 0) {
    let dir = posix.dirname(fromFile);
    for (let i = 1; i < dots; i++) dir = posix.dirname(dir);
    const base = rest ? posix.join(dir, rest) : posix.join(dir, '__init__');
    const hit = (rest ? candidates(base) : [`${base}.py`]).map((p) => posix.normalize(p)).find((p) => ctx.files.has(p));
    return hit ? [hit] : [];
  }
  for (const prefix of ['', 'src/', 'lib/']) {
    const hit = candidates(prefix + rest).find((p) => ctx.files.has(p));
    if (hit) return [hit];
  }
  const suffixes = candidates(rest).map((p) => `/${p}`);
  const matches = [...ctx.files].filter((f) => suffixes.some((s) => f.endsWith(s)));
  return matches.length === 1 ? matches : [];
}

export const pythonPlugin = treeSitterPlugin({
  name: 'python', version: '1', grammar: 'python', extensions: ['.py', '.pyi'], extract, resolveImport: resolvePythonImport,
});
