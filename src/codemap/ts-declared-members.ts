/**
 * Which member `recv.name` names, worked out from declared types instead of the checker's full
 * inference. The language service asks the checker for the symbol of every candidate name in a
 * search; for `c.json()` inside `app.get('/', (c) => …)` the checker must first resolve the call
 * `app.get(…)` — pick among a framework's generic overloads and infer their type arguments, which
 * means checking the callback's body — before it knows `c`. On Hono that is most of a cold
 * search's time (2.5 of its 4 s). Which member a name means does not depend on type arguments: a
 * class or interface has the same members whatever it is instantiated with. So the receiver is
 * typed from declarations alone — annotations, initializers, the declared parameter and return
 * types of every overload of the callee — with the generics left open, and the member is looked up
 * on the class or interface that comes out.
 *
 * It answers only when that is sure: every overload that could type the callback agrees on one
 * class or interface, and the receiver is a name the code never narrows to another type
 * (ts-narrowing.ts). A receiver that may be of several classes, an intersection, a type parameter,
 * a mapped or conditional type, a callback the checker would leave untyped, a member found nowhere
 * — anything else — goes to the checker as before, which then answers as the language service does.
 * Measured against the checker on every `recv.name` of Hono, h3, Elysia and jotai: the same
 * declarations each time, for 46% of Hono's 27,423 accesses and 18–22% of the others'.
 */
import type * as TS from 'typescript';
import { createNarrowing, type Narrowing } from './ts-narrowing.js';

type Ts = typeof TS;

/** The checker's cached answers for one program: types per expression, and which ones are being worked out (cycles). */
interface Memo {
  readonly types: Map<TS.Node, TS.Type | null>;
  /** The same, narrowing left aside (to tell whether a call is a type guard). */
  readonly loose: Map<TS.Node, TS.Type | null>;
  /** The expressions being worked out, per map (a cycle gives up). */
  readonly busy: Set<TS.Node>;
  readonly looseBusy: Set<TS.Node>;
  readonly narrowing: Narrowing;
}

const memos = new WeakMap<TS.TypeChecker, Memo>();

/**
 * Two checker methods the compiler's own services use, left out of its public typings: a
 * signature's parameter type at a position (a rest parameter's element type past its start), and
 * whether it has a rest parameter. The vendored compiler is pinned at build time.
 */
interface Positions {
  getParameterType(sig: TS.Signature, index: number): TS.Type;
  hasEffectiveRestParameter(sig: TS.Signature): boolean;
}

/** How many arguments a signature needs: a field of the compiler's signatures its typings leave out. */
const minArguments = (sig: TS.Signature): number | undefined => (sig as { minArgumentCount?: number }).minArgumentCount;

/**
 * Runs `fn` (a language service search) with the checker's `getSymbolAtLocation` answering member
 * names from declared types where it can. The service reads the method off the checker object at
 * each call, so it is replaced there for the duration and put back after.
 */
export function withDeclaredMembers<T>(ts: Ts, checker: TS.TypeChecker, fn: () => T): T {
  const original = checker.getSymbolAtLocation;
  const members = declaredMembers(ts, checker);
  checker.getSymbolAtLocation = (node) => members(node) ?? original.call(checker, node);
  try {
    return fn();
  } finally {
    checker.getSymbolAtLocation = original;
  }
}

/** Flags of a type with no members a function argument could take (it never types a callback). */
function plainFlags(ts: Ts): number {
  const F = ts.TypeFlags;
  return F.StringLike | F.NumberLike | F.BigIntLike | F.BooleanLike | F.ESSymbolLike | F.Undefined | F.Null | F.Void | F.Never;
}

/**
 * A lookup of the member a name in `recv.name` means, from declared types; undefined when only the
 * checker can say. Use it before replacing the checker's getSymbolAtLocation: it keeps the original.
 */
