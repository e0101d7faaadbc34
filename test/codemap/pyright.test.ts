/**
 * Python references without a checker, measured against one: pyright's language server on a
 * fixture with method calls through constructed values, factories, typed parameters, self fields
 * and super(). Also the hand-written answers: sure references, and possible ones kept apart.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openCodeMap, type CodeMap } from '../../src/codemap/code-map.js';
import type { Config } from '../../src/config/types.js';
import { startPyright, type PyrightClient } from '../support/pyright-client.js';
import { comparePython } from '../support/python-compare.js';
import { tempProject, toolContext, type TempProject } from './helpers.js';

let tp: TempProject;
let map: CodeMap;
let config: Config;
let pyright: PyrightClient;
const run = async (tool: string, args: unknown): Promise<string> => (await map.tools().find((t) => t.name === tool)!.run(args, toolContext(config))).content;

beforeAll(async () => {
  tp = await tempProject('py-receivers');
  config = await tp.config();
  map = await openCodeMap({ projectRoot: tp.project, cacheDir: tp.cacheDir, config, worker: 'off' });
  pyright = await startPyright(tp.project);
}, 60_000);

afterAll(async () => {
  await pyright?.close();
  await map?.close();
  await tp?.cleanup();
});

describe('Python references through receivers', () => {
  it('resolves calls through constructors, factories, typed parameters, fields and super()', async () => {
    const get = await run('find_references', { name: 'Store.get' });
    expect(get).toContain('shop/service.py:16 Service.run [calls]: s.get("a")');
    expect(get).toContain('shop/service.py:18 Service.run [calls]: self.store.get("c")');
    expect(get).toContain('shop/service.py:21 Service.run [calls]: t.get("e")');
    expect(get).toContain('shop/service.py:24 Service.run [calls]: return Store.get(s, "g")');
    const put = await run('find_references', { name: 'Store.put' });
    expect(put).toContain('shop/service.py:17 Service.run [calls]: other.put("b", "1")');
    expect(put).toContain('shop/service.py:19 Service.run [calls]: self.backup.put("d", "2")');
    expect(put).toContain('shop/store.py:19 AuditStore.put [calls]: super().put(key, value)');
    expect(await run('find_references', { name: 'AuditStore.log' })).toContain('shop/service.py:23 Service.run [calls]: self.audit.log("f")');
    // The parameter `get` shadows the module's function get.
    expect(await run('find_references', { name: 'get', file: 'shop/service.py' })).not.toContain('shop/service.py:22');
    // unknown.run(): a method of that name exists, the receiver's type is not known: apart, never mixed in.
    const runRefs = await run('find_references', { name: 'Service.run' });
    expect(runRefs).toMatch(/1 references to method Service.run[^]*shop\/cli.py:6 main \[calls\]: service.run\(service.store, len\)\nPossible references/);
    expect(runRefs).toContain('shop/cli.py:7 main [calls]: unknown.run()');
  });

  it('agrees with pyright: recall ≥ 0.8, the sure references at precision ≥ 0.95', async () => {
    const result = await comparePython(tp.project, map, pyright, toolContext(config), map.symbols());
    const t = result.total;
    expect(t.tp + t.fn, 'pyright finds references in the fixture').toBeGreaterThan(25);
    expect(t.tp / (t.tp + t.fn), result.misses.join('\n')).toBeGreaterThanOrEqual(0.8);
    expect(t.tp / (t.tp + t.fp), result.misses.join('\n')).toBeGreaterThanOrEqual(0.95);
  }, 120_000);
});
