/**
 * TS/JS symbol questions answered by the TypeScript checker in the index worker, measured against
 * the language service on a 30-file fixture that has every case the syntax index got wrong: method
 * calls through instances, locals, this.field, callback and typed parameters; overloads; aliased,
 * star, namespace and directory re-exports; default exports; JSX; instanceof; functions and classes
 * used as values; a parameter shadowing a project function; a generated file.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openCodeMap, type CodeMap } from '../../src/codemap/code-map.js';
import type { Config } from '../../src/config/types.js';
import { compareWithLanguageService } from '../support/ts-compare.js';
import { tempProject, toolContext, type TempProject } from './helpers.js';

let tp: TempProject;
let map: CodeMap;
let config: Config;
const worker = { url: new URL('./ts-worker-bootstrap.mjs', import.meta.url) };
const run = async (tool: string, args: unknown): Promise<{ ok: boolean; content: string }> =>
  map.tools().find((t) => t.name === tool)!.run(args, toolContext(config));

beforeAll(async () => {
  tp = await tempProject('ts-checked');
  config = await tp.config();
  map = await openCodeMap({ projectRoot: tp.project, cacheDir: tp.cacheDir, config, worker });
});

afterAll(async () => {
  await map.close();
  await tp.cleanup();
});

describe('the checker-backed symbol tools', () => {
  it('find the references and dependencies the language service finds (recall and precision ≥ 0.95)', async () => {
    const result = await compareWithLanguageService(tp.project, map, config, 1000);
    const score = (t: { tp: number; fp: number; fn: number }) => ({ recall: t.tp / (t.tp + t.fn), precision: t.tp / (t.tp + t.fp) });
    expect(result.refs.tp + result.refs.fn, 'the fixture has references to find').toBeGreaterThan(150);
    expect(result.deps.tp + result.deps.fn, 'the fixture has dependencies to find').toBeGreaterThan(80);
    expect(score(result.refs).recall, result.misses.join('\n')).toBeGreaterThanOrEqual(0.95);
    expect(score(result.refs).precision, result.misses.join('\n')).toBeGreaterThanOrEqual(0.95);
    expect(score(result.deps).recall, result.misses.join('\n')).toBeGreaterThanOrEqual(0.95);
    expect(score(result.deps).precision, result.misses.join('\n')).toBeGreaterThanOrEqual(0.95);
  }, 120_000);

  it('finds method calls through callback parameters, locals and fields, grouped by the calling symbol', async () => {
    const json = await run('find_references', { name: 'Context.json' });
    expect(json.content).toContain("src/main.ts:12 main [calls]: app.get('/', (c) => c.json({ hello: Paths.join('a', 'b') }));");
    expect(json.content).toContain('src/middleware/cors.ts:11 preflight [calls]');
    // The generated file uses it too, but generated files stay out.
    expect(json.content).not.toContain('src/generated.ts');
    const get = await run('find_references', { name: 'Store.get' });
    expect(get.content).toContain('src/service/store.ts:18 Cache.read [calls]');
    expect(get.content).toContain('src/service/user.ts:7 UserService.find [calls]');
  });

  it('finds the uses of a member named default (not taken for a default export)', async () => {
    const refs = await run('find_references', { name: 'Setting.default' });
    expect(refs.content).toContain('src/values.ts:');
    expect(refs.content).toContain('[calls]: export const setting = new Setting().default(3);');
  });

  it('never binds a parameter or local to the project function it shadows', async () => {
    const refs = await run('find_references', { name: 'format', file: 'src/shadow.ts' });
    expect(refs.content).toContain('src/main.ts:19 main [references]: return app.fetch(route.path) + render(1, format)');
    expect(refs.content).not.toContain('src/shadow.ts:8');
    expect(refs.content).not.toContain('src/shadow.ts:13');
  });

  it('lists what a class\'s members call, through this.field and aliased re-exports', async () => {
    const deps = await run('get_dependencies', { name: 'Hono', depth: 1 });
    expect(deps.content).toContain('method Router.add');
    expect(deps.content).toContain('class TrieRouter');
    expect(deps.content).toContain('method Context.text');
    // `export { Hono as HonoBase }` keeps the class in the chain: App extends it through the alias.
    expect((await run('find_references', { name: 'Hono' })).content).toContain('src/app/app.ts:5 App [extends]');
    expect(map.mapText(8000)).toContain('src/app/base.ts\n  6: class Hono');
  });

  it('tells a constant from the type of the same name it merges with, as the language service does', async () => {
    const depLines = async (name: string): Promise<string[]> =>
      (await run('get_dependencies', { name, file: 'src/codes.ts', depth: 1 })).content.split('\n').filter((l) => /^[├└]─/.test(l));
    // `keyof STATUS` is the type; `STATUS[code]` the constant, which is no dependency (a value not called).
    expect((await depLines('statusOf')).filter((l) => l.includes('STATUS'))).toEqual([expect.stringContaining('src/codes.ts:3 type STATUS')]);
    // The return type names the type KIND; the values passed are the constant, never the type twice.
    expect((await depLines('tag')).filter((l) => l.includes('KIND'))).toEqual([expect.stringContaining('src/codes.ts:6 type KIND')]);
    expect((await depLines('isTagged')).filter((l) => l.includes('KIND'))).toEqual([]);
    // A declaration's own name is no use: the constant does not depend on the type it merges with.
    expect(await depLines('KIND')).toEqual([]);
  });

  it('lets every candidate of an ambiguous name be picked by the arguments the error lists', async () => {
    const amb = await run('find_references', { name: 'add' });
    expect(amb.ok).toBe(false);
    const listed = [...amb.content.matchAll(/^ {2}(\{.*?\}) /gm)].map((m) => JSON.parse(m[1]!) as { name: string; file: string; line: number });
    expect(listed.map((c) => c.name).sort()).toEqual(['LinearRouter.add', 'Router.add', 'TrieRouter.add']);
    for (const pick of listed) {
      const again = await run('find_references', pick);
      expect(again.ok, again.content).toBe(true);
      expect(again.content).toContain(`${pick.name} (${pick.file}:${pick.line}`);
    }
    const overloads = await run('read_symbol', { name: 'splitPath' });
    expect(overloads.content).toContain('export function splitPath(path: string, limit: number): string[];');
    expect((await run('find_references', { name: 'splitPath' })).content).toContain('src/util/merge.ts:4 mergePath [calls]');
  });

  it('answers about an edit at the next question', async () => {
    await tp.write('src/extra.ts', "import { Store } from './service/store.js';\n\nexport function extra(s: Store): string {\n  return s.get('x') ?? '';\n}\n");
    await map.fileChanged(join(tp.project, 'src/extra.ts'));
    expect((await run('find_references', { name: 'Store.get' })).content).toContain('src/extra.ts:4 extra [calls]');
    await tp.write('src/extra.ts', "export function extra(): string {\n  return '';\n}\n");
    await map.fileChanged(join(tp.project, 'src/extra.ts'));
    expect((await run('find_references', { name: 'Store.get' })).content).not.toContain('src/extra.ts');
  });
});
