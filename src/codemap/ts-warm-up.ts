/**
 * A parse worker's first files teach V8 what the TypeScript scanner and parser meet. Optimized
 * early on real files, their code lacks the branches the first files did not take (a rare
 * operator, a numeric form, a template), and each later file that takes one throws the compiled
 * code away: the scanner alone was compiled again about a dozen times per worker, the compiler
 * thread busy for seconds, on a 2-core machine the time the second worker needed. Indexing one
 * small text that holds nearly every token and construct first, while all of it still runs in the
 * interpreter, leaves the feedback complete before anything is optimized (5,000 files: about 11%
 * less CPU over the pool). The results are thrown away; nothing here reaches an index.
 */
import { loadTypeScript } from './load-typescript.js';
import { indexTypeScriptSource } from './ts-declarations.js';

// A merge-conflict marker is a token of its own to the scanner; written with repeat() so that no
// tool searching the repository for real conflicts stops here.
const TS_SAMPLE = `#!/usr/bin/env node
/// <reference types="node" />
/** Doc {@link Foo} @param a x */
import def, { a as b, type C } from './x';
import * as ns from "y";
import type { T } from 'z';
import json from './d.json' with { type: 'json' };
export * from './w';
export * as q from './q';
export { b as c, def };
export default class Base<T extends object = {}> extends Array<T> implements I, J<K> {
  static #count = 0x1F + 0b101 + 0o17 + 1e-3 + 1_000n + .5 + 08 + 1E+2;
  private readonly x?: number | undefined = 1;
  declare y: string;
  @dec() accessor z = 'a\\'b\\u00e9\\u{1F600}\\x41\\n';
  static { Base.#count++; }
  constructor(public p: string, protected q?: number) { super(); }
  get v(): number { return this.x ?? 0; }
  set v(n) { this.x = n; }
  async *gen(): AsyncGenerator<number> { yield* [1]; await null; }
  m<U>(this: Base<T>, ...rest: U[]): asserts rest is U[] {}
  abstract?(): void;
}
interface I { (x: number): string; new (x: string): I; readonly [k: string]: unknown; m?(): void; }
type M<T> = { -readonly [K in keyof T as \`get\${Capitalize<K & string>}\`]+?: T[K] extends (infer R)[] ? R : never };
type U = 'a' | "b" | 1 | -1 | true | null | undefined | void | unique symbol | typeof import('x') | keyof T | T[number];
type F = new (...a: any[]) => object; type G = abstract new () => void; type Tup = [a: string, b?: number, ...c: boolean[]];
enum E { A = 1 << 2, B = A | 3, C = ~B, D = 'd' }
const enum CE { X }
declare module 'm' { export function f(): void; }
declare global { var g: number; }
namespace N.O { export const n = 1; }
function over(a: string): void;
function over(a: number): void;
function over(a: any) { label: for (const k in a) { if (!k) continue label; else break; } }
let { a1, b1: [c1, , d1 = 2], ...e1 } = obj, f1 = a1 as unknown as string, g1 = <number>h1, h2 = i1!, j1 = k1 satisfies L;
var re = /ab+c[\\]/\\\\]\\/(?<n>x)/gimsuyd, t = \`a\${b}c\${\`d\${e}\`}f\`, tag = fn\`x\${y}\`;
x >>>= 1; x >>= 1; x <<= 1; x **= 2; x ??= 3; x &&= 4; x ||= 5; x |= 6; x &= 7; x ^= 8; x %= 9; x /= 2; x *= 1; x -= 1; x += 1;
y = a?.b?.[c]?.(d) ?? e ? f : g, y = !a && b || c | d & e ^ f === g !== h == i != j < k > l <= m >= n << o >> p >>> q + r - s * t / u % v ** w;
y = typeof a, void 0, delete a.b, ++a, a--, -a, +a, ~a, a instanceof B, 'k' in a, new.target, import.meta.url, await import('z');
do { switch (y) { case 1: case 'a': break; default: throw new Error(); } } while (false);
try { with (o) {} } catch { } finally { } try {} catch ({ message }) {}
for (let i = 0; i < 1; i++) {} for (const [k, v] of m) {} for await (const c of s) {}
const arrow = async <T,>(a: T, { b }: { b: number } = { b: 1 }): Promise<void> => { debugger; }, fe = function* named() {};
const o2 = { a, [b]: 1, 'c': 2, 3: 4, get d() { return 1; }, set d(v) {}, async e() {}, *f() {}, ...g, h: () => ({}) };
class Q { @a @b.c() @d<T>() m() {} declare [Symbol.iterator]: () => void; override toString(): string { return ''; } }
if (a) ; else if (b) {} else {}
// line comment \\u2028 é ü 中文 \u00a0
/* block */ let ünï = 1, $_ = 2, \\u0061bc = 3; a
=> b;
${'<'.repeat(7)} HEAD
${'='.repeat(7)}
${'>'.repeat(7)} x
`;

const TSX_SAMPLE = `import { h } from './view-kit';
export function App<T,>({ items }: { items: T[] }): JSX.Element {
  return <div className="a" {...rest} data-x={1} key='k'>
    text &amp; &#123; &#x1F; {items.map((i) => <Item key={String(i)} value={i} />)}
    <>frag</><ns:tag attr /><a.b.C>{/* c */}</a.b.C>
    {cond ? <span>{'s'}</span> : null}
  </div>;
}
const el = <T,>(x: T) => x;
`;

const JS_SAMPLE = `'use strict';
const fs = require('fs'), { join: j } = require('path');
module.exports = function main() {}; module.exports.helper = helper; exports.x = 1;
function Foo() {} Foo.prototype.bar = function () { return this; }; Foo.baz = () => {};
Object.defineProperty(exports, '__esModule', { value: true });
/** @type {number} */ var n = 0x10, s = "q\\"", r = /x/g; n <<= 1;
class K extends Foo { #p = 1; static s = 2; m() { return super.m?.() ?? this.#p; } }
(function iife() {})(); (() => {})(); void async function () { await 1; }();
export default { a: 1 };
`;

/** The samples as each script kind the plugin handles (.ts, .d.ts, .tsx, .js, .jsx), by file name. */
export const WARM_UP_FILES: readonly (readonly [string, string])[] = [
  ['warm-up.ts', TS_SAMPLE], ['warm-up.tsx', TSX_SAMPLE], ['warm-up.js', JS_SAMPLE], ['warm-up.d.ts', TS_SAMPLE],
  ['warm-up.jsx', TSX_SAMPLE.replaceAll('<T,>', '')],
];

/** Indexes every sample once, results discarded; never throws. */
export function warmUpTypeScriptIndexer(): void {
  try {
    const ts = loadTypeScript();
    for (const [name, text] of WARM_UP_FILES) indexTypeScriptSource(ts, name, text);
  } catch {
    // Only a speed-up: a parser that fails here fails on the real files too, and says so there.
  }
}
