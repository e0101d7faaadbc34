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

/**
 * An identifier standing alone as an argument, array element, property value or return value.
 * `p` is the node the walk came from: the index parses without parent links (they cost a pass).
 */
function isValueUse(ts: Ts, n: TS.Identifier, p: TS.Node | undefined): boolean {
  if (!p) return false;
  if (ts.isCallExpression(p) || ts.isNewExpression(p)) return p.arguments?.includes(n) ?? false;
  return ts.isArrayLiteralExpression(p) || (ts.isPropertyAssignment(p) && p.initializer === n) || ts.isShorthandPropertyAssignment(p)
    || (ts.isReturnStatement(p) && p.expression === n) || (ts.isBinaryExpression(p) && p.operatorToken.kind === ts.SyntaxKind.InstanceOfKeyword && p.right === n);
}

/** The names bound in one function-like node (its parameters and locals) with the types the syntax gives them ('?' when it does not). */
interface Frame {
  readonly types: Map<string, string>;
  readonly up: Frame | undefined;
}

/** An edge found by the walk; one that depends on what a name is bound to is settled once every scope is complete. */
interface Found {
  readonly to: string;
  readonly kind: EdgeKind;
  readonly line: number;
  /** Set for a call (its `via` is the receiver's type) or a value use (dropped when a local shadows it): the name looked up, and where. */
  readonly head?: string;
  readonly frame?: Frame | undefined;
  readonly call?: boolean;
}

const NO_SCOPES: readonly Map<string, string>[] = [];

function bindName(ts: Ts, types: Map<string, string>, name: TS.BindingName, type: string): void {
  if (ts.isIdentifier(name)) {
    const known = types.get(name.text);
    if (known === undefined || known === '?') types.set(name.text, type);
  } else for (const el of name.elements) if (!ts.isOmittedExpression(el)) bindName(ts, types, el.name, '?');
}

function lookup(frame: Frame | undefined, name: string): string | undefined {
  for (let f = frame; f; f = f.up) {
    const t = f.types.get(name);
    if (t !== undefined) return t;
  }
  return undefined;
}

/**
 * Walks `node` and records every edge it holds, attributed to the symbol named `from`.
 *
 * A parameter or local shadows a project symbol of its name, and a typed one says what its
 * methods are. A function's locals are every declaration in its body, wherever it sits, so calls
 * are settled after the walk, which binds names as it goes: one pass over the tree instead of one
 * more per function body. A declaration binds in each function whose body holds it without
 * another function between them (`reach`); the children of an arrow's expression body are also
 * in the enclosing function's reach (`() => () => { const x }` binds x in both).
 */
export function collectEdges(ts: Ts, sf: TS.SourceFile, node: TS.Node, from: string, sink: EdgeSink): void {
  const lineOf = (n: TS.Node): number => sf.getLineAndCharacterOfPosition(n.getStart(sf)).line + 1;
  const found: Found[] = [];
  let frame: Frame | undefined;
  /** The scopes whose bodies hold the node being visited. */
  let reach = NO_SCOPES;
  /** The body of the innermost function being walked, and its scope: the body's children bind there. */
  let body: TS.Node | undefined;
  let bodyScope = NO_SCOPES;
  /** The node whose children are being visited (the source file is parsed without parent links). */
  let parent: TS.Node | undefined;
  const bind = (n: TS.Node, scopes: readonly Map<string, string>[]): void => {
    if (ts.isVariableDeclaration(n)) {
      const type = annotatedType(ts, n.type) ?? valueType(ts, n.initializer) ?? '?';
      for (const types of scopes) bindName(ts, types, n.name, type);
    } else if (ts.isCatchClause(n) && n.variableDeclaration) {
      for (const types of scopes) bindName(ts, types, n.variableDeclaration.name, '?');
    } else if ((ts.isFunctionDeclaration(n) || ts.isClassDeclaration(n)) && n.name) {
      for (const types of scopes) types.set(n.name.text, '?');
    }
  };
  const visit = (n: TS.Node): void => {
    const own = reach;
    if (own.length > 0) bind(n, own);
    const extra = n === body ? bodyScope : NO_SCOPES;
    if (ts.isFunctionLike(n)) {
      const types = new Map<string, string>();
      for (const p of n.parameters) bindName(ts, types, p.name, annotatedType(ts, p.type) ?? '?');
      const outerFrame = frame;
      const outerBody = body;
      const outerScope = bodyScope;
      frame = { types, up: frame };
      body = (n as TS.FunctionLikeDeclaration).body;
      bodyScope = [types];
      // The walks of the functions around stop here; only an enclosing body's own walk goes on.
      reach = extra;
      const outerParent = parent;
      parent = n;
      ts.forEachChild(n, visit);
      parent = outerParent;
      frame = outerFrame;
      body = outerBody;
      bodyScope = outerScope;
      reach = own;
      return;
    }
    if (ts.isCallExpression(n) || ts.isNewExpression(n)) {
      const name = dottedName(ts, n.expression);
      if (name !== undefined && name !== 'this' && name !== 'require') {
        const dot = name.indexOf('.');
        found.push({ to: name, kind: 'calls', line: lineOf(n), head: dot < 0 ? name : name.slice(0, dot), frame, call: true });
      }
    } else if (ts.isIdentifier(n) && isValueUse(ts, n, parent)) {
      // A function or class passed as a value (`app.use(handler)`, `[A, B]`): a use of it.
      found.push({ to: n.text, kind: 'references', line: lineOf(n), head: n.text, frame });
    } else if (ts.isTypeReferenceNode(n)) {
      const name = dottedName(ts, n.typeName);
      if (name !== undefined) found.push({ to: name, kind: 'references', line: lineOf(n) });
    } else if (ts.isExpressionWithTypeArguments(n)) {
      const name = dottedName(ts, n.expression);
      if (name !== undefined) found.push({ to: name, kind: 'references', line: lineOf(n) });
    } else if (ts.isJsxOpeningElement(n) || ts.isJsxSelfClosingElement(n)) {
      const name = dottedName(ts, n.tagName);
      // Lower-case tags are intrinsic elements (div, span), not components.
      if (name !== undefined && /^[A-Z]|\./.test(name)) found.push({ to: name, kind: 'calls', line: lineOf(n) });
    } else if (ts.isTypeQueryNode(n)) {
      const name = dottedName(ts, n.exprName);
      if (name !== undefined) found.push({ to: name, kind: 'references', line: lineOf(n) });
    }
    reach = extra.length === 0 ? own : own.length === 0 ? extra : [...own, ...extra];
    const outerParent = parent;
    parent = n;
    ts.forEachChild(n, visit);
    parent = outerParent;
    reach = own;
  };
  visit(node);
  for (const f of found) {
    if (f.head === undefined) sink.add(from, f.to, f.kind, f.line);
    else if (f.call) {
      const via = lookup(f.frame, f.head);
      if (via !== '?' || f.to.includes('.')) sink.add(from, f.to, 'calls', f.line, via);
    } else if (lookup(f.frame, f.head) === undefined) sink.add(from, f.to, f.kind, f.line);
  }
}
