/** The code map's language plugin interface (documented in docs/PLUGINS.md). */

export type SymbolKind =
  | 'function'
  | 'class'
  | 'method'
  | 'property'
  | 'interface'
  | 'type'
  | 'enum'
  | 'namespace'
  | 'variable'
  | 'module';

export type EdgeKind = 'calls' | 'references' | 'extends' | 'implements' | 'imports';

export interface SymbolInfo {
  readonly name: string;
  readonly kind: SymbolKind;
  /** 1-based, inclusive. */
  readonly startLine: number;
  readonly endLine: number;
  readonly exported: boolean;
  /** The enclosing class / namespace name, when any. */
  readonly container?: string;
  /** The declaration with its body removed; the first line of its doc comment kept. */
  readonly signature: string;
}

/** An unresolved reference from a symbol to a name; the indexer resolves names to symbols. */
export interface RawEdge {
  /** Name of the symbol the reference sits in ('' for top level). */
  readonly from: string;
  /** The name as written ('foo', 'Bar', 'obj.method'). */
  readonly to: string;
  readonly kind: EdgeKind;
  readonly line: number;
}

export interface ImportInfo {
  /** The module specifier as written ('./util', 'react'). */
  readonly source: string;
  /** Local name → imported name ('*' for a namespace import, 'default' for a default import). */
  readonly names: Readonly<Record<string, string>>;
}

export interface FileIndex {
  readonly symbols: readonly SymbolInfo[];
  readonly edges: readonly RawEdge[];
  readonly imports: readonly ImportInfo[];
}

export interface LanguagePlugin {
  readonly name: string;
  readonly version: string;
  /** With the dot: ['.py']. */
  readonly extensions: readonly string[];
  indexFile(path: string, source: string): FileIndex | Promise<FileIndex>;
}
