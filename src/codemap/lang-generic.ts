/**
 * The other grammars @vscode/tree-sitter-wasm ships (C#, C/C++, Ruby, PHP, Bash), described by
 * tables: which nodes declare what, which are calls, which name base classes. Symbols, signatures,
 * calls and inheritance; no import resolution (names resolve in the file, then project-wide if unique).
 */
import { Collector, field, named, signatureOf, treeSitterPlugin, type Node } from './tree-sitter-kit.js';
import type { EdgeKind, LanguagePlugin, SymbolKind } from './types.js';

interface Decl {
  readonly kind: SymbolKind;
  /** Members declared inside are attributed to it. */
  readonly container?: boolean;
}

interface Table {
  readonly name: string;
  readonly grammar: string;
  readonly extensions: readonly string[];
  readonly decls: Readonly<Record<string, Decl>>;
  readonly calls: Readonly<Record<string, (n: Node) => string | undefined>>;
  readonly heritage: Readonly<Record<string, EdgeKind>>;
  exported(node: Node, name: string): boolean;
  /** Name and, for `C::m` definitions outside their class, the owner. */
  nameOf?(node: Node): { name: string; owner?: string } | undefined;
}

/** `a::b`, `a->b`, `$this->m` → `a.b`, `this.m`; anything not a plain dotted name is dropped. */
function dotted(text: string | undefined): string | undefined {
  if (!text) return undefined;
  const clean = text.replace(/<[^<>]*>/g, '').replace(/\s+/g, '').replace(/::|->|\\/g, '.').replace(/^\$this\./, 'this.').replace(/^\$/, '').replace(/^\./, '');
  return /^[\w.]+$/.test(clean) ? clean : undefined;
}

const text = (n: Node | null | undefined): string | undefined => n?.text;
const hasWord = (node: Node, word: RegExp): boolean => named(node).some((c) => /modifier/.test(c.type) && word.test(c.text));

function cppName(node: Node): { name: string; owner?: string } | undefined {
  let d = field(node, 'declarator');
  while (d && d.type !== 'function_declarator') d = field(d, 'declarator');
  const inner = d ? field(d, 'declarator') : field(node, 'name');
  if (!inner) return undefined;
  if (inner.type === 'qualified_identifier') {
    const scope = text(field(inner, 'scope'));
    const name = text(field(inner, 'name'));
    return name ? { name, ...(scope ? { owner: scope } : {}) } : undefined;
  }
  return { name: inner.text };
}

