/**
 * What a name means where it is written — a value, a type, a namespace — and which of a merged
 * symbol's declarations that meaning reaches. `export const X = …; export type X = typeof X` is one
 * symbol with two declarations: a call `X()` uses the constant, `let y: X` the type, as the
 * language service's own reference search tells them apart.
 *
 * The compiler's classifiers (getMeaningFromLocation / getMeaningFromDeclaration) are not in its
 * public typings; the vendored compiler is pinned at build time, and where they are missing every
 * declaration is taken, as before.
 */
import type * as TS from 'typescript';

type Ts = typeof TS;

/** The compiler's SemanticMeaning bits: Value 1, Type 2, Namespace 4. */
const ALL = 7;

interface Classifiers {
  getMeaningFromLocation?: (node: TS.Node) => number;
  getMeaningFromDeclaration?: (node: TS.Node) => number;
}

/** The declarations of `symbol` that the name `use` can mean (all of them when the compiler cannot say). */
export function declarationsMeant(ts: Ts, use: TS.Node, declarations: readonly TS.Declaration[]): readonly TS.Declaration[] {
  if (declarations.length < 2) return declarations;
  const c = ts as unknown as Classifiers;
  if (!c.getMeaningFromLocation || !c.getMeaningFromDeclaration) return declarations;
  const meaning = c.getMeaningFromLocation(use);
  if ((meaning & ALL) === ALL) return declarations;
  const meant = declarations.filter((d) => (c.getMeaningFromDeclaration!(d) & meaning) !== 0);
  return meant.length > 0 ? meant : declarations;
}

/** True when `id` is the name a declaration gives, not a use of a name. */
export function isDeclaredName(ts: Ts, id: TS.Node): boolean {
  const p = id.parent;
  if (!p || ts.isShorthandPropertyAssignment(p)) return false;
  return (ts.isVariableDeclaration(p) || ts.isFunctionDeclaration(p) || ts.isClassDeclaration(p) || ts.isInterfaceDeclaration(p)
    || ts.isTypeAliasDeclaration(p) || ts.isEnumDeclaration(p) || ts.isModuleDeclaration(p)) && p.name === id;
}
