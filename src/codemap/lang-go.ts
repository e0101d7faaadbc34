/** Go: functions, methods (by receiver type), structs, interfaces, types, consts and vars; calls, types, imports. */
import { posix } from 'node:path';
import { Collector, field, named, signatureOf, treeSitterPlugin, visit, type Node } from './tree-sitter-kit.js';
import type { ImportResolveContext } from './types.js';

const exportedName = (name: string): boolean => /^\p{Lu}/u.test(name);

/** The comment block right above a declaration: its first line is the doc. */
function docAbove(node: Node): string | undefined {
  let prev = node.previousNamedSibling;
  let first: Node | undefined;
  let row = node.startPosition.row;
  while (prev?.type === 'comment' && prev.endPosition.row === row - 1) {
    first = prev;
    row = prev.startPosition.row;
    prev = prev.previousNamedSibling;
  }
  return first?.text.replace(/^\/\/\s?|^\/\*\s*|\s*\*\/$/g, '').trim() || undefined;
}

function calleeName(fn: Node): string | undefined {
  if (fn.type === 'identifier') return fn.text;
  if (fn.type === 'selector_expression') {
    const operand = field(fn, 'operand');
    const head = operand ? calleeName(operand) : undefined;
    const f = field(fn, 'field');
    return head && f ? `${head}.${f.text}` : undefined;
  }
  if (fn.type === 'generic_type' || fn.type === 'index_expression') {
    const inner = named(fn)[0];
    return inner ? calleeName(inner) : undefined;
  }
  return undefined;
}

/** `receiver` is the method's receiver variable: `s.touch()` inside `func (s *Store)` is a call on self. */
function bodyEdges(c: Collector, node: Node, from: string, receiver?: string): void {
  visit(node, (n) => {
    if (n.type === 'call_expression') {
      const fn = field(n, 'function');
      let name = fn ? calleeName(fn) : undefined;
      if (name && receiver && name.startsWith(`${receiver}.`)) name = `self.${name.slice(receiver.length + 1)}`;
      if (name) c.edge(from, name, 'calls', n);
    } else if (n.type === 'composite_literal') {
      const type = field(n, 'type');
      if (type?.type === 'type_identifier') c.edge(from, type.text, 'calls', n);
      if (type?.type === 'qualified_type') c.edge(from, type.text.replace(/\s/g, ''), 'calls', n);
    } else if (n.type === 'type_identifier' && n.parent?.type !== 'type_spec') {
      c.edge(from, n.text, 'references', n);
    } else if (n.type === 'qualified_type') {
      c.edge(from, n.text.replace(/\s/g, ''), 'references', n);
    }
  });
}

function receiver(node: Node): { type?: string; name?: string } {
  const param = named(field(node, 'receiver'))[0];
  const type = param ? field(param, 'type') : null;
  const name = param ? field(param, 'name')?.text : undefined;
  return { ...(type ? { type: type.text.replace(/^\*/, '').replace(/\[.*$/, '') } : {}), ...(name ? { name } : {}) };
}

function extract(root: Node): ReturnType<Collector['result']> {
  const c = new Collector();
  for (const st of named(root)) {
    if (st.type === 'function_declaration' || st.type === 'method_declaration') {
      const name = field(st, 'name')?.text;
      if (!name) continue;
      const recv = st.type === 'method_declaration' ? receiver(st) : {};
      const container = recv.type;
      c.symbol(st, name, container ? 'method' : 'function', exportedName(name), signatureOf(st, field(st, 'body')), container, docAbove(st));
      bodyEdges(c, st, container ? `${container}.${name}` : name, recv.name);
    } else if (st.type === 'type_declaration') {
      for (const spec of named(st).filter((s) => s.type === 'type_spec' || s.type === 'type_alias')) {
        const name = field(spec, 'name')?.text;
        const type = field(spec, 'type');
        if (!name) continue;
        const kind = type?.type === 'struct_type' ? 'class' : type?.type === 'interface_type' ? 'interface' : 'type';
        const short = spec.text.split('\n').length <= 8 ? spec.text : `${signatureOf(spec, type)} ${type?.type === 'struct_type' ? 'struct' : 'interface'} { … }`;
        c.symbol(st, name, kind, exportedName(name), `type ${short}`, undefined, docAbove(st));
        if (type) bodyEdges(c, type, name);
      }
    } else if (st.type === 'const_declaration' || st.type === 'var_declaration') {
      for (const spec of named(st).filter((s) => s.type === 'const_spec' || s.type === 'var_spec')) {
        for (const n of spec.childrenForFieldName('name')) {
          if (!n) continue;
          const keyword = st.type === 'const_declaration' ? 'const' : 'var';
          c.symbol(spec, n.text, 'variable', exportedName(n.text), `${keyword} ${spec.text.split('\n')[0]!.slice(0, 100)}`);
          bodyEdges(c, spec, n.text);
        }
      }
    } else if (st.type === 'import_declaration') {
      visit(st, (spec) => {
        if (spec.type !== 'import_spec') return;
        const path = field(spec, 'path')?.text.replace(/^["`]|["`]$/g, '');
        if (!path) return;
        const alias = field(spec, 'name')?.text;
        if (alias === '_' || alias === '.') return;
        const local = alias ?? path.split('/').pop()!;
        c.imports.push({ source: path, names: { [local]: '*' } });
        c.edge('', local, 'imports', spec);
      });
    }
  }
  return c.result({ packageScoped: true });
}

/** An import path inside the project's module names a directory: every non-test .go file in it. */
export function resolveGoImport(_from: string, source: string, ctx: ImportResolveContext): readonly string[] {
  for (const [dir, mod] of Object.entries(ctx.facts.goModules ?? {})) {
    if (source !== mod && !source.startsWith(`${mod}/`)) continue;
    const pkgDir = posix.join(dir, source.slice(mod.length + 1));
    return [...ctx.files].filter((f) => posix.dirname(f) === (pkgDir || '.') && f.endsWith('.go') && !f.endsWith('_test.go')).sort();
  }
  return [];
}

export const goPlugin = treeSitterPlugin({ name: 'go', version: '1', grammar: 'go', extensions: ['.go'], extract, resolveImport: resolveGoImport });
