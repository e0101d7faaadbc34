import { readFile, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openCodeMap, type CodeMap } from '../../src/codemap/code-map.js';
import { cacheFile, decodeCache, encodeCache, freshEntry } from '../../src/codemap/index-cache.js';
import { estimateTokens } from '../../src/codemap/map-text.js';
import type { Config } from '../../src/config/types.js';
import { tempProject, toolContext, type TempProject } from './helpers.js';

let tp: TempProject;
let config: Config;
const open: CodeMap[] = [];

async function openMap(extra: Partial<Parameters<typeof openCodeMap>[0]> = {}): Promise<CodeMap> {
  const map = await openCodeMap({ projectRoot: tp.project, cacheDir: tp.cacheDir, config, worker: 'off', ...extra });
  open.push(map);
  return map;
}

async function run(map: CodeMap, tool: string, args: unknown) {
  const def = map.tools().find((t) => t.name === tool)!;
  return def.run(args, toolContext(config));
}

beforeEach(async () => {
  tp = await tempProject('ts-project');
  await tp.write('node_modules/dep/index.ts', 'export function fromDependency(): void {}\n');
  await tp.write('src/vendor.min.js', 'function minified(){}\n');
  config = await tp.config();
});

afterEach(async () => {
  for (const m of open.splice(0)) await m.close();
  await tp.cleanup();
});

