import { afterEach, describe, expect, it } from 'vitest';
import { openCodeMap, type CodeMap } from '../../src/codemap/code-map.js';
import type { Config } from '../../src/config/types.js';
import { tempProject, toolContext, type TempProject } from './helpers.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

async function openFixture(name: string): Promise<{ map: CodeMap; config: Config; tp: TempProject }> {
  const tp = await tempProject(name);
  const config = await tp.config();
  const map = await openCodeMap({ projectRoot: tp.project, cacheDir: tp.cacheDir, config, worker: 'off' });
  cleanups.push(async () => { await map.close(); await tp.cleanup(); });
  return { map, config, tp };
}

async function tool(ctx: { map: CodeMap; config: Config }, name: string, args: unknown): Promise<string> {
  const r = await ctx.map.tools().find((t) => t.name === name)!.run(args, toolContext(ctx.config));
  return r.content;
}

describe('Python', () => {
  it('maps classes, methods and functions with docstrings, and resolves relative imports', async () => {
    const ctx = await openFixture('py-project');
    expect(ctx.map.warnings).toEqual([]);
    expect(ctx.map.mapText(3000)).toContain([
      'app/models.py',
      '  4: class User  // A registered user.',
      '    7: def __init__(self, name: str)',
      // Fields set in methods are members too: `self.x.method()` is looked up through them.
      '    8: self.name = name',
      '    10: def greeting(self) -> str',
      '  14: def format_name(name: str) -> str',
    ].join('\n'));
    const register = await tool(ctx, 'read_symbol', { name: 'register' });
    expect(register).toContain('Calls (3):\n  app/models.py:4 class User');
    expect(register).toContain('app/services/accounts.py:12 function log');
    expect(register).toContain('app/models.py:14 function format_name');
    const refs = await tool(ctx, 'find_references', { name: 'format_name' });
    expect(refs).toContain('app/models.py:11 User.greeting [calls]: return format_name(self.name)');
    expect(refs).toContain('app/services/accounts.py:8 register [calls]');
  });
});

describe('Python imports', () => {
  it('puts each name of a parenthesised import list on its own line, as a checker does', async () => {
    const tp = await tempProject();
    cleanups.push(() => tp.cleanup());
    await tp.write('pkg/__init__.py', '');
    await tp.write('pkg/util.py', 'def first(x):\n    return x\n\n\ndef second(x):\n    return x\n');
    await tp.write('pkg/app.py', 'from .util import (\n    first,\n    second as other,\n)\n\n\ndef run():\n    return other(first(1))\n');
    const config = await tp.config();
    const map = await openCodeMap({ projectRoot: tp.project, cacheDir: tp.cacheDir, config, worker: 'off' });
    cleanups.push(() => map.close());
    const ctx = { map, config };
    const first = await tool(ctx, 'find_references', { name: 'first' });
    expect(first).toContain('pkg/app.py:2 (top level) [imports]');
    expect(first).toContain('pkg/app.py:8 run [calls]');
    expect(first).not.toContain('pkg/app.py:1 ');
    expect(await tool(ctx, 'find_references', { name: 'second' })).toContain('pkg/app.py:3 (top level) [imports]');
  });

  it('does the same for a Rust use list over several lines', async () => {
    const tp = await tempProject();
    cleanups.push(() => tp.cleanup());
    await tp.write('Cargo.toml', '[package]\nname = "demo"\nversion = "0.1.0"\n');
    await tp.write('src/util.rs', 'pub fn first() -> u8 {\n    1\n}\n\npub fn second() -> u8 {\n    2\n}\n');
    await tp.write('src/main.rs', 'mod util;\nuse crate::util::{\n    first,\n    second,\n};\n\nfn main() {\n    println!("{}", first() + second());\n}\n');
    const config = await tp.config();
    const map = await openCodeMap({ projectRoot: tp.project, cacheDir: tp.cacheDir, config, worker: 'off' });
    cleanups.push(() => map.close());
    const second = await tool({ map, config }, 'find_references', { name: 'second' });
    expect(second).toContain('src/main.rs:4 (top level) [imports]');
    expect(second).not.toContain('src/main.rs:2 ');
  });
});

