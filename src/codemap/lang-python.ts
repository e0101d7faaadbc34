/** Python: functions, classes, methods, module constants; calls, base classes, annotations, imports. */
import { posix } from 'node:path';
import { Collector, field, named, signatureOf, treeSitterPlugin, typeName, visit, type Node } from './tree-sitter-kit.js';
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

const SCOPES = (n: Node): boolean => n.type === 'function_definition' || n.type === 'class_definition' || n.type === 'lambda';

/** What the code says a value is: `Foo(...)` → 'Foo()', a name of unknown type → '?'. */
function valueOf(right: Node | null): string {
  if (right?.type === 'call') {
    const fn = field(right, 'function');
    const name = fn ? calleeName(fn) : undefined;
    if (name) return `${name}()`;
  }
  return '?';
}

/** A function's parameters and locals with the types the code gives them ('?' when it does not). */
function localTypes(fn: Node): Map<string, string> {
  const types = new Map<string, string>();
  const set = (name: string | undefined, type: string): void => {
    if (!name || name === 'self' || name === 'cls') return;
    const known = types.get(name);
    if (known === undefined || known === '?') types.set(name, type);
  };
  for (const p of named(field(fn, 'parameters'))) {
    if (p.type === 'identifier') set(p.text, '?');
    else if (p.type === 'typed_parameter' || p.type === 'typed_default_parameter') {
      const nameNode = field(p, 'name') ?? named(p).find((x) => x.type === 'identifier') ?? null;
      set(nameNode?.text, typeName(field(p, 'type')?.text) ?? '?');
    } else if (p.type === 'default_parameter') set(field(p, 'name')?.text, '?');
    else set(named(p).find((x) => x.type === 'identifier')?.text, '?');
  }
  const body = field(fn, 'body');
  if (body) {
    visit(body, (n) => {
      if (n.type === 'assignment') {
        const left = field(n, 'left');
        const annotated = typeName(field(n, 'type')?.text);
        if (left?.type === 'identifier') set(left.text, annotated ?? valueOf(field(n, 'right')));
        else if (left) visit(left, (x) => { if (x.type === 'identifier') set(x.text, '?'); });
      } else if (n.type === 'for_statement' || n.type === 'for_in_clause') {
        const left = field(n, 'left');
        if (left?.type === 'identifier') set(left.text, '?');
        else if (left) visit(left, (x) => { if (x.type === 'identifier') set(x.text, '?'); });
      } else if (n.type === 'as_pattern') {
        const alias = field(n, 'alias');
        const target = alias ? named(alias).find((x) => x.type === 'identifier') ?? alias : undefined;
        const value = named(n)[0];
        if (target?.type === 'identifier') set(target.text, value?.type === 'call' ? valueOf(value) : '?');
      } else if (n.type === 'named_expression') set(field(n, 'name')?.text, valueOf(field(n, 'value')));
    }, SCOPES);
  }
  return types;
}

/** Names that are written but are not uses of something: declarations, keyword names, import lists. */
function declaresName(n: Node): boolean {
  const p = n.parent;
  if (!p) return true;
  if ((p.type === 'function_definition' || p.type === 'class_definition') && field(p, 'name')?.id === n.id) return true;
  if (p.type === 'keyword_argument' && field(p, 'name')?.id === n.id) return true;
  if (p.type === 'parameters' || p.type === 'lambda_parameters' || p.type === 'default_parameter' || p.type === 'typed_parameter'
    || p.type === 'typed_default_parameter' || p.type === 'list_splat_pattern' || p.type === 'dictionary_splat_pattern') {
    return p.type === 'parameters' || p.type === 'lambda_parameters' || field(p, 'name')?.id === n.id || named(p)[0]?.id === n.id;
  }
  if (p.type === 'attribute') return field(p, 'attribute')?.id === n.id;
  return /import|global_statement|nonlocal_statement|dotted_name|aliased_import/.test(p.type);
}

/**
 * Calls, and every other use of a name or an attribute (reads, writes, decorators, annotations,
 * string annotations): a parameter or local never binds to a project symbol of its name.
 */