const TABLES: readonly Table[] = [
  {
    name: 'csharp', grammar: 'c-sharp', extensions: ['.cs'],
    decls: {
      namespace_declaration: { kind: 'namespace', container: true }, file_scoped_namespace_declaration: { kind: 'namespace' },
      class_declaration: { kind: 'class', container: true }, struct_declaration: { kind: 'class', container: true },
      record_declaration: { kind: 'class', container: true }, interface_declaration: { kind: 'interface', container: true },
      enum_declaration: { kind: 'enum' }, method_declaration: { kind: 'method' }, constructor_declaration: { kind: 'method' },
      property_declaration: { kind: 'property' }, delegate_declaration: { kind: 'type' },
    },
    calls: {
      invocation_expression: (n) => dotted(text(field(n, 'function'))),
      object_creation_expression: (n) => dotted(text(field(n, 'type'))),
    },
    heritage: { base_list: 'extends' },
    exported: (node) => hasWord(node, /\b(public|protected|internal)\b/) || node.type === 'namespace_declaration',
  },
  {
    name: 'cpp', grammar: 'cpp', extensions: ['.c', '.h', '.cc', '.cpp', '.cxx', '.hpp', '.hh', '.hxx'],
    decls: {
      namespace_definition: { kind: 'namespace', container: true }, class_specifier: { kind: 'class', container: true },
      struct_specifier: { kind: 'class', container: true }, enum_specifier: { kind: 'enum' }, function_definition: { kind: 'function' },
    },
    calls: { call_expression: (n) => dotted(text(field(n, 'function'))) },
    heritage: { base_class_clause: 'extends' },
    exported: (node, name) => !name.startsWith('_') && !/^static\b/.test(node.text),
    nameOf: (node) => (node.type === 'function_definition' ? cppName(node) : (field(node, 'body') ? (text(field(node, 'name')) ? { name: text(field(node, 'name'))! } : undefined) : undefined)),
  },
  {
    name: 'ruby', grammar: 'ruby', extensions: ['.rb'],
    decls: { module: { kind: 'namespace', container: true }, class: { kind: 'class', container: true }, method: { kind: 'function' }, singleton_method: { kind: 'function' } },
    calls: {
      call: (n) => {
        const method = text(field(n, 'method'));
        const receiver = field(n, 'receiver');
        if (!method) return undefined;
        if (!receiver) return method;
        const head = receiver.type === 'self' ? 'self' : dotted(receiver.text);
        return head ? `${head}.${method}` : undefined;
      },
    },
    heritage: { superclass: 'extends' },
    exported: (_node, name) => !name.startsWith('_'),
  },
  {
    name: 'php', grammar: 'php', extensions: ['.php'],
    decls: {
      class_declaration: { kind: 'class', container: true }, interface_declaration: { kind: 'interface', container: true },
      trait_declaration: { kind: 'class', container: true }, enum_declaration: { kind: 'enum', container: true },
      method_declaration: { kind: 'method' }, function_definition: { kind: 'function' },
    },
    calls: {
      function_call_expression: (n) => dotted(text(field(n, 'function'))),
      member_call_expression: (n) => dotted(`${text(field(n, 'object')) ?? ''}->${text(field(n, 'name')) ?? ''}`),
      scoped_call_expression: (n) => dotted(`${text(field(n, 'scope')) ?? ''}::${text(field(n, 'name')) ?? ''}`),
      object_creation_expression: (n) => dotted(text(named(n).find((c) => c.type === 'name' || c.type === 'qualified_name'))),
    },
    heritage: { base_clause: 'extends', class_interface_clause: 'implements' },
    exported: (node) => !hasWord(node, /\bprivate\b/),
  },
  {
    name: 'bash', grammar: 'bash', extensions: ['.sh', '.bash'],
    decls: { function_definition: { kind: 'function' } },
    calls: { command: (n) => dotted(text(field(n, 'name'))) },
    heritage: {},
    exported: () => true,
  },
];

function extractWith(table: Table) {
  return (root: Node) => {
    const c = new Collector();
    const walk = (node: Node, container: string | undefined, current: string, inType: boolean): void => {
      for (const child of named(node)) {
        const decl = table.decls[child.type];
        const nm = decl ? (table.nameOf ? table.nameOf(child) : (text(field(child, 'name')) ? { name: text(field(child, 'name'))! } : undefined)) : undefined;
        if (decl && nm) {
          const owner = nm.owner ?? container;
          const kind: SymbolKind = decl.kind === 'function' && (inType || nm.owner) ? 'method' : decl.kind;
          const body = field(child, 'body');
          c.symbol(child, nm.name, kind, table.exported(child, nm.name), signatureOf(child, body).replace(/;$/, ''), owner);
          const qualified = owner ? `${owner}.${nm.name}` : nm.name;
          for (const h of named(child)) {
            const edgeKind = table.heritage[h.type];
            if (!edgeKind) continue;
            for (const base of named(h)) {
              const name = /identifier|constant|name|generic/.test(base.type) ? dotted(base.text) : undefined;
              if (name) c.edge(qualified, name, edgeKind, base);
            }
          }
          walk(child, decl.container ? qualified : container, qualified, decl.container === true && decl.kind !== 'namespace');
          continue;
        }
        const call = table.calls[child.type];
        const callee = call?.(child);
        if (callee) c.edge(current, callee, 'calls', child);
        walk(child, container, current, inType);
      }
    };
    walk(root, undefined, '', false);
    return c.result();
  };
}

export const genericPlugins: readonly LanguagePlugin[] = TABLES.map((t) => treeSitterPlugin({
  name: t.name, version: '1', grammar: t.grammar, extensions: t.extensions, extract: extractWith(t),
}));
