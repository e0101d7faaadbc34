/** Go: functions, methods (by receiver type), structs, interfaces, types, consts and vars; calls, types, imports. */
import { posix } from 'node:path';
import { Collector, field, named, signatureOf, treeSitterPlugin, typeName, visit, type Node } from './tree-sitter-kit.js';
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

/** What an expression gives, as far as the code says: `NewFoo()` → 'NewFoo()', `&Foo{}` → 'Foo'. */
function valueOf(e: Node | undefined): string {
  if (!e) return '?';
  if (e.type === 'call_expression') {
    const fn = field(e, 'function');
    const name = fn ? calleeName(fn) : undefined;
    return name ? `${name}()` : '?';
  }
  if (e.type === 'unary_expression') return valueOf(field(e, 'operand') ?? undefined);
  if (e.type === 'composite_literal') return typeName(field(e, 'type')?.text) ?? '?';
  return '?';
}

/** The first result type of a function (`(*Store, error)` → Store). */
function resultType(fn: Node): string | undefined {
  const result = field(fn, 'result');
  if (!result) return undefined;
  if (result.type === 'parameter_list') return typeName(field(named(result)[0] ?? result, 'type')?.text);
  return typeName(result.text);
}

/** Parameters and locals of a function with the types the code gives them ('?' when it does not). */
function localTypes(fn: Node): Map<string, string> {
  const types = new Map<string, string>();
  const set = (name: string | undefined, type: string): void => {
    if (!name || name === '_') return;
    const known = types.get(name);
    if (known === undefined || known === '?') types.set(name, type);
  };
  for (const p of named(field(fn, 'parameters'))) {
    const type = typeName(field(p, 'type')?.text) ?? '?';
    for (const n of p.childrenForFieldName('name')) set(n?.text, type);
  }
  const body = field(fn, 'body');
  if (body) {
    visit(body, (n) => {
      if (n.type === 'short_var_declaration' || n.type === 'assignment_statement') {
        const left = named(field(n, 'left'));
        const right = named(field(n, 'right'));
        left.forEach((l, i) => {
          if (l.type !== 'identifier') return;
          const value = right.length === left.length ? valueOf(right[i]) : i === 0 ? valueOf(right[0]) : '?';
          if (n.type === 'short_var_declaration' || !types.has(l.text)) set(l.text, value);
        });
      } else if (n.type === 'var_spec') {
        const declared = typeName(field(n, 'type')?.text);
        const values = named(field(n, 'value'));
        n.childrenForFieldName('name').forEach((nm, i) => set(nm?.text, declared ?? valueOf(values[i])));
      } else if (n.type === 'range_clause') {
        for (const l of named(field(n, 'left'))) if (l.type === 'identifier') set(l.text, '?');
      }
    }, (n) => n.type === 'func_literal');
  }
  return types;
}

/** `receiver` is the method's receiver variable: `s.touch()` inside `func (s *Store)` is a call on self. */
function bodyEdges(c: Collector, node: Node, from: string, receiver?: string, locals?: ReadonlyMap<string, string>): void {
  visit(node, (n) => {
    if (n.type === 'call_expression') {
      const fn = field(n, 'function');
      let name = fn ? calleeName(fn) : undefined;
      if (name && receiver && (name === receiver || name.startsWith(`${receiver}.`))) name = `self${name.slice(receiver.length)}`;
      if (name) c.edge(from, name, 'calls', n, name.startsWith('self.') ? undefined : locals?.get(name.split('.', 1)[0]!));
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
      c.symbol(st, name, container ? 'method' : 'function', exportedName(name), signatureOf(st, field(st, 'body')), container, docAbove(st), resultType(st));
      const locals = localTypes(st);
      if (recv.name) locals.delete(recv.name);
      bodyEdges(c, st, container ? `${container}.${name}` : name, recv.name, locals);
    } else if (st.type === 'type_declaration') {
      for (const spec of named(st).filter((s) => s.type === 'type_spec' || s.type === 'type_alias')) {
        const name = field(spec, 'name')?.text;
        const type = field(spec, 'type');
        if (!name) continue;
        const kind = type?.type === 'struct_type' ? 'class' : type?.type === 'interface_type' ? 'interface' : 'type';
        const short = spec.text.split('\n').length <= 8 ? spec.text : `${signatureOf(spec, type)} ${type?.type === 'struct_type' ? 'struct' : 'interface'} { … }`;
        c.symbol(st, name, kind, exportedName(name), `type ${short}`, undefined, docAbove(st));
        if (type) bodyEdges(c, type, name);
        // Struct fields with their types: `s.store.Get()` is looked up through them.
        if (type?.type === 'struct_type') {
          visit(type, (f) => {
            if (f.type !== 'field_declaration') return;
            const fieldType = typeName(field(f, 'type')?.text);
            for (const n of f.childrenForFieldName('name')) {
              if (n) c.symbol(f, n.text, 'property', exportedName(n.text), f.text.split('\n')[0]!.trim().slice(0, 120), name, undefined, fieldType);
            }
          }, (x) => x.type === 'struct_type');
        }
      }
    } else if (st.type === 'const_declaration' || st.type === 'var_declaration') {
      for (const spec of named(st).filter((s) => s.type === 'const_spec' || s.type === 'var_spec')) {
        for (const n of spec.childrenForFieldName('name')) {
          if (!n) continue;
          const keyword = st.type === 'const_declaration' ? 'const' : 'var';
          const declared = typeName(field(spec, 'type')?.text) ?? valueOf(named(field(spec, 'value'))[0]);
          c.symbol(spec, n.text, 'variable', exportedName(n.text), `${keyword} ${spec.text.split('\n')[0]!.slice(0, 100)}`, undefined, undefined, declared === '?' ? undefined : declared);
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

export const goPlugin = treeSitterPlugin({ name: 'go', version: '2', grammar: 'go', extensions: ['.go'], extract, resolveImport: resolveGoImport });
