/** Rust: fns, structs, enums, traits, impls (methods by type), type aliases, consts, inline mods; calls, types, use. */
import { posix } from 'node:path';
import { Collector, field, named, signatureOf, treeSitterPlugin, typeName, visit, type Node } from './tree-sitter-kit.js';
import type { ImportResolveContext } from './types.js';

const KINDS: Readonly<Record<string, 'class' | 'enum' | 'interface' | 'type' | 'variable'>> = {
  struct_item: 'class', union_item: 'class', enum_item: 'enum', trait_item: 'interface', type_item: 'type',
  const_item: 'variable', static_item: 'variable',
};

const isPub = (node: Node): boolean => named(node).some((c) => c.type === 'visibility_modifier');
const path = (node: Node): string => node.text.replace(/\s/g, '').replace(/::/g, '.').replace(/<.*$/, '');

function docAbove(node: Node): string | undefined {
  let prev = node.previousNamedSibling;
  let first: Node | undefined;
  while (prev && (prev.type === 'line_comment' || prev.type === 'attribute_item') && prev.endPosition.row >= node.startPosition.row - 50) {
    if (prev.type === 'line_comment' && prev.text.startsWith('///')) first = prev;
    prev = prev.previousNamedSibling;
  }
  return first?.text.replace(/^\/\/\/\s?/, '').trim() || undefined;
}

/** `self.store.get`, `x.get` for a method call's callee; undefined when its base is not a plain name. */
function receiverPath(e: Node): string | undefined {
  if (e.type === 'self') return 'self';
  if (e.type === 'identifier') return e.text;
  if (e.type === 'field_expression') {
    const value = field(e, 'value');
    const head = value ? receiverPath(value) : undefined;
    const f = field(e, 'field')?.text;
    return head && f ? `${head}.${f}` : undefined;
  }
  return undefined;
}

/** `Self::x` inside an impl is the impl's type. */
const selfed = (p: string, owner: string | undefined): string => (owner && (p === 'Self' || p.startsWith('Self.')) ? owner + p.slice(4) : p);

/** What an expression gives, as far as the code says: `Foo::new()` → 'Foo.new()', `Foo { .. }` → 'Foo'. */
function valueOf(e: Node | null, owner: string | undefined): string {
  if (!e) return '?';
  if (e.type === 'call_expression') {
    let fn = field(e, 'function');
    if (fn?.type === 'generic_function') fn = field(fn, 'function');
    if (fn && (fn.type === 'identifier' || fn.type === 'scoped_identifier')) return `${selfed(path(fn), owner)}()`;
    return '?';
  }
  if (e.type === 'struct_expression') {
    const name = field(e, 'name');
    return name ? selfed(path(name), owner) : '?';
  }
  if (e.type === 'reference_expression' || e.type === 'try_expression') return valueOf(named(e).at(-1) ?? null, owner);
  return '?';
}

/** Parameters and `let` bindings of a function with the types the code gives them ('?' when it does not). */
function localTypes(fn: Node, owner: string | undefined): Map<string, string> {
  const types = new Map<string, string>();
  const set = (pattern: Node | null, type: string): void => {
    const id = pattern?.type === 'identifier' ? pattern : pattern ? named(pattern).find((x) => x.type === 'identifier') : undefined;
    if (!id) return;
    if (pattern!.type !== 'identifier' && pattern!.type !== 'mut_pattern') {
      visit(pattern!, (x) => { if (x.type === 'identifier' && !types.has(x.text)) types.set(x.text, '?'); });
      return;
    }
    const known = types.get(id.text);
    if (known === undefined || known === '?') types.set(id.text, type);
  };
  for (const p of named(field(fn, 'parameters'))) {
    if (p.type === 'parameter') set(field(p, 'pattern'), selfed(typeName(field(p, 'type')?.text) ?? '?', owner));
  }
  const body = field(fn, 'body');
  if (body) {
    visit(body, (n) => {
      if (n.type === 'let_declaration') {
        const declared = typeName(field(n, 'type')?.text);
        set(field(n, 'pattern'), declared ? selfed(declared, owner) : valueOf(field(n, 'value'), owner));
      } else if (n.type === 'closure_parameters' || n.type === 'for_expression') {
        const target = n.type === 'for_expression' ? field(n, 'pattern') : n;
        if (target) visit(target, (x) => { if (x.type === 'identifier') types.set(x.text, '?'); });
        if (n.type === 'for_expression' && field(n, 'pattern')?.type === 'identifier') types.set(field(n, 'pattern')!.text, '?');
      }
    });
  }
  return types;
}

function bodyEdges(c: Collector, node: Node, from: string, owner?: string, locals?: ReadonlyMap<string, string>): void {
  visit(node, (n) => {
    if (n.type === 'call_expression') {
      let fn = field(n, 'function');
      if (fn?.type === 'generic_function') fn = field(fn, 'function');
      if (!fn) return;
      if (fn.type === 'identifier' || fn.type === 'scoped_identifier') {
        const name = selfed(path(fn), owner);
        c.edge(from, name, 'calls', n, fn.type === 'identifier' ? locals?.get(name) : undefined);
      } else if (fn.type === 'field_expression') {
        const name = receiverPath(fn);
        if (name) c.edge(from, name, 'calls', n, name.startsWith('self.') ? undefined : locals?.get(name.split('.', 1)[0]!));
      }
    } else if (n.type === 'struct_expression') {
      const name = field(n, 'name');
      if (name) c.edge(from, path(name), 'calls', n);
    } else if (n.type === 'type_identifier' || n.type === 'scoped_type_identifier') {
      if (n.parent?.type !== 'scoped_type_identifier') c.edge(from, path(n), 'references', n);
    }
  });
}

