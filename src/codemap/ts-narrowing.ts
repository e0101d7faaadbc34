/**
 * Where a name may hold a narrower type than its declaration gives it. The checker narrows a
 * reference by the code before it: `typeof v === 'function'` makes an `Object` a `Function`,
 * `x instanceof Sub` a base class its subclass, `'p' in x` and a type guard `isFoo(x)` (or an
 * assertion `assertFoo(x)`) whatever they say. A member looked up on the declared type could then
 * be another one than the checker finds; such a name is left to the checker.
 *
 * Decided from the syntax, without following the control flow: a function whose body narrows the
 * name anywhere counts, before or after the use. Filtering a union (`if (x)`, `x === undefined`,
 * `x.kind === 'a'`) never changes which class a member comes from, so it does not count.
 */
import type * as TS from 'typescript';

type Ts = typeof TS;

/** What one function's body (nested functions apart) does to names that can narrow them. */
interface Body {
  /** Names under `typeof`, left of `instanceof`, right of `in`. */
  readonly tested: ReadonlySet<string>;
  /** Calls that name a reference (as an argument, or as the receiver of a method called): type guards or assertions, perhaps. */
  readonly calls: ReadonlyMap<string, readonly TS.CallExpression[]>;
}

/** `this` is narrowed as names are. */
const THIS = 'this';

export interface Narrowing {
  /**
   * True when `ref` (an identifier or `this` in an expression) may be narrowed where it is written,
   * by any function from the innermost one around it out to `scope` (the declaration's function
   * or file). `mayNarrow(call)` says whether a call can be a type guard or an assertion.
   */
  narrowed(ref: TS.Node, scope: TS.Node, mayNarrow: (call: TS.CallExpression) => boolean): boolean;
}

export function createNarrowing(ts: Ts): Narrowing {
  const bodies = new WeakMap<TS.Node, Body>();

  /** The reference an expression starts from: `a` of `a.b[c]!.d`, `this` of `this.x`; undefined for a call's result and the like. */
  const rootName = (e: TS.Node): string | undefined => {
    let cur = e;
    for (;;) {
      if (ts.isPropertyAccessExpression(cur) || ts.isElementAccessExpression(cur) || ts.isParenthesizedExpression(cur) || ts.isNonNullExpression(cur)) cur = cur.expression;
      else break;
    }
    if (ts.isIdentifier(cur)) return cur.text;
    return cur.kind === ts.SyntaxKind.ThisKeyword ? THIS : undefined;
  };

  const scan = (fn: TS.Node): Body => {
    const hit = bodies.get(fn);
    if (hit) return hit;
    const tested = new Set<string>();
    const calls = new Map<string, TS.CallExpression[]>();
    const note = (name: string | undefined, call: TS.CallExpression): void => {
      if (name === undefined) return;
      const list = calls.get(name);
      if (list) list.push(call);
      else calls.set(name, [call]);
    };
    const visit = (n: TS.Node): void => {
      if (n !== fn && ts.isFunctionLike(n)) return;
      if (ts.isTypeOfExpression(n)) {
        const name = rootName(n.expression);
        if (name !== undefined) tested.add(name);
      } else if (ts.isBinaryExpression(n)) {
        const op = n.operatorToken.kind;
        const name = op === ts.SyntaxKind.InstanceOfKeyword ? rootName(n.left) : op === ts.SyntaxKind.InKeyword ? rootName(n.right) : undefined;
        if (name !== undefined) tested.add(name);
      } else if (ts.isCallExpression(n)) {
        const names = new Set<string | undefined>(n.arguments.map(rootName));
        if (ts.isPropertyAccessExpression(n.expression) || ts.isElementAccessExpression(n.expression)) names.add(rootName(n.expression.expression));
        for (const name of names) note(name, n);
      }
      ts.forEachChild(n, visit);
    };
    visit(fn);
    const body = { tested, calls };
    bodies.set(fn, body);
    return body;
  };

  const busy = new Set<TS.CallExpression>();
  return {
    narrowed(ref, scope, mayNarrow) {
      const name = ts.isIdentifier(ref) ? ref.text : THIS;
      for (let n: TS.Node | undefined = ref.parent; n; n = n.parent) {
        if (!(ts.isFunctionLike(n) || ts.isSourceFile(n) || n === scope)) continue;
        const body = scan(n);
        if (body.tested.has(name)) return true;
        for (const call of body.calls.get(name) ?? []) {
          // A call whose callee is worked out through this very name: the checker decides.
          if (busy.has(call)) return true;
          busy.add(call);
          try {
            if (mayNarrow(call)) return true;
          } finally {
            busy.delete(call);
          }
        }
        if (n === scope || ts.isSourceFile(n)) break;
      }
      return false;
    },
  };
}
