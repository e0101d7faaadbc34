/** Collects the raw edges (calls, type references, JSX uses, requires) inside one TS/JS node. */
import type * as TS from 'typescript';
import type { EdgeKind } from './types.js';

type Ts = typeof TS;

export interface EdgeSink {
  add(from: string, to: string, kind: EdgeKind, line: number, via?: string): void;
}

/** The type a type annotation names (`Foo<T>` → Foo, `ns.Foo` → ns.Foo); undefined for anything else. */
export function annotatedType(ts: Ts, type: TS.TypeNode | undefined): string | undefined {
  if (!type) return undefined;
  if (ts.isTypeReferenceNode(type)) {
    const name = dottedName(ts, type.typeName);
    // Promise<Foo> is what an async function returns: its value is a Foo once awaited.
    if (name === 'Promise' && type.typeArguments?.length === 1) return annotatedType(ts, type.typeArguments[0]);
    return name;
  }
  if (ts.isUnionTypeNode(type)) {
    const named = type.types.filter((t) => t.kind !== ts.SyntaxKind.NullKeyword && t.kind !== ts.SyntaxKind.UndefinedKeyword && !ts.isLiteralTypeNode(t));
    return named.length === 1 ? annotatedType(ts, named[0]) : undefined;
  }
  if (ts.isParenthesizedTypeNode(type)) return annotatedType(ts, type.type);
  return undefined;
}

/** What an initializer gives as far as the syntax says: `new Foo()` → 'Foo', `make()` → 'make()'. */
export function valueType(ts: Ts, e: TS.Expression | undefined): string | undefined {
  let cur = e;
  while (cur && (ts.isAwaitExpression(cur) || ts.isParenthesizedExpression(cur) || ts.isNonNullExpression(cur))) cur = cur.expression;
  if (!cur) return undefined;
  if (ts.isAsExpression(cur) || ts.isSatisfiesExpression(cur)) return annotatedType(ts, cur.type);
  if (ts.isNewExpression(cur)) return dottedName(ts, cur.expression);
  if (ts.isCallExpression(cur)) {
    const name = dottedName(ts, cur.expression);
    return name && !name.startsWith('this.') ? `${name}()` : undefined;
  }
  return undefined;
}

/** Parameters and locals of a function-like node with the types the syntax gives them ('?' when it does not). */
function scopeOf(ts: Ts, fn: TS.SignatureDeclaration): Map<string, string> {
  const types = new Map<string, string>();
  const bind = (name: TS.BindingName, type: string): void => {
    if (ts.isIdentifier(name)) {
      const known = types.get(name.text);
      if (known === undefined || known === '?') types.set(name.text, type);
    } else for (const el of name.elements) if (!ts.isOmittedExpression(el)) bind(el.name, '?');
  };
  for (const p of fn.parameters) bind(p.name, annotatedType(ts, p.type) ?? '?');
  const body = (fn as TS.FunctionLikeDeclaration).body;
  const walk = (n: TS.Node): void => {
    if (ts.isVariableDeclaration(n)) bind(n.name, annotatedType(ts, n.type) ?? valueType(ts, n.initializer) ?? '?');
    else if (ts.isCatchClause(n) && n.variableDeclaration) bind(n.variableDeclaration.name, '?');
    else if (ts.isFunctionDeclaration(n) && n.name) types.set(n.name.text, '?');
    else if (ts.isClassDeclaration(n) && n.name) types.set(n.name.text, '?');
    if (ts.isFunctionLike(n)) return;
    ts.forEachChild(n, walk);
  };
  if (body) ts.forEachChild(body, walk);
  return types;
}

/** 'foo', 'this.run', 'ns.Foo', 'a.b.c'; undefined for anything computed (calls on call results). */
export function dottedName(ts: Ts, node: TS.Node): string | undefined {
  if (ts.isIdentifier(node) || ts.isPrivateIdentifier(node)) return node.text;
  if (node.kind === ts.SyntaxKind.ThisKeyword) return 'this';
  if (ts.isPropertyAccessExpression(node)) {
    const head = dottedName(ts, node.expression);
    return head === undefined ? undefined : `${head}.${node.name.text}`;
  }
  if (ts.isQualifiedName(node)) {
    const head = dottedName(ts, node.left);
    return head === undefined ? undefined : `${head}.${node.right.text}`;
  }
  if (ts.isParenthesizedExpression(node) || ts.isNonNullExpression(node)) return dottedName(ts, node.expression);
  return undefined;
}

/** An identifier standing alone as an argument, array element, property value or return value. */
function isValueUse(ts: Ts, n: TS.Identifier): boolean {
  const p = n.parent;
  if (!p) return false;
  if (ts.isCallExpression(p) || ts.isNewExpression(p)) return p.arguments?.includes(n) ?? false;
  return ts.isArrayLiteralExpression(p) || (ts.isPropertyAssignment(p) && p.initializer === n) || ts.isShorthandPropertyAssignment(p)
    || (ts.isReturnStatement(p) && p.expression === n) || (ts.isBinaryExpression(p) && p.operatorToken.kind === ts.SyntaxKind.InstanceOfKeyword && p.right === n);
}

/** Walks `node` and records every edge it holds, attributed to the symbol named `from`. */
export function collectEdges(ts: Ts, sf: TS.SourceFile, node: TS.Node, from: string, sink: EdgeSink): void {
  const lineOf = (n: TS.Node): number => sf.getLineAndCharacterOfPosition(n.getStart(sf)).line + 1;
  // A parameter or local shadows a project symbol of its name; a typed one says what its methods are.
  const scopes: Map<string, string>[] = [];
  const local = (name: string): string | undefined => {
    for (let i = scopes.length - 1; i >= 0; i--) {
      const t = scopes[i]!.get(name);
      if (t !== undefined) return t;
    }
    return undefined;
  };
  const visit = (n: TS.Node): void => {
    if (ts.isFunctionLike(n)) {
      scopes.push(scopeOf(ts, n));
      ts.forEachChild(n, visit);
      scopes.pop();
      return;
    }
    if (ts.isCallExpression(n) || ts.isNewExpression(n)) {
      const name = dottedName(ts, n.expression);
      if (name !== undefined && name !== 'this' && name !== 'require') {
        const via = local(name.split('.', 1)[0]!);
        if (via !== '?' || name.includes('.')) sink.add(from, name, 'calls', lineOf(n), via);
      }
    } else if (ts.isIdentifier(n) && isValueUse(ts, n)) {
      // A function or class passed as a value (`app.use(handler)`, `[A, B]`): a use of it.
      if (local(n.text) === undefined) sink.add(from, n.text, 'references', lineOf(n));
    } else if (ts.isTypeReferenceNode(n)) {
      const name = dottedName(ts, n.typeName);
      if (name !== undefined) sink.add(from, name, 'references', lineOf(n));
    } else if (ts.isExpressionWithTypeArguments(n)) {
      const name = dottedName(ts, n.expression);
      if (name !== undefined) sink.add(from, name, 'references', lineOf(n));
    } else if (ts.isJsxOpeningElement(n) || ts.isJsxSelfClosingElement(n)) {
      const name = dottedName(ts, n.tagName);
      // Lower-case tags are intrinsic elements (div, span), not components.
      if (name !== undefined && /^[A-Z]|\./.test(name)) sink.add(from, name, 'calls', lineOf(n));
    } else if (ts.isTypeQueryNode(n)) {
      const name = dottedName(ts, n.exprName);
      if (name !== undefined) sink.add(from, name, 'references', lineOf(n));
    }
    ts.forEachChild(n, visit);
  };
  visit(node);
}
