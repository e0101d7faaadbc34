/** Collects the raw edges (calls, type references, JSX uses, requires) inside one TS/JS node. */
import type * as TS from 'typescript';
import type { EdgeKind } from './types.js';

type Ts = typeof TS;

export interface EdgeSink {
  add(from: string, to: string, kind: EdgeKind, line: number): void;
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

/** Walks `node` and records every edge it holds, attributed to the symbol named `from`. */
export function collectEdges(ts: Ts, sf: TS.SourceFile, node: TS.Node, from: string, sink: EdgeSink): void {
  const lineOf = (n: TS.Node): number => sf.getLineAndCharacterOfPosition(n.getStart(sf)).line + 1;
  const visit = (n: TS.Node): void => {
    if (ts.isCallExpression(n) || ts.isNewExpression(n)) {
      const name = dottedName(ts, n.expression);
      if (name !== undefined && name !== 'this' && name !== 'require') sink.add(from, name, 'calls', lineOf(n));
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