export function declaredMembers(ts: Ts, checker: TS.TypeChecker): (node: TS.Node) => TS.Symbol | undefined {
  const memo = memos.get(checker) ?? { types: new Map(), loose: new Map(), busy: new Set(), looseBusy: new Set(), narrowing: createNarrowing(ts) };
  memos.set(checker, memo);
  const symbolAt = checker.getSymbolAtLocation.bind(checker);
  const F = ts.TypeFlags;
  const O = ts.ObjectFlags;
  const positions = checker as unknown as Positions;
  const rest = (sig: TS.Signature): boolean => positions.hasEffectiveRestParameter(sig);
  const nullish = F.Undefined | F.Null | F.Void;
  const plain = plainFlags(ts);

  /** The class or interface whose members a value of `type` has, with its generics left open; undefined when not one. */
  const ownerOf = (type: TS.Type | undefined): TS.Type | undefined => {
    if (!type) return undefined;
    if (type.flags & F.Union) {
      let one: TS.Type | undefined;
      for (const t of (type as TS.UnionType).types) {
        if (t.flags & nullish) continue;
        const o = ownerOf(t);
        if (!o || (one && one !== o)) return undefined;
        one = o;
      }
      return one;
    }
    // A method's `this` type: the class it is declared in.
    if (type.flags & F.TypeParameter) return (type as { isThisType?: boolean }).isThisType ? ownerOf(checker.getBaseConstraintOfType(type)) : undefined;
    if (!(type.flags & F.Object)) return undefined;
    const flags = (type as TS.ObjectType).objectFlags;
    if (flags & O.Reference) {
      const target = (type as TS.TypeReference).target;
      return target.objectFlags & O.ClassOrInterface ? target : undefined;
    }
    if (flags & O.ClassOrInterface) return type;
    // `typeof C`: the class's static side.
    if (flags & O.Anonymous && type.symbol && type.symbol.flags & ts.SymbolFlags.Class) return type;
    return undefined;
  };
  const sameOwner = (types: readonly (TS.Type | undefined)[]): TS.Type | undefined => {
    let one: TS.Type | undefined;
    for (const t of types) {
      const o = ownerOf(t);
      if (!o || (one && one !== o)) return undefined;
      one = o;
    }
    return one;
  };
  /** Above zero while a callee is typed for mayNarrow: names are then taken as declared, unnarrowed. */
  let loose = 0;
  /** The function (or file) a declaration's name is scoped to. */
  const container = (d: TS.Node): TS.Node => {
    if (ts.isParameter(d)) return d.parent;
    let n = d.parent;
    while (n && !ts.isFunctionLike(n) && !ts.isSourceFile(n)) n = n.parent;
    return n ?? d.getSourceFile();
  };
  const member = (owner: TS.Type | undefined, name: string): TS.Symbol | undefined => (owner ? checker.getPropertyOfType(owner, name) : undefined);
  const fromNode = (n: TS.TypeNode | undefined): TS.Type | undefined => (n ? checker.getTypeFromTypeNode(n) : undefined);
  /** A declaration's written type: its annotation, or in JavaScript its JSDoc type. */
  const written = (d: TS.ParameterDeclaration | TS.VariableDeclaration): TS.TypeNode | undefined =>
    d.type ?? (d.flags & ts.NodeFlags.JavaScriptFile ? ts.getJSDocType(d) : undefined);

  /** The type of the class `this` means inside `n` (its instance, or its static side in a static member); undefined elsewhere. */
  const thisType = (n: TS.Node): TS.Type | undefined => {
    // Arrow functions keep the `this` around them; any other function has its own.
    let holder = n.parent;
    while (holder && !ts.isSourceFile(holder) && (ts.isArrowFunction(holder) || !(ts.isFunctionLike(holder)
      || ts.isPropertyDeclaration(holder) || ts.isClassStaticBlockDeclaration(holder)))) holder = holder.parent;
    if (!holder || !(ts.isMethodDeclaration(holder) || ts.isConstructorDeclaration(holder) || ts.isAccessor(holder)
      || ts.isPropertyDeclaration(holder) || ts.isClassStaticBlockDeclaration(holder))) return undefined;
    const cls = holder.parent;
    if (!ts.isClassLike(cls) || !cls.name) return undefined;
    const sym = symbolAt(cls.name);
    if (!sym) return undefined;
    if (loose === 0 && memo.narrowing.narrowed(n, holder, mayNarrow)) return undefined;
    const isStatic = ts.isClassStaticBlockDeclaration(holder) || (ts.getCombinedModifierFlags(holder) & ts.ModifierFlags.Static) !== 0;
    return isStatic ? checker.getTypeOfSymbol(sym) : checker.getDeclaredTypeOfSymbol(sym);
  };

  /** What calling through `sigs` returns; a `this` return is the receiver's own. */
  const returned = (sigs: readonly TS.Signature[], receiver: TS.Type | undefined): TS.Type | undefined => {
    const types = sigs.map((s) => {
      const r = checker.getReturnTypeOfSignature(s);
      return r.flags & F.TypeParameter && (r as { isThisType?: boolean }).isThisType && receiver ? receiver : r;
    });
    // One signature's return is kept whole (`Response | Promise<Response>` is awaited next); overloads' are reduced to what they share.
    return types.length === 1 ? types[0] : sameOwner(types);
  };

  const parameterCount = (fn: TS.SignatureDeclaration): number => {
    let n = 0;
    for (const p of fn.parameters) {
      if (p.initializer || p.questionToken || p.dotDotDotToken) break;
      n++;
    }
    return n;
  };

  /**
   * The type a callback's parameter gets from where the callback is passed: the one class every
   * signature that can type it gives at that position (the checker's contextual signature, before
   * inference). Undefined when none does, or when one could type it otherwise (the checker decides).
   */
  const contextual = (param: TS.ParameterDeclaration): TS.Type | undefined => {
    const fn = param.parent;
    const isCallback = ts.isArrowFunction(fn) || ts.isFunctionExpression(fn) || (ts.isMethodDeclaration(fn) && ts.isObjectLiteralExpression(fn.parent));
    if (!isCallback || param.dotDotDotToken) return undefined;
    const index = fn.parameters.indexOf(param);
    if (fn.parameters.some((p) => ts.isIdentifier(p.name) && p.name.text === 'this')) return undefined;
    const candidates = ts.isMethodDeclaration(fn) ? memberTypes(fn.parent as TS.ObjectLiteralExpression, fn.name) : positionTypes(fn);
    if (!candidates) return undefined;
    const found: TS.Type[] = [];
    for (const position of candidates) {
      const t = callbackParameter(position, index, parameterCount(fn));
      if (t === null) return undefined;
      if (t) found.push(t);
    }
    return found.length > 0 ? sameOwner(found) : undefined;
  };

  /**
   * The types the place of `e` can give it, one per signature that could (an argument: the
   * parameter's type in each overload; a property of an object literal: that property of each
   * type the literal can get); null where only the checker can say.
   */
  const positionTypes = (e: TS.Node): TS.Type[] | null => {
    let arg: TS.Node = e;
    while (ts.isParenthesizedExpression(arg.parent)) arg = arg.parent;
    const site = arg.parent;
    if ((ts.isCallExpression(site) || ts.isNewExpression(site)) && site.arguments?.includes(arg as TS.Expression)) {
      const k = site.arguments.indexOf(arg as TS.Expression);
      if (site.arguments.slice(0, k).some(ts.isSpreadElement)) return null;
      if (ts.isCallExpression(site) && (site.expression.kind === ts.SyntaxKind.SuperKeyword || site.expression.kind === ts.SyntaxKind.ImportKeyword)) return null;
      const callee = valueType(site.expression);
      if (!callee) return null;
      const sigs = checker.getSignaturesOfType(callee, ts.isNewExpression(site) ? ts.SignatureKind.Construct : ts.SignatureKind.Call);
      return sigs.filter((sig) => k < sig.parameters.length || rest(sig)).map((sig) => positions.getParameterType(sig, k));
    }
    if (ts.isVariableDeclaration(site) && site.initializer === arg && site.type) return [checker.getTypeFromTypeNode(site.type)];
    if (ts.isPropertyAssignment(site) && site.initializer === arg && ts.isObjectLiteralExpression(site.parent)) return memberTypes(site.parent, site.name);
    return null;
  };
  /** The type of property `name` in each type the object literal `literal` can get. */
  const memberTypes = (literal: TS.ObjectLiteralExpression, name: TS.PropertyName): TS.Type[] | null => {
    if (!(ts.isIdentifier(name) || ts.isStringLiteral(name))) return null;
    const outer = positionTypes(literal);
    if (!outer) return null;
    const out: TS.Type[] = [];
    for (const t of outer) {
      for (const m of t.flags & F.Union ? (t as TS.UnionType).types : [t]) {
        if (m.flags & plain) continue;
        // A type still to be worked out (a type parameter, a mapped type) gives its properties only once instantiated.
        if (!(m.flags & (F.Object | F.Intersection)) || (m.flags & F.Object && (m as TS.ObjectType).objectFlags & O.Mapped)) return null;
        const prop = checker.getPropertyOfType(m, name.text);
        if (prop) out.push(checker.getTypeOfSymbol(prop));
        // A property an index signature types: left to the checker.
        else if (checker.getIndexInfosOfType(m).length > 0) return null;
      }
    }
    return out;
  };

  /**
   * What a function type (or a union of them) `at` gives a callback's parameter `index`: undefined
   * when it cannot type a function, null when the checker's contextual signature could differ
   * (several signatures, members that are not identical, a type still to be inferred).
   */
  const callbackParameter = (position: TS.Type, index: number, required: number): TS.Type | undefined | null => {
    let first: TS.Signature | undefined;
    const members = [...(position.flags & F.Union ? (position as TS.UnionType).types : [position])];
    for (let i = 0; i < members.length; i++) {
      let m = members[i]!;
      // A type parameter still to be inferred (`VF extends (value, c: Context) => any`, `P extends string`)
      // types the callback through its constraint, as the checker's apparent type of it does.
      if (m.flags & F.TypeParameter) {
        const constraint = checker.getBaseConstraintOfType(m);
        if (!constraint || constraint.flags & (F.Any | F.Unknown)) return null;
        m = constraint;
        if (m.flags & F.Union) {
          members.push(...(m as TS.UnionType).types);
          continue;
        }
      }
      if (m.flags & plain) continue;
      // An intersection (`H<…> & M1`) types a callback through the one signature its members give together.
      if (!(m.flags & (F.Object | F.Intersection))) return null;
      const sigs = checker.getSignaturesOfType(m, ts.SignatureKind.Call)
        .filter((s) => rest(s) || s.parameters.length >= required);
      if (sigs.length === 0) continue;
      const sig = sigs[0]!;
      if (sigs.length > 1 || (index >= sig.parameters.length && !rest(sig))) return null;
      // The members of a union type a callback only if their signatures are identical, returns aside.
      if (first && !identical(first, sig)) return null;
      first ??= sig;
    }
    return first && positions.getParameterType(first, index);
  };
  /**
   * The checker's test for a union's signatures (returns aside), on a stricter identity of types:
   * the same type, or function types written twice alike (`next: () => void` in two handler types).
   */
  const identical = (a: TS.Signature, b: TS.Signature, depth = 0): boolean => {
    if (a.parameters.length !== b.parameters.length || rest(a) !== rest(b) || minArguments(a) !== minArguments(b)) return false;
    for (let i = 0; i < a.parameters.length; i++) {
      if (!sameType(positions.getParameterType(a, i), positions.getParameterType(b, i), depth)) return false;
    }
    return true;
  };
  const sameType = (a: TS.Type, b: TS.Type, depth: number): boolean => {
    if (a === b) return true;
    if (depth >= 3 || !(a.flags & b.flags & F.Object) || !((a as TS.ObjectType).objectFlags & (b as TS.ObjectType).objectFlags & O.Anonymous)) return false;
    const bare = (t: TS.Type): TS.Signature | undefined => {
      const calls = checker.getSignaturesOfType(t, ts.SignatureKind.Call);
      return calls.length === 1 && checker.getPropertiesOfType(t).length === 0
        && checker.getSignaturesOfType(t, ts.SignatureKind.Construct).length === 0 ? calls[0] : undefined;
    };
    const sa = bare(a);
    const sb = bare(b);
    return !!sa && !!sb && !sa.typeParameters && !sb.typeParameters && identical(sa, sb, depth + 1)
      && sameType(checker.getReturnTypeOfSignature(sa), checker.getReturnTypeOfSignature(sb), depth + 1);
  };

  /** The declared type of what the name `id` refers to (undefined when only inference could say). */
  const typeOfName = (id: TS.Identifier): TS.Type | undefined => {
    let sym = symbolAt(id);
    if (!sym) return undefined;
    if (sym.flags & ts.SymbolFlags.Alias) sym = checker.getAliasedSymbol(sym);
    const decl = sym.valueDeclaration;
    if (!decl) return undefined;
    if (sym.flags & (ts.SymbolFlags.Class | ts.SymbolFlags.Function | ts.SymbolFlags.Method)
      && (ts.isClassLike(decl) || ts.isFunctionDeclaration(decl) || ts.isMethodDeclaration(decl))) return checker.getTypeOfSymbol(sym);
    if (!(ts.isParameter(decl) || ts.isVariableDeclaration(decl)) || !ts.isIdentifier(decl.name)) return undefined;
    const declared = declaredType(sym, decl);
    return declared && loose === 0 && memo.narrowing.narrowed(id, container(decl), mayNarrow) ? undefined : declared;
  };
  const declaredType = (sym: TS.Symbol, decl: TS.ParameterDeclaration | TS.VariableDeclaration): TS.Type | undefined => {
    const type = written(decl);
    if (type) return fromNode(type);
    if (ts.isParameter(decl)) return contextual(decl);
    // `for (const x of …)` has no initializer: its type is the iterated one, inferred.
    if (!decl.initializer) return undefined;
    // `const make = <T>(…) => …`: a function's type is its signature, read from the declaration (its body is not checked for it).
    const init = ts.skipPartiallyEmittedExpressions(decl.initializer);
    if (ts.isArrowFunction(init) || ts.isFunctionExpression(init) || ts.isClassExpression(init)) return checker.getTypeOfSymbol(sym);
    return valueType(decl.initializer);
  };

  /**
   * Whether a call can narrow what it names (a type guard, an assertion, a function that never
   * returns), as the checker tells from its callee's signatures; its callee is typed as declared.
   */
  const mayNarrow = (call: TS.CallExpression): boolean => {
    const callee = call.expression;
    if (ts.isIdentifier(callee)) {
      // A name that resolves to nothing (an import the program cannot follow) is `any`: it narrows nothing.
      let sym = symbolAt(callee);
      if (sym && sym.flags & ts.SymbolFlags.Alias) sym = checker.getAliasedSymbol(sym);
      if (!sym || checker.isUnknownSymbol(sym)) return false;
    }
    loose++;
    try {
      const t = valueType(callee);
      if (!t) return true;
      if (t.flags & F.Any) return false;
      return checker.getSignaturesOfType(t, ts.SignatureKind.Call).some((sig) => checker.getTypePredicateOfSignature(sig) !== undefined
        || (sig.declaration !== undefined && !ts.isJSDocSignature(sig.declaration) && returnsNever(sig.declaration)));
    } finally {
      loose--;
    }
  };
  const returnsNever = (d: TS.SignatureDeclaration): boolean =>
    (d.type ?? (d.flags & ts.NodeFlags.JavaScriptFile ? ts.getJSDocReturnType(d) : undefined))?.kind === ts.SyntaxKind.NeverKeyword;

  const compute = (e: TS.Node): TS.Type | undefined => {
    if (ts.isParenthesizedExpression(e) || ts.isNonNullExpression(e) || ts.isSatisfiesExpression(e)) return valueType(e.expression);
    if (ts.isAsExpression(e) || ts.isTypeAssertionExpression(e)) return ts.isConstTypeReference(e.type) ? undefined : fromNode(e.type);
    if (ts.isAwaitExpression(e)) {
      const t = valueType(e.expression);
      return t && checker.getAwaitedType(t);
    }
    if (ts.isIdentifier(e)) return typeOfName(e);
    if (e.kind === ts.SyntaxKind.ThisKeyword) return thisType(e);
    if (ts.isPropertyAccessExpression(e)) {
      if (!ts.isIdentifier(e.name)) return undefined;
      const prop = member(ownerOf(valueType(e.expression)), e.name.text);
      return prop && checker.getTypeOfSymbol(prop);
    }
    if (ts.isNewExpression(e)) {
      const ctor = valueType(e.expression);
      return ctor && returned(checker.getSignaturesOfType(ctor, ts.SignatureKind.Construct), undefined);
    }
    if (ts.isCallExpression(e)) {
      if (e.expression.kind === ts.SyntaxKind.SuperKeyword || e.expression.kind === ts.SyntaxKind.ImportKeyword) return undefined;
      const callee = valueType(e.expression);
      const receiver = ts.isPropertyAccessExpression(e.expression) ? ownerOf(valueType(e.expression.expression)) : undefined;
      return callee && returned(checker.getSignaturesOfType(callee, ts.SignatureKind.Call), receiver);
    }
    return undefined;
  };

  /** The declared type of an expression, remembered per node; undefined when only the checker's inference can say. */
  function valueType(e: TS.Node): TS.Type | undefined {
    const [types, busy] = loose > 0 ? [memo.loose, memo.looseBusy] : [memo.types, memo.busy];
    const hit = types.get(e);
    if (hit !== undefined) return hit ?? undefined;
    if (busy.has(e)) return undefined;
    busy.add(e);
    try {
      const t = compute(e);
      types.set(e, t ?? null);
      return t;
    } finally {
      busy.delete(e);
    }
  }

  return (node) => {
    const access = node.parent;
    if (!ts.isIdentifier(node) || !access || !ts.isPropertyAccessExpression(access) || access.name !== node) return undefined;
    return member(ownerOf(valueType(access.expression)), node.text);
  };
}
