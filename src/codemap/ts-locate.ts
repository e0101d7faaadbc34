/**
 * Finding a code map symbol again in a checker program (its declarations, by name and lines), and
 * reading the nodes the language service points at: how a use is written, what a declaration is
 * called, where its name is.
 */
import type * as TS from 'typescript';
import type { CheckerTarget } from './checker-protocol.js';
import { moduleWord } from './ts-scope.js';
import type { EdgeKind } from './types.js';

type Ts = typeof TS;

export function lineOf(sf: TS.SourceFile, pos: number): number {
  return sf.getLineAndCharacterOfPosition(pos).line + 1;
}

/** The innermost token-level node at `pos` (an identifier, a keyword). */
export function nodeAt(ts: Ts, sf: TS.SourceFile, pos: number): TS.Node | undefined {
  let found: TS.Node | undefined;
  const visit = (n: TS.Node): void => {
    if (pos < n.getStart(sf) || pos >= n.getEnd()) return;
    found = n;
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return found;
}

/** How a name is used where it is written: called, extended, named as a type, imported. */
export function usageKind(ts: Ts, node: TS.Node): EdgeKind {
  let cur: TS.Node = node;
  // `a.b.c()`: climb the access chain only while `cur` is the name being accessed.
  while (cur.parent && (ts.isPropertyAccessExpression(cur.parent) || ts.isQualifiedName(cur.parent))
    && (ts.isPropertyAccessExpression(cur.parent) ? cur.parent.name === cur : cur.parent.right === cur)) cur = cur.parent;
  const p = cur.parent;
  if (!p) return 'references';
  if ((ts.isCallExpression(p) || ts.isNewExpression(p) || ts.isDecorator(p)) && p.expression === cur) return 'calls';
  if (ts.isTaggedTemplateExpression(p) && p.tag === cur) return 'calls';
  if ((ts.isJsxOpeningElement(p) || ts.isJsxSelfClosingElement(p) || ts.isJsxClosingElement(p)) && p.tagName === cur) return 'calls';
  for (let a: TS.Node | undefined = p; a && !ts.isSourceFile(a); a = a.parent) {
    if (ts.isImportDeclaration(a) || ts.isImportEqualsDeclaration(a) || ts.isExportDeclaration(a) || ts.isExportAssignment(a)) return 'imports';
    if (ts.isHeritageClause(a)) return a.token === ts.SyntaxKind.ImplementsKeyword ? 'implements' : 'extends';
    if (ts.isBlock(a) || ts.isClassLike(a) || ts.isFunctionLike(a) || ts.isVariableDeclaration(a)) break;
  }
  return 'references';
}

/** The name a declaration is known by in the code map ('constructor', 'default' for anonymous defaults). */
export function declaredName(ts: Ts, d: TS.Declaration): string | undefined {
  if (ts.isConstructorDeclaration(d)) return 'constructor';
  const n = ts.getNameOfDeclaration(d);
  if (n && (ts.isIdentifier(n) || ts.isPrivateIdentifier(n) || ts.isStringLiteral(n) || ts.isNumericLiteral(n))) return n.text;
  if ((ts.isFunctionDeclaration(d) || ts.isClassDeclaration(d)) && !d.name) return 'default';
  return undefined;
}

/** The position of a declaration's name (the keyword for constructors and anonymous defaults). */
export function namePosition(ts: Ts, sf: TS.SourceFile, d: TS.Node): number {
  const n = ts.getNameOfDeclaration(d as TS.Declaration);
  if (n) return n.getStart(sf);
  const kw = d.getChildren(sf).find((c) => c.kind === ts.SyntaxKind.ConstructorKeyword || c.kind === ts.SyntaxKind.DefaultKeyword);
  return (kw ?? d).getStart(sf);
}

/**
 * Expressions that declare a name in JavaScript: `exports.f = …`, `X.prototype.m = function`
 * (assignments the checker binds as declarations) and named function or class values
 * (`module.exports = function build() {}`).
 */
function declaresInJs(ts: Ts, n: TS.Node): boolean {
  return ts.isBinaryExpression(n) || ((ts.isFunctionExpression(n) || ts.isClassExpression(n)) && n.name !== undefined);
}

/** The outermost declarations named `t.name` whose name lies in the target's lines (overloads: several). */
export function findDeclarations(ts: Ts, sf: TS.SourceFile, t: CheckerTarget): TS.Node[] {
  const out: TS.Node[] = [];
  const visit = (n: TS.Node): void => {
    const start = lineOf(sf, n.getStart(sf));
    const end = lineOf(sf, n.getEnd());
    if (end < t.line || start > t.endLine) return;
    const name = declaredName(ts, n as TS.Declaration);
    if (name === t.name && !ts.isParameter(n) && !ts.isImportSpecifier(n) && !ts.isExportSpecifier(n) && (!ts.isExpression(n) || declaresInJs(ts, n))) {
      const at = lineOf(sf, namePosition(ts, sf, n));
      if (at >= t.line && at <= t.endLine) {
        out.push(n);
        return;
      }
    }
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return out;
}

const DEFAULT_EXPORT = (name: string): RegExp =>
  new RegExp(`export\\s+default\\s+(?:(?:abstract\\s+)?class|(?:async\\s+)?function\\*?)?\\s*${name.replace(/\$/g, '\\$')}\\b|export\\s*=\\s*${name.replace(/\$/g, '\\$')}\\b|module\\.exports\\s*=\\s*${name.replace(/\$/g, '\\$')}\\b`);

/**
 * The name uses of a declaration are written with (a constructor: its class's), and whether its
 * module exports it as a default (imported under any name, found by the module's path).
 */
export function searchedName(ts: Ts, sf: TS.SourceFile, decl: TS.Node, name: string): { name: string; defaultExported: boolean } {
  let owner: TS.Node = decl;
  let word = name;
  if (ts.isConstructorDeclaration(decl) && ts.isClassLike(decl.parent)) {
    owner = decl.parent;
    word = decl.parent.name?.text ?? 'default';
  }
  const modifiers = ts.canHaveModifiers(owner) ? ts.getModifiers(owner) ?? [] : [];
  // 'default' is the code map's name for an anonymous default export; a member may be named so too (`arg.default(3)`).
  const member = ts.isClassElement(owner) || ts.isTypeElement(owner) || ts.isObjectLiteralElement(owner) || ts.isEnumMember(owner);
  const anonymous = word === 'default' && !member;
  const defaultExported = anonymous || modifiers.some((m) => m.kind === ts.SyntaxKind.DefaultKeyword)
    || (/^[\w$]+$/.test(word) && DEFAULT_EXPORT(word).test(sf.text));
  return { name: anonymous ? moduleWord(sf.fileName) : word, defaultExported };
}

/**
 * A declaration's place from the file down (`Context.json`; an unnamed scope, a callback, by its
 * place among its parent's children), the same whatever lines an edit above it moved it to.
 */
export function declarationPath(ts: Ts, decl: TS.Node): string {
  const names: string[] = [];
  for (let n: TS.Node | undefined = decl; n && !ts.isSourceFile(n); n = n.parent) {
    const name = declaredName(ts, n as TS.Declaration);
    if (name !== undefined) names.push(name);
    else if (n.parent) {
      let index = 0;
      let at = -1;
      ts.forEachChild(n.parent, (c) => {
        if (c === n) at = index;
        index++;
      });
      names.push(`#${n.kind}:${at}`);
    }
  }
  return names.reverse().join('.');
}
