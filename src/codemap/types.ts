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

export interface SymbolInfo extends SymbolInfoExtras {
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
export interface RawEdge extends RawEdgeExtras {
  /** Name of the symbol the reference sits in ('' for top level). */
  readonly from: string;
  /** The name as written ('foo', 'Bar', 'obj.method'). */
  readonly to: string;
  readonly kind: EdgeKind;
  readonly line: number;
}

export interface ImportInfo extends ImportInfoExtras {
  /** The module specifier as written ('./util', 'react'). */
  readonly source: string;
  /** Local name → imported name ('*' for a namespace import, 'default' for a default import). */
  readonly names: Readonly<Record<string, string>>;
}

export interface FileIndex extends FileIndexExtras {
  readonly symbols: readonly SymbolInfo[];
  readonly edges: readonly RawEdge[];
  readonly imports: readonly ImportInfo[];
}

export interface LanguagePlugin extends LanguagePluginExtras {
  readonly name: string;
  readonly version: string;
  /** With the dot: ['.py']. */
  readonly extensions: readonly string[];
  indexFile(path: string, source: string): FileIndex | Promise<FileIndex>;
}

/* Additions for the index (all optional, so plugins written against the first version still fit). */

export interface SymbolInfoExtras {
  /** True for `export default` declarations. */
  readonly isDefault?: boolean;
  /**
   * The declared type, as written in the file, of a property or variable (`Store`), or the return
   * type of a function or method; `Foo()` for "what calling Foo gives" (`self.x = Foo()`).
   * Lets the index follow `obj.field.method()` without a checker.
   */
  readonly type?: string;
}

export interface RawEdgeExtras {
  /**
   * The type of the value the first part of `to` names, when the plugin knows it from the code
   * (`x = Foo()` → 'Foo()', a parameter `x: Foo` → 'Foo'); '?' for a local or parameter of unknown
   * type (it shadows any project symbol of that name; a method call on it is only a possible reference).
   */
  readonly via?: string;
}

export interface ImportInfoExtras {
  /** True when the file re-exports these names (`export { a } from './x'`; names `{}` = `export *`). */
  readonly reexport?: boolean;
}

export interface FileIndexExtras {
  /**
   * True when names that are not imported cannot refer to other files (ES modules). Then a bare
   * name resolves through imports only, never through the project-wide unique-name fallback.
   */
  readonly moduleScoped?: boolean;
  /**
   * True when files see each other's names without imports only inside one directory (Go
   * packages, Java packages): the unique-name fallback then looks in the file's directory only.
   */
  readonly packageScoped?: boolean;
}

/** What a plugin's `resolveImport` gets to look at. */
export interface ImportResolveContext {
  /** Project-relative POSIX paths of every indexed file. */
  readonly files: ReadonlySet<string>;
  /** Read-only project facts (go.mod module path, tsconfig paths), filled by the indexer. */
  readonly facts: ProjectFacts;
}

export interface ProjectFacts {
  /** tsconfig.json compilerOptions.baseUrl (project-relative) and paths. */
  readonly tsPaths?: { readonly baseUrl: string; readonly paths: Readonly<Record<string, readonly string[]>> };
  /** go.mod module paths by directory (project-relative, '' for the root). */
  readonly goModules?: Readonly<Record<string, string>>;
}

export interface LanguagePluginExtras {
  /**
   * Maps an import's source to the project files it names (several for a Go package); [] for
   * external modules. Without it, sources are resolved as relative paths.
   */
  resolveImport?(fromFile: string, source: string, ctx: ImportResolveContext): readonly string[];
}
