/** Java: classes, interfaces, enums, records, methods, constructors, fields; calls, new, types, imports. */
import { Collector, field, named, signatureOf, treeSitterPlugin, typeName, visit, type Node } from './tree-sitter-kit.js';
import type { ImportResolveContext } from './types.js';

const TYPE_KINDS: Readonly<Record<string, 'class' | 'interface' | 'enum'>> = {
  class_declaration: 'class', record_declaration: 'class', interface_declaration: 'interface', enum_declaration: 'enum',
  annotation_type_declaration: 'interface',
};

function modifiers(node: Node): string {
  return named(node).find((c) => c.type === 'modifiers')?.text ?? '';
}

function javadoc(node: Node): string | undefined {
  const prev = node.previousNamedSibling;
  if (prev?.type !== 'block_comment' || !prev.text.startsWith('/**')) return undefined;
  const line = prev.text.slice(3, -2).split('\n').map((l) => l.replace(/^\s*\*?\s?/, '').trim()).find((l) => l && !l.startsWith('@'));
  return line || undefined;
}

/** What an expression gives, as far as the code says: `new Foo()` → 'Foo', `make()` → 'make()'. */
function valueOf(e: Node | null): string {
  if (e?.type === 'object_creation_expression') return typeName(field(e, 'type')?.text) ?? '?';
  if (e?.type === 'method_invocation') {
    const name = field(e, 'name')?.text;
    const obj = field(e, 'object');
    if (name && !obj) return `${name}()`;
    if (name && obj?.type === 'identifier') return `${obj.text}.${name}()`;
  }
  if (e?.type === 'cast_expression') return typeName(field(e, 'type')?.text) ?? '?';
  return '?';
}

/** A method's parameters and locals with the types the code gives them ('?' when it does not). */
function localTypes(method: Node): Map<string, string> {
  const types = new Map<string, string>();
  const set = (name: string | undefined, type: string): void => {
    if (!name) return;
    const known = types.get(name);
    if (known === undefined || known === '?') types.set(name, type);
  };
  visit(method, (n) => {
    if (n.type === 'formal_parameter' || n.type === 'spread_parameter' || n.type === 'catch_formal_parameter') {
      const nameNode = field(n, 'name') ?? named(n).filter((x) => x.type === 'identifier').at(-1) ?? null;
      set(nameNode?.text, typeName(field(n, 'type')?.text) ?? '?');
    } else if (n.type === 'local_variable_declaration') {
      const declared = field(n, 'type')?.text;
      for (const d of n.childrenForFieldName('declarator')) {
        if (!d) continue;
        set(field(d, 'name')?.text, declared && declared !== 'var' ? typeName(declared) ?? '?' : valueOf(field(d, 'value')));
      }
    } else if (n.type === 'enhanced_for_statement') {
      set(field(n, 'name')?.text, typeName(field(n, 'type')?.text) ?? '?');
    } else if (n.type === 'lambda_expression') {
      const params = field(n, 'parameters');
      if (params?.type === 'identifier') set(params.text, '?');
      else if (params) visit(params, (x) => { if (x.type === 'identifier') set(x.text, '?'); });
    }
  }, (n) => n.type in TYPE_KINDS);
  return types;
}

/** `fields`: the class's field names, so `store.get()` inside it is `this.store.get()` unless a local shadows it. */
function bodyEdges(c: Collector, node: Node, from: string, locals?: ReadonlyMap<string, string>, fields?: ReadonlySet<string>): void {
  visit(node, (n) => {
    if (n.type === 'method_invocation') {
      const name = field(n, 'name')?.text;
      const obj = field(n, 'object');
      if (!name) return;
      if (!obj) c.edge(from, name, 'calls', n);
      else if (obj.type === 'identifier' || obj.type === 'this' || obj.type === 'field_access') {
        const written = `${obj.text.replace(/\s/g, '')}.${name}`;
        const head = written.split('.', 1)[0]!;
        const via = locals?.get(head);
        if (via === undefined && fields?.has(head)) c.edge(from, `this.${written}`, 'calls', n);
        else c.edge(from, written, 'calls', n, via);
      }
    } else if (n.type === 'object_creation_expression') {
      const type = field(n, 'type');
      if (type) c.edge(from, type.text.replace(/<.*$/, ''), 'calls', n);
    } else if (n.type === 'type_identifier') {
      c.edge(from, n.text, 'references', n);
    }
  }, (n) => n.type in TYPE_KINDS);
}

