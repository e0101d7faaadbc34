/** Shared machinery for the tree-sitter language plugins: parsing, symbol and edge collection. */
import type { Node } from '@vscode/tree-sitter-wasm';
import { createParser } from './tree-sitter-runtime.js';
import type { EdgeKind, FileIndex, ImportInfo, ImportResolveContext, LanguagePlugin, RawEdge, SymbolInfo, SymbolKind } from './types.js';

export type { Node };

const MAX_SIGNATURE_LINES = 6;

export class Collector {
  readonly symbols: SymbolInfo[] = [];
  readonly edges: RawEdge[] = [];
  readonly imports: ImportInfo[] = [];
  private readonly seen = new Set<string>();

  symbol(node: Node, name: string, kind: SymbolKind, exported: boolean, signature: string, container?: string, doc?: string, type?: string): void {
    this.symbols.push({
      name, kind, exported, startLine: node.startPosition.row + 1, endLine: node.endPosition.row + 1,
      signature: doc ? `/** ${doc} */\n${signature}` : signature, ...(container ? { container } : {}), ...(type ? { type } : {}),
    });
  }

  /** `via`: the type of the value `to`'s first part names (RawEdge.via). */
  edge(from: string, to: string, kind: EdgeKind, node: Node, via?: string): void {
    const line = node.startPosition.row + 1;
    const key = `${from}\0${to}\0${kind}\0${line}`;
    if (!to || this.seen.has(key)) return;
    this.seen.add(key);
    this.edges.push({ from, to, kind, line, ...(via ? { via } : {}) });
  }

  result(extra: Partial<FileIndex> = {}): FileIndex {
    return { symbols: this.symbols, edges: this.edges, imports: this.imports, ...extra };
  }
}

const WRAPPERS = /^(Optional|Option|Result|Box|Rc|Arc|Mutex|RwLock|RefCell|Cell|Promise|Awaited|Readonly|ReadonlyArray|Ref|Pin|typing\.Optional)\s*[<[](.*)[>\]]$/s;

/**
 * The type name a declaration's type text names: `*Store` → Store, `&mut Foo<T>` → Foo,
 * `Optional[Foo]` / `Option<Foo>` → Foo, `Foo | None` → Foo, `pkg::Foo` → pkg.Foo.
 */
export function typeName(text: string | undefined): string | undefined {
  if (!text) return undefined;
  let t = text.trim().replace(/^["']|["']$/g, '');
  for (let i = 0; i < 4; i++) {
    t = t.replace(/^(\*|&|'\w+\s+|mut\s+|dyn\s+|impl\s+|const\s+|final\s+|readonly\s+)+/, '').trim();
    const wrapped = WRAPPERS.exec(t);
    if (!wrapped) break;
    t = wrapped[2]!.trim();
  }
  const first = t.split(/\s*\|\s*/).find((part) => part && !/^(None|null|undefined)$/.test(part)) ?? '';
  const m = /^[A-Za-z_$][\w$]*((\.|::)[A-Za-z_$][\w$]*)*/.exec(first.trim());
  return m ? m[0].replace(/::/g, '.') : undefined;
}

/** The declaration's text up to where `body` starts (or all of it), whitespace tidied, long ones cut. */
export function signatureOf(node: Node, body: Node | null | undefined, trim: RegExp = /[\s{:]+$/): string {
  const text = body ? node.text.slice(0, Math.max(0, body.startIndex - node.startIndex)) : node.text;
  const lines = text.replace(trim, '').split('\n');
  return lines.length > MAX_SIGNATURE_LINES ? `${lines.slice(0, MAX_SIGNATURE_LINES).join('\n')} …` : lines.join('\n');
}

export function named(node: Node | null | undefined): Node[] {
  return node ? node.namedChildren.filter((c): c is Node => c !== null) : [];
}

export function field(node: Node, name: string): Node | null {
  return node.childForFieldName(name);
}

/** Every descendant (depth first), not entering subtrees for which `stop` says so. */
export function visit(node: Node, fn: (n: Node) => void, stop?: (n: Node) => boolean): void {
  for (const child of named(node)) {
    fn(child);
    if (!stop?.(child)) visit(child, fn, stop);
  }
}

export interface TreeSitterSpec {
  readonly name: string;
  readonly version: string;
  readonly grammar: string;
  readonly extensions: readonly string[];
  extract(root: Node, path: string): FileIndex;
  resolveImport?(fromFile: string, source: string, ctx: ImportResolveContext): readonly string[];
}

/** A language plugin over a tree-sitter grammar; the grammar loads on the first file. */
export function treeSitterPlugin(spec: TreeSitterSpec): LanguagePlugin {
  let parser: ReturnType<typeof createParser> | undefined;
  const plugin: LanguagePlugin = {
    name: spec.name,
    version: spec.version,
    extensions: spec.extensions,
    async indexFile(path, source) {
      parser ??= createParser(spec.grammar);
      const { parser: p } = await parser;
      const tree = p.parse(source);
      if (!tree) throw new Error('the parser returned no tree');
      try {
        return spec.extract(tree.rootNode, path);
      } finally {
        tree.delete();
      }
    },
    ...(spec.resolveImport ? { resolveImport: spec.resolveImport } : {}),
  };
  return plugin;
}