describe('indexing a TypeScript project', () => {
  it('indexes the sources and skips ignored, dependency, minified and generated files', async () => {
    const progress: [number, number][] = [];
    const map = await openMap({ onProgress: (done, total) => progress.push([done, total]) });
    expect(progress.at(-1)).toEqual([11, 11]);
    expect(map.stats).toEqual({ files: 11, reparsed: 11, unchanged: 0, failed: 0 });
    const text = map.mapText(4000);
    expect(text).toContain('src/index.ts');
    expect(text).not.toContain('shouldNotBeIndexed');
    expect(text).not.toContain('fromDependency');
    expect(text).not.toContain('minified');
    expect(text).not.toContain('generatedThing');
    expect(map.warnings).toEqual([]);
  });

  it('indexes at most maxFiles files and warns when the project is bigger', async () => {
    const map = await openMap({ maxFiles: 3 });
    expect(map.stats.files).toBe(3);
    expect(map.warnings).toEqual([expect.stringContaining('the code map covers only 3 files of this project')]);
  });

  it('prints per-file signatures with line numbers and first doc lines, byte-stable across opens', async () => {
    const cold = (await openMap()).mapText(4000);
    // The line is the declaration's, not the line its doc comment opens on.
    expect(cold).toContain('src/index.ts\n  8: export function main(argv: string[]): string  // Starts the application.');
    expect(cold).toContain('  14: export class App extends BaseApp implements Runnable\n    15: private readonly name = \'app\'\n    17: run(): void');
    expect(cold).toContain('src/config.ts\n  1: export interface Config { … }\n  6: export function parseConfig(text: string): Config');
    expect(cold).not.toContain('return');
    const warm = await openMap();
    expect(warm.stats.reparsed).toBe(0);
    expect(warm.mapText(4000)).toBe(cold);
  });

  it('cuts the map to the budget, keeping the most referenced symbols and saying what was left out', async () => {
    const map = await openMap();
    const small = map.mapText(130);
    expect(estimateTokens(small)).toBeLessThanOrEqual(130);
    expect(small).toMatch(/\(\d+ less central symbols left out/);
    // Config is used by index.ts, format.ts and parseConfig: it must survive a small budget.
    expect(small).toContain('parseConfig');
  });
});

describe('the symbol tools', () => {
  it('read_symbol shows numbered source, users, callees and referenced types', async () => {
    const map = await openMap();
    const r = await run(map, 'read_symbol', { name: 'main' });
    expect(r.ok).toBe(true);
    expect(r.content).toContain('src/index.ts:8-12 function main (exported)');
    // The doc comment is shown with the source all the same.
    expect(r.content).toContain('6  /** Starts the application.');
    expect(r.content).toContain(' 9    const config: Config = parseConfig(argv.join(\' \'));');
    expect(r.content).toMatch(/Calls \(3\):\n {2}src\/config\.ts:6 function parseConfig[^\n]*\n {2}src\/barrel\/impl\.ts:1 function barrelFn[^\n]*\n {2}src\/lib\/format\.ts:3 function format/);
    expect(r.content).toContain('Referenced types (1):\n  src/config.ts:1 interface Config\n    export interface Config {\n      readonly verbose: boolean;');
    const cfg = await run(map, 'read_symbol', { name: 'parseConfig' });
    expect(cfg.content).toContain('Used by (2):');
    expect(cfg.content).toContain('src/index.ts:9 main (calls)');
    expect(cfg.content).toContain('src/legacy.js:4 legacy (calls)');
  });

  it('never links a name imported from outside the project to a same-named project symbol', async () => {
    const map = await openMap();
    const refs = await run(map, 'find_references', { name: 'format' });
    expect(refs.content).toContain('src/index.ts:11 main [calls]: return format(config);');
    expect(refs.content).not.toContain('src/other.ts');
    const deps = await run(map, 'get_dependencies', { name: 'useExternal' });
    expect(deps.content).toContain('(no dependencies inside the project)');
  });

  it('resolves this.method, extends and implements', async () => {
    const map = await openMap();
    const run1 = await run(map, 'read_symbol', { name: 'App.run' });
    expect(run1.content).toContain('src/index.ts:21 method App.helper');
    const refs = await run(map, 'find_references', { name: 'Runnable' });
    expect(refs.content).toContain('src/index.ts:14 App [implements]');
    const base = await run(map, 'find_references', { name: 'BaseApp' });
    expect(base.content).toContain('src/index.ts:14 App [extends]');
  });

  it('lists candidates for an ambiguous name and suggestions for an unknown one', async () => {
    const map = await openMap();
    const amb = await run(map, 'read_symbol', { name: 'helper' });
    expect(amb.ok).toBe(false);
    expect(amb.content).toContain('"helper" is ambiguous: 3 symbols match');
    expect(amb.content).toContain('{"name":"helper","file":"src/a/util.ts","line":1}  function');
    expect(amb.content).toContain('{"name":"helper","file":"src/b/util.ts","line":1}  function');
    const one = await run(map, 'read_symbol', { name: 'helper', file: 'src/b/util.ts' });
    expect(one.content).toContain("2    return 'b';");
    const unknown = await run(map, 'read_symbol', { name: 'parseConfg' });
    expect(unknown.ok).toBe(false);
    expect(unknown.content).toContain('No symbol named "parseConfg"');
    expect(unknown.content).toContain('parseConfig (src/config.ts:6)');
  });

  it('get_dependencies prints a tree with cycles marked and honours depth', async () => {
    const map = await openMap();
    const deps = await run(map, 'get_dependencies', { name: 'isEven' });
    expect(deps.content).toBe([
      'src/other.ts:7 function isEven — export function isEven(n: number): boolean',
      '└─ calls src/other.ts:11 function isOdd — export function isOdd(n: number): boolean',
      '   └─ calls src/other.ts:7 function isEven — export function isEven(n: number): boolean  (cycle)',
    ].join('\n'));
    const shallow = await run(map, 'get_dependencies', { name: 'main', depth: 1 });
    expect(shallow.content).toContain('├─ references src/config.ts:1 interface Config');
    expect(shallow.summary).toBe('main: 4 dependencies (depth 1)');
  });

  it('answers bad arguments with an error result instead of throwing', async () => {
    const map = await openMap();
    for (const tool of ['read_symbol', 'find_references', 'get_dependencies']) {
      const r = await run(map, tool, { name: 42 });
      expect(r.ok).toBe(false);
      expect(r.content).toContain('"name" must be a non-empty string');
    }
    expect((await run(map, 'get_dependencies', { name: 'main', depth: -1 })).content).toContain('"depth" must be a positive integer');
    expect((await run(map, 'read_symbol', null)).ok).toBe(false);
  });
});

describe('staying current', () => {
  it('fileChanged re-indexes a written file and forgets a deleted one', async () => {
    const map = await openMap();
    await tp.write('src/config.ts', `${await readFile(join(tp.project, 'src/config.ts'), 'utf8')}\nexport function freshlyAdded(): Config { return parseConfig(''); }\n`);
    await map.fileChanged(join(tp.project, 'src/config.ts'));
    const fresh = await run(map, 'read_symbol', { name: 'freshlyAdded' });
    expect(fresh.ok).toBe(true);
    expect(fresh.content).toContain('src/config.ts:6 function parseConfig');
    await rm(join(tp.project, 'src/other.ts'));
    await map.fileChanged('src/other.ts');
    expect((await run(map, 'read_symbol', { name: 'isOdd' })).ok).toBe(false);
  });

  it('notices a file changed behind its back (bash, git) before reading a symbol', async () => {
    const map = await openMap();
    await tp.write('src/barrel/impl.ts', '// moved down\n\nexport function barrelFn(): number {\n  return 7;\n}\n');
    const r = await run(map, 'read_symbol', { name: 'barrelFn' });
    expect(r.content).toContain('4    return 7;');
  });
});

describe('the cache', () => {
  it('reparses only files whose bytes or plugin version changed; a touched file is read and hashed, not parsed', async () => {
    const first = await openMap();
    expect(first.stats.reparsed).toBe(first.stats.files);
    const expected = first.mapText(4000);
    await first.close();
    const later = new Date(Date.now() + 5000);
    await utimes(join(tp.project, 'src/base.ts'), later, later);
    const second = await openMap();
    expect(second.stats).toMatchObject({ reparsed: 0, unchanged: 1 });
    expect(second.mapText(4000)).toBe(expected);
    await second.close();
    // The same size and a new mtime, other bytes: parsed again.
    const base = await readFile(join(tp.project, 'src/base.ts'), 'utf8');
    await writeFile(join(tp.project, 'src/base.ts'), base.replace('abstract run(): void;', 'abstract nur(): void;'));
    const third = await openMap();
    expect(third.stats).toMatchObject({ reparsed: 1, unchanged: 0 });
    await third.close();
    const file = cacheFile(tp.cacheDir, tp.project);
    const { entries, warning } = decodeCache(await readFile(file), tp.project);
    expect(warning).toBeUndefined();
    const old = entries.get('src/config.ts')!;
    entries.set('src/config.ts', freshEntry(old.size, old.mtimeMs, 'typescript@0', old.index()));
    await writeFile(file, encodeCache(tp.project, entries));
    expect((await openMap()).stats.reparsed).toBe(1);
  });

  it('rebuilds a corrupt cache with a warning and the same map', async () => {
    const first = await openMap();
    const expected = first.mapText(4000);
    await first.close();
    const file = cacheFile(tp.cacheDir, tp.project);
    const good = await readFile(file);
    // A torn write, a flipped byte in one file's index, and a header cut short.
    const flipped = Buffer.from(good);
    flipped[flipped.length - 10] = flipped[flipped.length - 10]! ^ 1;
    for (const bad of [good.subarray(0, good.length - 7), flipped, good.subarray(0, 40)]) {
      await writeFile(file, bad);
      // Without the derived files (maps, graph parts) nothing can be served without the index.
      for (const n of await readdir(tp.cacheDir)) if (/^(maps|graph)-/.test(n)) await rm(join(tp.cacheDir, n));
      const warnings: string[] = [];
      const again = await openMap({ onWarning: (m) => warnings.push(m) });
      expect(warnings).toEqual([expect.stringContaining('code map cache is corrupt')]);
      expect(again.stats.reparsed).toBe(again.stats.files);
      expect(again.mapText(4000)).toBe(expected);
      await again.close();
      expect((await readFile(file)).equals(good)).toBe(true);
    }
  });

  it('rebuilds a cache of the older JSON format with a warning', async () => {
    await (await openMap()).close();
    await writeFile(cacheFile(tp.cacheDir, tp.project), JSON.stringify({ format: 1, root: tp.project, files: {} }));
    const warnings: string[] = [];
    const again = await openMap({ onWarning: (m) => warnings.push(m) });
    expect(warnings).toEqual([expect.stringContaining('older format')]);
    expect(again.stats.reparsed).toBe(again.stats.files);
  });

  it('serves the stored map to an unchanged project, and a fresh one once a file changed', async () => {
    const first = await openMap();
    const expected = first.mapText(4000);
    await first.close();
    const maps = join(tp.cacheDir, (await readdir(tp.cacheDir)).find((n) => n.startsWith('maps-'))!);
    expect(await readFile(maps, 'utf8')).toContain(JSON.stringify(expected).slice(1, 60));
    expect((await openMap()).mapText(4000)).toBe(expected);
    // A broken map file is only a miss.
    await writeFile(maps, '{"version":1,"key":');
    expect((await openMap()).mapText(4000)).toBe(expected);
    await tp.write('src/base.ts', `${await readFile(join(tp.project, 'src/base.ts'), 'utf8')}\nexport function addedLater(): void {}\n`);
    const changed = await openMap();
    expect(changed.stats.reparsed).toBe(1);
    expect(changed.mapText(4000)).toContain('addedLater');
  });
});
