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
function isValueUse(ts: Ts, n: TS.Identifier, p: TS.Node | undefined, valueParents: Uint8Array): boolean {
  if (!p) return false;
  switch (valueParents[p.kind] as ValueParent) {
    case ValueParent.None: return false;
    case ValueParent.Always: return true;
    case ValueParent.Argument: return (p as TS.CallExpression | TS.NewExpression).arguments?.includes(n) ?? false;
    case ValueParent.Initializer: return (p as TS.PropertyAssignment).initializer === n;
    case ValueParent.Returned: return (p as TS.ReturnStatement).expression === n;
    case ValueParent.Binary: {
      const b = p as TS.BinaryExpression;
      return b.operatorToken.kind === ts.SyntaxKind.InstanceOfKeyword && b.right === n;
    }
  }
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

/** The state of the walk under way (collectEdges is never re-entered): module-level, so one visitor function serves every walk. */
interface EdgeWalk {
  readonly ts: Ts;
  readonly sf: TS.SourceFile;
  readonly found: Found[];
  frame: Frame | undefined;
  /** The scopes whose bodies hold the node being visited. */
  reach: readonly Map<string, string>[];
  /** The body of the innermost function being walked, and its scope: the body's children bind there. */
  body: TS.Node | undefined;
  bodyScope: readonly Map<string, string>[];
  /** The node whose children are being visited (the source file is parsed without parent links). */
  parent: TS.Node | undefined;
  readonly tables: KindTables;
}

let walk: EdgeWalk | undefined;

function lineOf(w: EdgeWalk, n: TS.Node): number {
  return w.sf.getLineAndCharacterOfPosition(n.getStart(w.sf)).line + 1;
}

/** What the walk does at a node, by its kind (one table lookup instead of a chain of kind tests per node). */
const enum Role { None, Function, Call, Identifier, TypeReference, Heritage, JsxTag, TypeQuery }
/** What a node binds in the scopes that reach it, by its kind. */
const enum Binds { None, Variable, Catch, NamedDeclaration }
/** Where, under a parent of this kind, an identifier stands as a value (isValueUse). */
const enum ValueParent { None, Always, Argument, Initializer, Returned, Binary }

interface KindTables {
  readonly role: Uint8Array;
  readonly binds: Uint8Array;
  readonly valueParents: Uint8Array;
}

let tables: KindTables | undefined;
let tablesOf: Ts | undefined;

/**
 * Built from the compiler's own kind tests, asked of a bare `{ kind }` for every kind (each of them
 * looks at nothing else), so the tables follow whatever compiler is loaded.
 */
function kindTables(ts: Ts): KindTables {
  if (tables && tablesOf === ts) return tables;
  const count = ts.SyntaxKind.Count;
  const role = new Uint8Array(count);
  const binds = new Uint8Array(count);
  const valueParents = new Uint8Array(count);
  for (let kind = 0; kind < count; kind++) {
    const n = { kind } as TS.Node;
    role[kind] = ts.isFunctionLike(n) ? Role.Function
      : ts.isCallExpression(n) || ts.isNewExpression(n) ? Role.Call
        : ts.isIdentifier(n) ? Role.Identifier
          : ts.isTypeReferenceNode(n) ? Role.TypeReference
            : ts.isExpressionWithTypeArguments(n) ? Role.Heritage
              : ts.isJsxOpeningElement(n) || ts.isJsxSelfClosingElement(n) ? Role.JsxTag
                : ts.isTypeQueryNode(n) ? Role.TypeQuery : Role.None;
    binds[kind] = ts.isVariableDeclaration(n) ? Binds.Variable
      : ts.isCatchClause(n) ? Binds.Catch
        : ts.isFunctionDeclaration(n) || ts.isClassDeclaration(n) ? Binds.NamedDeclaration : Binds.None;
    valueParents[kind] = ts.isCallExpression(n) || ts.isNewExpression(n) ? ValueParent.Argument
      : ts.isArrayLiteralExpression(n) || ts.isShorthandPropertyAssignment(n) ? ValueParent.Always
        : ts.isPropertyAssignment(n) ? ValueParent.Initializer
          : ts.isReturnStatement(n) ? ValueParent.Returned
            : ts.isBinaryExpression(n) ? ValueParent.Binary : ValueParent.None;
  }
  tablesOf = ts;
  return (tables = { role, binds, valueParents });
}

function bind(ts: Ts, n: TS.Node, how: Binds, scopes: readonly Map<string, string>[]): void {
  if (how === Binds.Variable) {
    const d = n as TS.VariableDeclaration;
    const type = annotatedType(ts, d.type) ?? valueType(ts, d.initializer) ?? '?';
    for (const types of scopes) bindName(ts, types, d.name, type);
  } else if (how === Binds.Catch) {
    const decl = (n as TS.CatchClause).variableDeclaration;
    if (decl) for (const types of scopes) bindName(ts, types, decl.name, '?');
  } else {
    const name = (n as TS.FunctionDeclaration | TS.ClassDeclaration).name;
    if (name) for (const types of scopes) types.set(name.text, '?');
  }
}

/**
 * One visitor for every walk, not a closure per walk: the compiler's forEachChild then always
 * calls the same function, which V8 optimizes once instead of again for each new closure it meets.
 */
function visitEdges(n: TS.Node): void {
  const w = walk!;
  const ts = w.ts;
  const own = w.reach;
  const kind = n.kind;
  if (own.length > 0) {
    const how = w.tables.binds[kind]!;
    if (how !== Binds.None) bind(ts, n, how, own);
  }
  const extra = n === w.body ? w.bodyScope : NO_SCOPES;
  const role: Role = w.tables.role[kind]!;
  if (role === Role.Function) {
    const fn = n as TS.SignatureDeclaration;
    const types = new Map<string, string>();
    for (const p of fn.parameters) bindName(ts, types, p.name, annotatedType(ts, p.type) ?? '?');
    const outerFrame = w.frame;
    const outerBody = w.body;
    const outerScope = w.bodyScope;
    w.frame = { types, up: w.frame };
    w.body = (n as TS.FunctionLikeDeclaration).body;
    w.bodyScope = [types];
    // The walks of the functions around stop here; only an enclosing body's own walk goes on.
    w.reach = extra;
    const outerParent = w.parent;
    w.parent = n;
    ts.forEachChild(n, visitEdges);
    w.parent = outerParent;
    w.frame = outerFrame;
    w.body = outerBody;
    w.bodyScope = outerScope;
    w.reach = own;
    return;
  }
  if (role !== Role.None) record(w, n, role);
  w.reach = extra.length === 0 ? own : own.length === 0 ? extra : [...own, ...extra];
  const outerParent = w.parent;
  w.parent = n;
  ts.forEachChild(n, visitEdges);
  w.parent = outerParent;
  w.reach = own;
}

/** The edge a call, a value use, a type reference, a heritage clause, a JSX tag or a `typeof` makes, if any. */
function record(w: EdgeWalk, n: TS.Node, role: Role): void {
  const { ts, found } = w;
  if (role === Role.Call) {
    const name = dottedName(ts, (n as TS.CallExpression | TS.NewExpression).expression);
    if (name !== undefined && name !== 'this' && name !== 'require') {
      const dot = name.indexOf('.');
      found.push({ to: name, kind: 'calls', line: lineOf(w, n), head: dot < 0 ? name : name.slice(0, dot), frame: w.frame, call: true });
    }
  } else if (role === Role.Identifier) {
    // A function or class passed as a value (`app.use(handler)`, `[A, B]`): a use of it.
    const id = n as TS.Identifier;
    if (isValueUse(ts, id, w.parent, w.tables.valueParents)) found.push({ to: id.text, kind: 'references', line: lineOf(w, n), head: id.text, frame: w.frame });
  } else if (role === Role.TypeReference) {
    const name = dottedName(ts, (n as TS.TypeReferenceNode).typeName);
    if (name !== undefined) found.push({ to: name, kind: 'references', line: lineOf(w, n) });
  } else if (role === Role.Heritage) {
    const name = dottedName(ts, (n as TS.ExpressionWithTypeArguments).expression);
    if (name !== undefined) found.push({ to: name, kind: 'references', line: lineOf(w, n) });
  } else if (role === Role.JsxTag) {
    const name = dottedName(ts, (n as TS.JsxOpeningElement | TS.JsxSelfClosingElement).tagName);
    // Lower-case tags are intrinsic elements (div, span), not components.
    if (name !== undefined && /^[A-Z]|\./.test(name)) found.push({ to: name, kind: 'calls', line: lineOf(w, n) });
  } else if (role === Role.TypeQuery) {
    const name = dottedName(ts, (n as TS.TypeQueryNode).exprName);
    if (name !== undefined) found.push({ to: name, kind: 'references', line: lineOf(w, n) });
  }
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
  const found: Found[] = [];
  const outer = walk;
  walk = { ts, sf, found, frame: undefined, reach: NO_SCOPES, body: undefined, bodyScope: NO_SCOPES, parent: undefined, tables: kindTables(ts) };
  try {
    visitEdges(node);
  } finally {
    walk = outer;
  }
  for (const f of found) {
    if (f.head === undefined) sink.add(from, f.to, f.kind, f.line);
    else if (f.call) {
      const via = lookup(f.frame, f.head);
      if (via !== '?' || f.to.includes('.')) sink.add(from, f.to, 'calls', f.line, via);
    } else if (lookup(f.frame, f.head) === undefined) sink.add(from, f.to, f.kind, f.line);
  }
}
