/** Rust: fns, structs, enums, traits, impls (methods by type), type aliases, consts, inline mods; calls, types, use. */
import { posix } from 'node:path';
import { Collector, field, named, signatureOf, treeSitterPlugin, visit, type Node } from './tree-sitter-kit.js';
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

function bodyEdges(c: Collector, node: Node, from: string): void {
  visit(node, (n) => {
    if (n.type === 'call_expression') {
      let fn = field(n, 'function');
      if (fn?.type === 'generic_function') fn = field(fn, 'function');
      if (!fn) return;
      if (fn.type === 'identifier' || fn.type === 'scoped_identifier') c.edge(from, path(fn), 'calls', n);
      else if (fn.type === 'field_expression' && field(fn, 'value')?.type === 'self') c.edge(from, `self.${field(fn, 'field')?.text ?? ''}`, 'calls', n);
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
      c.symbol(st, name, container ? 'method' : 'function', inTrait || isPub(st), signatureOf(st, field(st, 'body')).replace(/;$/, ''), container, docAbove(st));
      bodyEdges(c, st, container ? `${container}.${name}` : name);
    } else if (st.type in KINDS && name) {
      const body = field(st, 'body');
      const short = st.text.split('\n').length <= 8 ? st.text.replace(/;$/, '') : `${signatureOf(st, body)} { … }`;
      c.symbol(st, name, KINDS[st.type]!, isPub(st), short, container, docAbove(st));
      const qualified = container ? `${container}.${name}` : name;
      if (st.type === 'trait_item') items(c, named(body), qualified, true);
      else bodyEdges(c, st, qualified);
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
      if (arg) useTree(c, arg, '', st);
    }
  }
}

/** `use a::b::{C, d as e}` → imports of C and e from `a::b`. */
function useTree(c: Collector, node: Node, prefix: string, decl: Node): void {
  const join = (a: string, b: string): string => (a ? `${a}::${b}` : b);
  if (node.type === 'scoped_identifier' || node.type === 'identifier') {
    const full = join(prefix, node.text.replace(/\s/g, ''));
    const parts = full.split('::');
    const last = parts.pop()!;
    if (last === 'self') return;
    c.imports.push({ source: parts.join('::'), names: { [last]: last } });
    c.edge('', last, 'imports', decl);
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
    for (const item of named(field(node, 'list'))) useTree(c, item, next, decl);
  } else if (node.type === 'use_list') {
    for (const item of named(node)) useTree(c, item, prefix, decl);
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

export const rustPlugin = treeSitterPlugin({ name: 'rust', version: '1', grammar: 'rust', extensions: ['.rs'], extract, resolveImport: resolveRustImport });