function typeDecl(c: Collector, node: Node, container: string | undefined): void {
  const name = field(node, 'name')?.text;
  if (!name) return;
  const qualified = container ? `${container}.${name}` : name;
  const body = field(node, 'body');
  const isPublic = /\bpublic\b/.test(modifiers(node));
  c.symbol(node, name, TYPE_KINDS[node.type]!, isPublic, signatureOf(node, body), container, javadoc(node));
  const superclass = field(node, 'superclass');
  for (const t of superclass ? named(superclass) : []) c.edge(qualified, t.text.replace(/<.*$/, ''), 'extends', t);
  const interfaces = field(node, 'interfaces') ?? named(node).find((n) => n.type === 'extends_interfaces') ?? null;
  const heritage = node.type === 'interface_declaration' ? 'extends' : 'implements';
  visit(interfaces ?? node, (t) => {
    if (interfaces && t.type === 'type_identifier') c.edge(qualified, t.text, heritage, t);
  });
  const members = named(body).flatMap((m) => (m.type === 'enum_body_declarations' ? named(m) : [m]));
  const fields = new Set<string>();
  for (const m of members) {
    if (m.type !== 'field_declaration') continue;
    for (const d of m.childrenForFieldName('declarator')) if (d && field(d, 'name')) fields.add(field(d, 'name')!.text);
  }
  for (const member of members) {
    if (member.type in TYPE_KINDS) typeDecl(c, member, qualified);
    else memberDecl(c, member, qualified, fields);
  }
}

function memberDecl(c: Collector, member: Node, container: string, fields: ReadonlySet<string>): void {
  const pub = /\b(public|protected)\b/.test(modifiers(member));
  if (member.type === 'method_declaration' || member.type === 'constructor_declaration') {
    const name = field(member, 'name')?.text;
    if (!name) return;
    const returns = member.type === 'method_declaration' ? typeName(field(member, 'type')?.text) : undefined;
    c.symbol(member, name, 'method', pub, signatureOf(member, field(member, 'body')).replace(/;$/, ''), container, javadoc(member), returns);
    bodyEdges(c, member, `${container}.${name}`, localTypes(member), fields);
  } else if (member.type === 'field_declaration' || member.type === 'constant_declaration') {
    const declared = field(member, 'type')?.text;
    for (const decl of member.childrenForFieldName('declarator')) {
      const name = decl && field(decl, 'name')?.text;
      if (!name) continue;
      const value = field(decl!, 'value');
      const type = declared === 'var' ? valueOf(value) : typeName(declared);
      c.symbol(member, name, 'property', pub, signatureOf(member, value).replace(/\s*=$/, '').replace(/;$/, ''), container, javadoc(member),
        type && type !== '?' ? type : undefined);
      bodyEdges(c, member, `${container}.${name}`);
    }
  }
}

function extract(root: Node): ReturnType<Collector['result']> {
  const c = new Collector();
  for (const st of named(root)) {
    if (st.type in TYPE_KINDS) typeDecl(c, st, undefined);
    else if (st.type === 'import_declaration' && !/\*\s*;?$/.test(st.text) && !/^import\s+static\b/.test(st.text)) {
      const path = named(st).find((n) => n.type === 'scoped_identifier' || n.type === 'identifier');
      if (!path) continue;
      const full = path.text.replace(/\s/g, '');
      const last = full.split('.').pop()!;
      c.imports.push({ source: full, names: { [last]: last } });
      c.edge('', last, 'imports', st);
    }
  }
  return c.result({ packageScoped: true });
}

/** `a.b.C` → the project file ending in a/b/C.java (sources live under src/main/java and the like). */
export function resolveJavaImport(_from: string, source: string, ctx: ImportResolveContext): readonly string[] {
  const suffix = `${source.replace(/\./g, '/')}.java`;
  const hits = [...ctx.files].filter((f) => f === suffix || f.endsWith(`/${suffix}`));
  return hits.length === 1 ? hits : [];
}

export const javaPlugin = treeSitterPlugin({ name: 'java', version: '2', grammar: 'java', extensions: ['.java'], extract, resolveImport: resolveJavaImport });
