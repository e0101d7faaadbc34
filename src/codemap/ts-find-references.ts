/**
 * The language service's findReferences over a list of files (the service itself always passes all
 * of the program's), without what only an editor shows: the compiler's own `findReferencedSymbols`
 * also prints each definition's signature as display parts, which for a generic method of a large
 * framework (Hono's `Context.json`) costs more than the search after a one-file edit. The search,
 * the references and which of them are definitions are the compiler's (internal to it, but what
 * `LanguageService.findReferences` calls); a definition keeps only its kind and name.
 */
import type * as TS from 'typescript';
import { withDeclaredMembers } from './ts-declared-members.js';

type Ts = typeof TS;

interface Entry { readonly kind: number; readonly node?: TS.Node }
interface Definition { readonly type: number; readonly symbol?: TS.Symbol; readonly node?: TS.Node }
interface SymbolAndEntries { readonly definition: Definition | undefined; readonly references: readonly Entry[] }

interface Internal {
  readonly FindAllReferences: {
    readonly Core: {
      getReferencedSymbolsForNode(position: number, node: TS.Node, program: TS.Program, files: readonly TS.SourceFile[],
        token: TS.CancellationToken, options: { use: number }): SymbolAndEntries[] | undefined;
      getAdjustedNode(node: TS.Node, options: { use: number }): TS.Node;
    };
    toReferenceEntry(entry: Entry): TS.ReferenceEntry;
    isDeclarationOfSymbol(node: TS.Node, symbol: TS.Symbol): boolean;
  };
  readonly SymbolDisplay: { getSymbolKind(checker: TS.TypeChecker, symbol: TS.Symbol, location: TS.Node): TS.ScriptElementKind };
  getTouchingPropertyName(sf: TS.SourceFile, position: number): TS.Node;
  getDeclarationFromName(name: TS.Node): TS.Declaration | undefined;
  isLiteralComputedPropertyDeclarationName(node: TS.Node): boolean;
}

/** FindReferencesUse.References; EntryKind.Span; DefinitionKind.Symbol. */
const USE_REFERENCES = 1;
const SPAN = 0;
const SYMBOL = 0;

/** What `FindAllReferences.findReferencedSymbols` returns, with each definition's kind and name only. */
export function findReferencedSymbols(ts: Ts, program: TS.Program, token: TS.CancellationToken, files: readonly TS.SourceFile[],
  sf: TS.SourceFile, position: number): TS.ReferencedSymbol[] | undefined {
  const internal = ts as unknown as Internal;
  const far = internal.FindAllReferences;
  const node = internal.getTouchingPropertyName(sf, position);
  const options = { use: USE_REFERENCES };
  const checker = program.getTypeChecker();
  const groups = withDeclaredMembers(ts, checker, () => far.Core.getReferencedSymbolsForNode(position, node, program, files, token, options));
  if (!groups?.length) return undefined;
  const adjusted = far.Core.getAdjustedNode(node, options);
  // As the compiler decides which references are definitions (isDefinitionForReference).
  const isDefinitionSite = adjusted.kind === ts.SyntaxKind.DefaultKeyword || !!internal.getDeclarationFromName(adjusted)
    || internal.isLiteralComputedPropertyDeclarationName(adjusted)
    || (adjusted.kind === ts.SyntaxKind.ConstructorKeyword && ts.isConstructorDeclaration(adjusted.parent));
  const symbol = isDefinitionSite ? checker.getSymbolAtLocation(adjusted) : undefined;
  const out: TS.ReferencedSymbol[] = [];
  for (const { definition, references } of groups) {
    if (!definition) continue;
    const kind = definition.type === SYMBOL && definition.symbol ? internal.SymbolDisplay.getSymbolKind(checker, definition.symbol, node) : ts.ScriptElementKind.unknown;
    const name = definition.symbol ? ts.symbolName(definition.symbol) : '';
    out.push({
      definition: { kind, name } as TS.ReferencedSymbolDefinitionInfo,
      references: references.map((r) => {
        const entry = far.toReferenceEntry(r);
        return symbol ? { ...entry, isDefinition: r.kind !== SPAN && far.isDeclarationOfSymbol(r.node!, symbol) } : entry;
      }),
    });
  }
  return out;
}