function items(c: Collector, list: readonly Node[], container: string | undefined, inTrait: boolean): void {
  for (const st of list) {
    const name = field(st, 'name')?.text;
    if (st.type === 'function_item' || st.type === 'function_signature_item') {
      if (!name) continue;
      const returns = typeName(field(st, 'return_type')?.text);
      c.symbol(st, name, container ? 'method' : 'function', inTrait || isPub(st), signatureOf(st, field(st, 'body')).replace(/;$/, ''), container, docAbove(st),
        returns ? selfed(returns, container) : undefined);
      bodyEdges(c, st, container ? `${container}.${name}` : name, container, localTypes(st, container));
    } else if (st.type in KINDS && name) {
      const body = field(st, 'body');
      const short = st.text.split('\n').length <= 8 ? st.text.replace(/;$/, '') : `${signatureOf(st, body)} { … }`;
      c.symbol(st, name, KINDS[st.type]!, isPub(st), short, container, docAbove(st));
      const qualified = container ? `${container}.${name}` : name;
      if (st.type === 'trait_item') items(c, named(body), qualified, true);
      else bodyEdges(c, st, qualified);
      // Struct fields with their types: `self.store.get()` is looked up through them.
      if (st.type === 'struct_item' && body?.type === 'field_declaration_list') {
        for (const f of named(body).filter((x) => x.type === 'field_declaration')) {
          const fname = field(f, 'name')?.text;
          if (fname) c.symbol(f, fname, 'property', isPub(f), f.text.trim().slice(0, 120), qualified, undefined, typeName(field(f, 'type')?.text));
        }
      }
    } else if (st.type === 'impl_item') {
      const type = field(st, 'type');
      const trait = field(st, 'trait');
      if (!type) continue;
      const self = path(type).split('.').pop()!;
      if (trait) c.edge(self, path(trait), 'implements', st);
      items(c, named(field(st, 'body')), self, false);
    } else if (st.type === 'mod_item' && name) {
      const body = field(st, 'body');
      c.symbol(st, name, 'namespace', isPub(st), signatureOf(st, body).replace(/;$/, ''), container, docAbove(st));
      if (body) items(c, named(body), container ? `${container}.${name}` : name, false);
    } else if (st.type === 'use_declaration') {
      const arg = field(st, 'argument');
      if (arg) useTree(c, arg, '');
    }
  }
}

/** `use a::b::{C, d as e}` → imports of C and e from `a::b`. */
function useTree(c: Collector, node: Node, prefix: string): void {
  const join = (a: string, b: string): string => (a ? `${a}::${b}` : b);
  if (node.type === 'scoped_identifier' || node.type === 'identifier') {
    const full = join(prefix, node.text.replace(/\s/g, ''));
    const parts = full.split('::');
    const last = parts.pop()!;
    if (last === 'self') return;
    c.imports.push({ source: parts.join('::'), names: { [last]: last } });
    c.edge('', last, 'imports', node);
  } else if (node.type === 'use_as_clause') {
    const p = field(node, 'path');
    const alias = field(node, 'alias')?.text;
    if (!p || !alias) return;
    const parts = join(prefix, p.text.replace(/\s/g, '')).split('::');
    const last = parts.pop()!;
    c.imports.push({ source: parts.join('::'), names: { [alias]: last } });
  } else if (node.type === 'scoped_use_list') {
    const p = field(node, 'path');
    const next = p ? join(prefix, p.text.replace(/\s/g, '')) : prefix;
    for (const item of named(field(node, 'list'))) useTree(c, item, next);
  } else if (node.type === 'use_list') {
    for (const item of named(node)) useTree(c, item, prefix);
  }
}

function extract(root: Node): ReturnType<Collector['result']> {
  const c = new Collector();
  items(c, named(root), undefined, false);
  return c.result({ packageScoped: true });
}

/** `crate::a::b` → src/a/b.rs or src/a/b/mod.rs; `super::` and `self::` relative to the file's module. */
export function resolveRustImport(fromFile: string, source: string, ctx: ImportResolveContext): readonly string[] {
  const parts = source.split('::').filter(Boolean);
  if (parts.length === 0) return [];
  const srcRoot = fromFile.includes('src/') ? fromFile.slice(0, fromFile.lastIndexOf('src/') + 4) : '';
  const stem = fromFile.replace(/\.rs$/, '');
  const ownDir = /(^|\/)(mod|lib|main)$/.test(stem) ? posix.dirname(fromFile) : stem;
  let dir: string;
  if (parts[0] === 'crate') dir = srcRoot.replace(/\/$/, '');
  else if (parts[0] === 'self') dir = ownDir;
  else if (parts[0] === 'super') dir = posix.dirname(ownDir);
  else return [];
  let i = 1;
  while (parts[i] === 'super') { dir = posix.dirname(dir); i++; }
  const rest = parts.slice(i).join('/');
  const base = rest ? posix.join(dir, rest) : dir;
  const candidates = rest ? [`${base}.rs`, `${base}/mod.rs`] : [`${base}/lib.rs`, `${base}/main.rs`, `${base}/mod.rs`, `${base}.rs`];
  const hit = candidates.map((p) => posix.normalize(p).replace(/^\.\//, '')).find((p) => ctx.files.has(p));
  return hit ? [hit] : [];
}

export const rustPlugin = treeSitterPlugin({ name: 'rust', version: '3', grammar: 'rust', extensions: ['.rs'], extract, resolveImport: resolveRustImport });
