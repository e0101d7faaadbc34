import { describe, expect, it } from 'vitest';
import { typescriptPlugin } from '../../src/codemap/ts-plugin.js';
import type { FileIndex } from '../../src/codemap/types.js';

const SOURCE = `import { a, b as c } from './util.js';
import * as ns from '../x';
import Def from './def';

/** Adds numbers.
 * More text that stays out. */
export function add(x: number, y: number): number {
  return a(x) + c.d(y) + ns.q();
}

export class Foo extends Base implements IFoo<Bar> {
  private count = 0;
  static make(): Foo { return new Foo(); }
  async run(arg: Opts): Promise<void> {
    this.helper(1);
    new Baz();
  }
  helper = (n: number): string => String(n);
}

export interface IFoo<T> extends IBase { x: T }
export type Alias = string | Foo;
export const handler = async (req: Req) => add(1, 2);
export const VERSION = '1.0.0';
const hidden = 5;
export enum Color { Red, Green }
export namespace NS {
  export function inner(): void { add(1, 2); }
}
function over(a: string): string;
function over(a: number): number;
function over(a: unknown): unknown { return a; }
const { legacy } = require('./legacy');
export default Foo;
`;

async function index(source = SOURCE, path = 'src/a.ts'): Promise<FileIndex> {
  return typescriptPlugin.indexFile(path, source);
}

describe('the TypeScript plugin', () => {
  it('finds every declaration kind with its line range, export flag and container', async () => {
    const idx = await index();
    const pick = (name: string) => idx.symbols.find((s) => s.name === name);
    expect(pick('add')).toMatchObject({ kind: 'function', startLine: 7, endLine: 9, exported: true });
    expect(pick('Foo')).toMatchObject({ kind: 'class', exported: true, isDefault: true });
    expect(pick('run')).toMatchObject({ kind: 'method', container: 'Foo', exported: true });
    expect(pick('count')).toMatchObject({ kind: 'property', container: 'Foo', exported: false });
    expect(pick('make')).toMatchObject({ kind: 'method', container: 'Foo' });
    expect(pick('IFoo')).toMatchObject({ kind: 'interface' });
    expect(pick('Alias')).toMatchObject({ kind: 'type' });
    expect(pick('handler')).toMatchObject({ kind: 'function', exported: true });
    expect(pick('VERSION')).toMatchObject({ kind: 'variable', exported: true });
    expect(pick('Color')).toMatchObject({ kind: 'enum' });
    expect(pick('NS')).toMatchObject({ kind: 'namespace' });
    expect(pick('inner')).toMatchObject({ kind: 'function', container: 'NS', exported: true });
    // Plain unexported values are not symbols; their uses still count as edges.
    expect(pick('hidden')).toBeUndefined();
  });

  it('keeps signatures without bodies and only the first JSDoc line', async () => {
    const idx = await index();
    const sig = (name: string) => idx.symbols.find((s) => s.name === name)!.signature;
    expect(sig('add')).toBe('/** Adds numbers. */\nexport function add(x: number, y: number): number');
    expect(sig('Foo')).toBe('export class Foo extends Base implements IFoo<Bar>');
    expect(sig('run')).toBe('async run(arg: Opts): Promise<void>');
    expect(sig('helper')).toBe('helper = (n: number): string =>');
    expect(sig('handler')).toBe('export const handler = async (req: Req) =>');
    expect(sig('VERSION')).toBe("export const VERSION = '1.0.0'");
    expect(sig('inner')).toBe('export function inner(): void');
  });

  it('merges overloads into one symbol that shows the callable signatures', async () => {
    const over = (await index()).symbols.filter((s) => s.name === 'over');
    expect(over).toHaveLength(1);
    expect(over[0]!.signature).toBe('function over(a: string): string\nfunction over(a: number): number');
    expect(over[0]!.startLine).toBeLessThan(over[0]!.endLine);
  });

  it('records calls, constructions, member calls, type references, heritage and imports', async () => {
    const edges = (await index()).edges.map((e) => `${e.from} ${e.kind} ${e.to}`);
    expect(edges).toEqual(expect.arrayContaining([
      'add calls a', 'add calls c.d', 'add calls ns.q',
      'Foo extends Base', 'Foo implements IFoo', 'Foo references Bar',
      'Foo.make calls Foo', 'Foo.run references Opts', 'Foo.run calls this.helper', 'Foo.run calls Baz',
      'IFoo extends IBase', 'Alias references Foo', 'handler calls add', 'NS.inner calls add',
      ' imports a', ' imports c', ' imports ns', ' imports Def',
    ]));
  });

  it('records functions and classes used as values, and not a local or parameter of the same name', async () => {
    const source = `import { handler, Model, check } from './lib.js';
export function wire(app: App, check: Check) {
  const local = 1;
  app.use(handler);
  app.use(check);
  const all = [Model, local];
  const table = { run: handler, Model };
  if (x instanceof Model) return handler;
}
`;
    const edges = (await index(source)).edges.filter((e) => e.from === 'wire' && e.kind === 'references').map((e) => `${e.to}:${e.line}`);
    expect(edges).toEqual(expect.arrayContaining(['handler:4', 'Model:6', 'handler:7', 'Model:7', 'Model:8', 'handler:8']));
    // The parameter \`check\` shadows the imported one; a local is never a project symbol.
    expect(edges.filter((e) => e.startsWith('check:') || e.startsWith('local:'))).toEqual([]);
  });

  it('reads ES imports, re-exports and CommonJS requires', async () => {
    const idx = await index();
    expect(idx.imports).toEqual(expect.arrayContaining([
      { source: './util.js', names: { a: 'a', c: 'b' } },
      { source: '../x', names: { ns: '*' } },
      { source: './def', names: { Def: 'default' } },
      { source: './legacy', names: { legacy: 'legacy' } },
    ]));
    expect(idx.moduleScoped).toBe(true);
    const barrel = await index("export * from './impl.js';\nexport { x as y } from './z';\n", 'src/index.ts');
    expect(barrel.imports).toEqual([
      { source: './impl.js', names: {}, reexport: true },
      { source: './z', names: { y: 'x' }, reexport: true },
    ]);
  });

  it('parses JSX and plain JavaScript', async () => {
    const tsx = await index('export function View() { return <Panel title="x"><div/></Panel>; }\n', 'src/view.tsx');
    expect(tsx.edges.map((e) => `${e.from} ${e.to}`)).toEqual(['View Panel']);
    const js = await index('function legacy(t) { return parse(t); }\nmodule.exports = { legacy };\n', 'lib/a.cjs');
    expect(js.symbols.map((s) => s.name)).toEqual(['legacy']);
    expect(js.moduleScoped).toBe(false);
  });
});