function bodyEdges(c: Collector, node: Node, from: string, locals?: ReadonlyMap<string, string>): void {
  const via = (name: string): string | undefined => locals?.get(name.split('.', 1)[0]!);
  visit(node, (n) => {
    if (n.type === 'call') {
      const fn = field(n, 'function');
      const name = fn ? calleeName(fn) : undefined;
      if (name) c.edge(from, name, 'calls', n, via(name));
      // super().m(): the base class's m.
      const obj = fn?.type === 'attribute' ? field(fn, 'object') : null;
      const attr = fn?.type === 'attribute' ? field(fn, 'attribute')?.text : undefined;
      if (obj?.type === 'call' && field(obj, 'function')?.text === 'super' && attr) c.edge(from, `self.${attr}`, 'calls', n, 'super()');
    } else if (n.type === 'import_statement' || n.type === 'import_from_statement') {
      importStatement(c, n, from);
    } else if (n.type === 'identifier' && !declaresName(n)) {
      const parent = n.parent;
      if (parent?.type === 'call' && field(parent, 'function')?.id === n.id) return;
      if (locals?.has(n.text)) return;
      c.edge(from, n.text, 'references', n);
    } else if (n.type === 'attribute') {
      const parent = n.parent;
      if (parent?.type === 'call' && field(parent, 'function')?.id === n.id) return;
      const name = calleeName(n);
      if (name && via(name) !== '?') c.edge(from, name, 'references', n, via(name));
    } else if (n.type === 'string' && n.parent?.type === 'type') {
      // `x: "Context"`: a forward reference, a use of Context.
      const inner = /^["']([A-Za-z_][\w.]*)["']$/.exec(n.text.trim());
      if (inner) c.edge(from, inner[1]!, 'references', n);
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
    // At the `def` line, not the decorator's: map lines and tool answers point at the declaration.
    c.symbol(inner, name, container ? 'method' : 'function', exported, signatureOf(inner, body), container, docstring(body),
      typeName(field(inner, 'return_type')?.text));
    bodyEdges(c, node, qualified, localTypes(inner));
  } else if (inner.type === 'class_definition') {
    if (node !== inner) for (const d of named(node).filter((x) => x.type === 'decorator')) bodyEdges(c, d, qualified);
    c.symbol(inner, name, 'class', exported, signatureOf(inner, body), container, docstring(body));
    fields(c, inner, qualified);
    for (const base of named(field(inner, 'superclasses'))) {
      const baseName = calleeName(base);
      if (baseName) c.edge(qualified, baseName, 'extends', base);
    }
    for (const st of named(body)) {
      if (st.type === 'function_definition' || st.type === 'class_definition' || st.type === 'decorated_definition') definition(c, st, qualified);
      else bodyEdges(c, st, qualified);
    }
  }
}

/**
 * A class's fields with what the code says they hold: `self.x = Foo()` / `self.x: Foo` in its
 * methods, `x: Foo` in its body. They are what `self.x.method()` is looked up through.
 */
function fields(c: Collector, cls: Node, qualified: string): void {
  const seen = new Map<string, { node: Node; type: string }>();
  const add = (name: string, node: Node, type: string): void => {
    const known = seen.get(name);
    if (!known || (known.type === '?' && type !== '?')) seen.set(name, { node: known?.node ?? node, type });
  };
  const body = field(cls, 'body');
  for (const st of named(body)) {
    const assign = st.type === 'expression_statement' ? named(st)[0] : undefined;
    const left = assign?.type === 'assignment' ? field(assign, 'left') : undefined;
    if (assign && left?.type === 'identifier' && field(assign, 'type')) add(left.text, st, typeName(field(assign, 'type')?.text) ?? '?');
    const fn = st.type === 'decorated_definition' ? field(st, 'definition') : st;
    if (fn?.type !== 'function_definition') continue;
    const locals = localTypes(fn);
    visit(fn, (n) => {
      if (n.type !== 'assignment') return;
      const target = field(n, 'left');
      if (target?.type !== 'attribute' || field(target, 'object')?.text !== 'self') return;
      const attr = field(target, 'attribute')?.text;
      const right = field(n, 'right');
      const annotated = typeName(field(n, 'type')?.text);
      // `self.x = x` where the parameter x is typed: the field has that type.
      const fromLocal = right?.type === 'identifier' ? locals.get(right.text) : undefined;
      if (attr) add(attr, n, annotated ?? fromLocal ?? valueOf(right));
    }, SCOPES);
  }
  const declared = new Set(c.symbols.filter((x) => x.container === qualified).map((x) => x.name));
  for (const [name, { node, type }] of seen) {
    if (declared.has(name)) continue;
    c.symbol(node, name, 'property', !name.startsWith('_'), node.text.split('\n')[0]!.slice(0, 120), qualified, undefined, type === '?' ? undefined : type);
  }
}

/** `from`: the symbol a nested import sits in (imports inside functions and `if TYPE_CHECKING:` blocks count too). */
function importStatement(c: Collector, node: Node, from = ''): void {
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
  /** Where each name is written: an import list in parentheses spans lines, and each name is a use on its own. */
  const written: [string, Node][] = [];
  for (const n of node.childrenForFieldName('name')) {
    if (!n) continue;
    if (n.type === 'aliased_import') {
      const orig = field(n, 'name')?.text;
      const alias = field(n, 'alias')?.text;
      if (orig && alias) {
        names[alias] = orig;
        written.push([alias, n]);
      }
    } else {
      names[n.text] = n.text;
      written.push([n.text, n]);
    }
  }
  // A name imported into a module is an attribute of it: other modules can import it from there.
  c.imports.push({ source: module.text, names, reexport: true });
  for (const [local, at] of written) c.edge(from, local, 'imports', at);
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
        const value = typeName(field(assign, 'type')?.text) ?? valueOf(field(assign, 'right'));
        c.symbol(st, left.text, 'variable', !left.text.startsWith('_'), signatureOf(assign, field(assign, 'right')).replace(/\s*=$/, '')
          + ` = ${(field(assign, 'right')?.text ?? '').split('\n')[0]!.slice(0, 60)}`, undefined, undefined, value === '?' ? undefined : value);
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
  name: 'python', version: '6', grammar: 'python', extensions: ['.py', '.pyi'], extract, resolveImport: resolvePythonImport,
});
