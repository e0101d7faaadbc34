/**
 * What a JavaScript assignment declares, the way the TypeScript checker reads a JS file:
 * `module.exports = function build() {}` (the module's value), `exports.parse = …` and
 * `module.exports.parse = …` (its members), `Router.prototype.route = function () {}` (a method
 * of Router's instances), and `app.listen = function () {}` on a top-level object (a method of
 * that object). A plain-JS project declares most of its API this way.
 */
import type * as TS from 'typescript';
import type { SymbolKind } from './types.js';

type Ts = typeof TS;

export interface AssignedDeclaration {
  readonly name: string;
  readonly kind: SymbolKind;
  readonly container?: string;
  readonly exported: boolean;
  /** The module's own value (what `require` returns). */
  readonly isDefault?: boolean;
  /** The assigned value (its uses are the symbol's edges). */
  readonly value: TS.Expression;
  readonly signature: string;
}

const MAX_VALUE_CHARS = 80;

function skipParens(ts: Ts, e: TS.Expression): TS.Expression {
  let cur = e;
  while (ts.isParenthesizedExpression(cur)) cur = cur.expression;
  return cur;
}

const isModuleExports = (ts: Ts, e: TS.Expression): boolean =>
  (ts.isIdentifier(e) && e.text === 'exports')
  || (ts.isPropertyAccessExpression(e) && ts.isIdentifier(e.expression) && e.expression.text === 'module' && e.name.text === 'exports');

/** The names a file's top-level objects are exported under: `module.exports = app`, `var app = module.exports = {}`. */
export function moduleObjects(ts: Ts, sf: TS.SourceFile): Set<string> {
  const out = new Set<string>();
  const chain = (e: TS.Expression | undefined, into?: string): void => {
    let cur = e && skipParens(ts, e);
    const lefts: TS.Expression[] = [];
    while (cur && ts.isBinaryExpression(cur) && cur.operatorToken.kind === ts.SyntaxKind.EqualsToken) {
      lefts.push(cur.left);
      cur = skipParens(ts, cur.right);
    }
    if (!lefts.some((l) => isModuleExports(ts, l))) return;
    if (into) out.add(into);
    if (cur && ts.isIdentifier(cur)) out.add(cur.text);
  };
  for (const st of sf.statements) {
    if (ts.isExpressionStatement(st)) chain(st.expression);
    else if (ts.isVariableStatement(st)) {
      for (const d of st.declarationList.declarations) if (ts.isIdentifier(d.name)) chain(d.initializer, d.name.text);
    }
  }
  return out;
}

function signatureOf(ts: Ts, sf: TS.SourceFile, st: TS.Node, value: TS.Expression): string {
  const start = st.getStart(sf);
  if ((ts.isFunctionExpression(value) || ts.isArrowFunction(value)) && value.body) {
    const head = sf.text.slice(start, value.body.getStart(sf)).replace(/[\s{]+$/, '').trimEnd();
    return ts.isArrowFunction(value) && !head.endsWith('=>') ? `${head} =>` : head;
  }
  if (ts.isClassExpression(value)) {
    const open = sf.text.indexOf('{', value.getStart(sf));
    return sf.text.slice(start, open > 0 && open < value.getEnd() ? open : value.getEnd()).trimEnd();
  }
  const full = sf.text.slice(start, st.getEnd()).replace(/;\s*$/, '');
  const line = full.split('\n')[0]!;
  return line.length > MAX_VALUE_CHARS ? `${line.slice(0, MAX_VALUE_CHARS)}…` : line === full ? line : `${line} …`;
}

/** The declaration a top-level `a = b` statement of a JavaScript file makes, if any. */
export function assignedDeclaration(ts: Ts, sf: TS.SourceFile, st: TS.ExpressionStatement, exportedObjects: ReadonlySet<string>): AssignedDeclaration | undefined {
  const e = st.expression;
  if (!ts.isBinaryExpression(e) || e.operatorToken.kind !== ts.SyntaxKind.EqualsToken) return undefined;
  const lefts: TS.Expression[] = [e.left];
  let value = skipParens(ts, e.right);
  while (ts.isBinaryExpression(value) && value.operatorToken.kind === ts.SyntaxKind.EqualsToken) {
    lefts.push(value.left);
    value = skipParens(ts, value.right);
  }
  const isFn = ts.isFunctionExpression(value) || ts.isArrowFunction(value);
  const kind: SymbolKind = isFn ? 'function' : ts.isClassExpression(value) ? 'class' : 'variable';
  const signature = signatureOf(ts, sf, st, value);
  if (lefts.some((l) => isModuleExports(ts, l))) {
    // `module.exports = function build() {}`: the module's value, known by its own name.
    const name = (ts.isFunctionExpression(value) || ts.isClassExpression(value)) ? value.name?.text : undefined;
    return name && kind !== 'variable' ? { name, kind, exported: true, isDefault: true, value, signature } : undefined;
  }
  const left = e.left;
  if (!ts.isPropertyAccessExpression(left) || !ts.isIdentifier(left.name)) return undefined;
  const name = left.name.text;
  const target = left.expression;
  if (isModuleExports(ts, target)) return { name, kind, exported: true, value, signature };
  // `Router.prototype.route = function () {}`
  if (ts.isPropertyAccessExpression(target) && target.name.text === 'prototype' && ts.isIdentifier(target.expression)) {
    return isFn ? { name, kind: 'method', container: target.expression.text, exported: exportedObjects.has(target.expression.text), value, signature } : undefined;
  }
  // `app.listen = function () {}` on a top-level object
  if (ts.isIdentifier(target) && isFn && target.text !== 'module' && target.text !== 'this') {
    return { name, kind: 'method', container: target.text, exported: exportedObjects.has(target.text), value, signature };
  }
  return undefined;
}