describe('Go', () => {
  it('maps types, functions and methods by receiver, and resolves package imports through go.mod', async () => {
    const ctx = await openFixture('go-project');
    expect(ctx.map.mapText(3000)).toContain([
      'internal/store/store.go',
      '  4: type Store struct { … }  // Store keeps items in memory.',
      '    5: items map[string]int',
      '  9: func New() *Store  // New makes an empty store.',
      '    14: [Store] func (s *Store) Add(name string, n int)  // Add puts n of an item.',
    ].join('\n'));
    const main = await tool(ctx, 'read_symbol', { name: 'main' });
    // s := store.New() gives s New's result type: s.Add is Store.Add.
    expect(main).toContain('Calls (3):\n  internal/store/store.go:9 function New');
    expect(main).toContain('internal/store/store.go:14 method Store.Add');
    const store = await tool(ctx, 'find_references', { name: 'Store', file: 'internal/store/store.go' });
    expect(store).toContain('cmd/tool/main.go:15 report [references]: func report(s *store.Store) string {');
    expect(await tool(ctx, 'read_symbol', { name: 'Store.Add' })).toContain('Calls (1):\n  internal/store/store.go:19 method Store.touch');
  });
});

describe('Rust', () => {
  it('maps structs, traits and impl methods, and resolves crate paths in use declarations', async () => {
    const ctx = await openFixture('rust-project');
    const text = ctx.map.mapText(3000);
    expect(text).toContain('  2: pub struct Client { … }  // A network client.');
    expect(text).toContain('    18: [Client] pub fn new(host: &str) -> Client  // Makes a client.');
    const connect = await tool(ctx, 'read_symbol', { name: 'connect' });
    expect(connect).toContain('Used by (1):\n  src/main.rs:7 main (calls)');
    expect(connect).toContain('Calls (1):\n  src/net/client.rs:18 method Client.new');
    const sender = await tool(ctx, 'find_references', { name: 'Sender' });
    expect(sender).toContain('src/net/client.rs:10 Client [implements]: impl Sender for Client {');
    expect(await tool(ctx, 'read_symbol', { name: 'send', file: 'src/net/client.rs' })).toContain('ambiguous');
    expect(await tool(ctx, 'read_symbol', { name: 'Client.send' })).toContain('Calls (1):\n  src/net/client.rs:22 method Client.log');
  });
});

describe('Java', () => {
  it('maps classes with members, resolves imports and same-class calls', async () => {
    const ctx = await openFixture('java-project');
    expect(ctx.map.mapText(3000)).toContain([
      'src/main/java/com/acme/model/Order.java',
      '  4: public class Order implements Priced  // An order of items.',
      '    5: private final int total',
      '    7: public Order(int total)',
      '    11: public int price()',
    ].join('\n'));
    const sum = await tool(ctx, 'read_symbol', { name: 'Checkout.sum' });
    // o.price() on the loop variable `Order o` resolves through its declared type.
    expect(sum).toContain('Calls (2):\n  src/main/java/com/acme/model/Order.java:11 method Order.price');
    expect(sum).toContain('src/main/java/com/acme/app/Checkout.java:16 method Checkout.fee');
    expect(sum).toContain('Referenced types (1):\n  src/main/java/com/acme/model/Order.java:4 class Order');
    const priced = await tool(ctx, 'find_references', { name: 'Priced' });
    expect(priced).toContain('src/main/java/com/acme/model/Order.java:4 Order [implements]');
  });
});

describe('C#, C++, Ruby, PHP and Bash', () => {
  it('maps their declarations and resolves calls and base classes inside the project', async () => {
    const ctx = await openFixture('misc-project');
    const text = ctx.map.mapText(3000);
    expect(text).toContain('Shop.cs\n  1: namespace Shop\n    2: public class Cart : Basket, ICart');
    expect(text).toContain('geometry.cpp\n  3: namespace geo\n    4: class Shape');
    expect(text).toContain('greeter.rb\n  1: module Greeting\n    2: class Greeter < Base\n    3: [Greeting.Greeter] def greet(name)');
    expect(text).toContain('deploy.sh\n  2: build()\n  6: deploy()\n  11: upload()');
    expect(await tool(ctx, 'read_symbol', { name: 'Cart.Total' })).toMatch(/Calls \(2\):\n {2}Shop\.cs:9 method Shop\.Cart\.Log[^\n]*\n {2}Shop\.cs:13 class Shop\.Item/);
    expect(await tool(ctx, 'read_symbol', { name: 'Circle.area' })).toContain('geometry.cpp:16 function square');
    expect(await tool(ctx, 'read_symbol', { name: 'Greeter.greet' })).toContain('greeter.rb:7 method Greeting.Greeter.format_name');
    expect(await tool(ctx, 'read_symbol', { name: 'deploy' })).toContain('Calls (2):\n  deploy.sh:2 function build');
    expect(await tool(ctx, 'find_references', { name: 'Handler' })).toContain('app.php:2 Controller [implements]');
    expect(await tool(ctx, 'find_references', { name: 'Shape' })).toContain('geometry.cpp:9 geo.Circle [extends]');
    expect(await tool(ctx, 'find_references', { name: 'helper' })).toContain('app.php:4 Controller.handle [calls]');
  });
});
