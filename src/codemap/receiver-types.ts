/**
 * Method calls through values, without a checker: the type of `x` in `x.run()` as the plugin read
 * it from the code (`x = Foo()`, `x: Foo`, a field's declared type, a function's return type),
 * then members looked up in that type and its bases, field by field (`self.store.db.get()`).
 */
import { posix } from 'node:path';
import type { ProjectSymbol } from './graph-types.js';
import type { IndexedFile } from './resolve-names.js';
import type { SymbolInfo } from './types.js';

const TYPE_KINDS = new Set(['class', 'interface', 'type', 'enum', 'namespace', 'module']);
const MAX_CHAIN = 6;

export interface ReceiverContext {
  readonly files: ReadonlyMap<string, IndexedFile>;
  readonly symbols: readonly ProjectSymbol[];
  readonly byName: ReadonlyMap<string, readonly number[]>;
  local(file: string, qualified: string): number | undefined;
  /** Name resolution as written in `file` inside `from` (no receiver types). */
  resolveName(file: string, from: string, name: string): number | undefined;
  /** Told each file whose declarations an answer for `file` read. */
  onRead(file: string, read: string): void;
}

export interface ReceiverTypes {
  /** The type (a symbol id) of the value `via` describes, as written in `file` inside `from`. */
  valueType(file: string, from: string, via: string): number | undefined;
  /** `rest` looked up member by member from the type `type`. */
  chain(file: string, type: number, rest: readonly string[]): number | undefined;
  /** `rest` looked up from the bases of `type` (what `super()` sees). */
  inBases(file: string, type: number, rest: readonly string[]): number | undefined;
  /** The type of a symbol's value: a class is itself; a field or variable its declared type; a function what it returns. */
  typeOfValue(file: string, id: number, called: boolean): number | undefined;
}

export function createReceiverTypes(ctx: ReceiverContext): ReceiverTypes {
  const infos = new Map<string, Map<string, SymbolInfo>>();
  /** The plugin's record of a symbol (the graph's symbols may come from storage, without `type`). */
  const info = (s: ProjectSymbol): SymbolInfo | undefined => {
    let table = infos.get(s.file);
    if (!table) {
      table = new Map();
      for (const i of ctx.files.get(s.file)?.index.symbols ?? []) {
        const key = `${i.container ? `${i.container}.` : ''}${i.name}:${i.startLine}`;
        if (!table.has(key)) table.set(key, i);
      }
      infos.set(s.file, table);
    }
    return table.get(`${s.qualified}:${s.startLine}`);
  };

  /** A type name as written where symbol `at` is declared (`Self` is the enclosing type). */
  const named = (file: string, at: ProjectSymbol, text: string): number | undefined => {
    ctx.onRead(file, at.file);
    const owner = at.container;
    const written = text === 'Self' || text === 'self' || text === 'this' ? owner : text;
    if (!written) return undefined;
    return ctx.resolveName(at.file, at.qualified, written);
  };

  const typeOfValue = (file: string, id: number, called: boolean): number | undefined => {
    const s = ctx.symbols[id]!;
    if (TYPE_KINDS.has(s.kind)) return id;
    const t = info(s)?.type;
    if (!t) return undefined;
    // A field holding a function is rare next to a field holding an object: `called` only for functions.
    if ((s.kind === 'function' || s.kind === 'method') && !called) return undefined;
    return valueOfText(file, s, t);
  };

  /** `Foo` names a type; `Foo()` what calling Foo gives. */
  const valueOfText = (file: string, at: ProjectSymbol, text: string): number | undefined => {
    const called = text.endsWith('()');
    const id = named(file, at, called ? text.slice(0, -2) : text);
    if (id === undefined) return undefined;
    return called ? typeOfValue(file, id, true) : TYPE_KINDS.has(ctx.symbols[id]!.kind) ? id : typeOfValue(file, id, false);
  };

  const bases = (file: string, type: ProjectSymbol): number[] => {
    const out: number[] = [];
    for (const e of ctx.files.get(type.file)?.index.edges ?? []) {
      if (e.from !== type.qualified || (e.kind !== 'extends' && e.kind !== 'implements')) continue;
      const id = ctx.resolveName(type.file, type.qualified, e.to);
      if (id !== undefined && id !== type.id) out.push(id);
    }
    ctx.onRead(file, type.file);
    return out;
  };

  /** A member of a type or its bases; methods declared outside the type's body (Go, Rust impl blocks) too. */
  const member = (file: string, type: number, name: string, depth = 0): number | undefined => {
    const t = ctx.symbols[type]!;
    const own = ctx.local(t.file, `${t.qualified}.${name}`);
    if (own !== undefined) return own;
    const packageScoped = ctx.files.get(t.file)?.index.packageScoped === true;
    const elsewhere = (ctx.byName.get(name) ?? []).find((id) => {
      const m = ctx.symbols[id]!;
      return m.container === t.qualified && (m.file === t.file || (packageScoped && posix.dirname(m.file) === posix.dirname(t.file)));
    });
    if (elsewhere !== undefined) {
      ctx.onRead(file, ctx.symbols[elsewhere]!.file);
      return elsewhere;
    }
    if (depth >= MAX_CHAIN) return undefined;
    for (const base of bases(file, t)) {
      const found = member(file, base, name, depth + 1);
      if (found !== undefined) return found;
    }
    return undefined;
  };

  const chain = (file: string, type: number, rest: readonly string[]): number | undefined => {
    let current = type;
    for (let i = 0; i < rest.length && i < MAX_CHAIN; i++) {
      const m = member(file, current, rest[i]!);
      if (m === undefined) return undefined;
      if (i === rest.length - 1) return m;
      const next = typeOfValue(file, m, false);
      if (next === undefined) return undefined;
      current = next;
    }
    return rest.length === 0 ? type : undefined;
  };

  return {
    valueType(file, from, via) {
      const called = via.endsWith('()');
      const name = called ? via.slice(0, -2) : via;
      const written = name === 'Self' ? from.split('.').slice(0, -1).join('.') : name;
      if (!written) return undefined;
      const id = ctx.resolveName(file, from, written);
      if (id === undefined) return undefined;
      return called ? typeOfValue(file, id, true) : TYPE_KINDS.has(ctx.symbols[id]!.kind) ? id : typeOfValue(file, id, false);
    },
    chain,
    typeOfValue,
    inBases(file, type, rest) {
      for (const base of bases(file, ctx.symbols[type]!)) {
        const found = chain(file, base, rest);
        if (found !== undefined) return found;
      }
      return undefined;
    },
  };
}
