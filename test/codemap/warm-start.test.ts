/**
 * Warm starts: what a second session sees. The cache body is read only when something needs it,
 * yet a file changed, added or deleted between sessions is never answered from stale data, and a
 * damaged or old cache is rebuilt, never trusted.
 */
import { readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openCodeMap, type CodeMap } from '../../src/codemap/code-map.js';
import { cacheFile } from '../../src/codemap/index-cache.js';
import type { Config } from '../../src/config/types.js';
import { tempProject, toolContext, type TempProject } from './helpers.js';

let tp: TempProject;
let config: Config;
const open: CodeMap[] = [];

async function openMap(onWarning?: (m: string) => void): Promise<CodeMap> {
  const map = await openCodeMap({ projectRoot: tp.project, cacheDir: tp.cacheDir, config, worker: 'off', ...(onWarning ? { onWarning } : {}) });
  open.push(map);
  return map;
}

async function run(map: CodeMap, tool: string, args: unknown) {
  return map.tools().find((t) => t.name === tool)!.run(args, toolContext(config));
}

/** One full session: open, make the map, close (writes the index and the map). */
async function session(): Promise<string> {
  const map = await openMap();
  const text = map.mapText(4000);
  await map.close();
  open.splice(open.indexOf(map), 1);
  return text;
}

beforeEach(async () => {
  tp = await tempProject('ts-project');
  config = await tp.config();
});

afterEach(async () => {
  for (const m of open.splice(0)) await m.close();
  await tp.cleanup();
});

describe('between two sessions', () => {
  it('sees an edited, an added and a deleted file in the map and the symbol tools', async () => {
    await session();
    const base = await readFile(join(tp.project, 'src/base.ts'), 'utf8');
    await tp.write('src/base.ts', `${base}\nexport function rebased(): number {\n  return 41 + 1;\n}\n`);
    await tp.write('src/added.ts', "import { rebased } from './base.js';\n\nexport function usesRebased(): number {\n  return rebased();\n}\n");
    await rm(join(tp.project, 'src/other.ts'));
    const map = await openMap();
    expect(map.stats.reparsed).toBe(2);
    const text = map.mapText(4000);
    expect(text).toContain('rebased');
    expect(text).toContain('src/added.ts');
    expect(text).not.toContain('src/other.ts');
    const read = await run(map, 'read_symbol', { name: 'rebased' });
    expect(read.content).toContain('return 41 + 1;');
    expect(read.content).toContain('src/added.ts:4 usesRebased (calls)');
    expect((await run(map, 'read_symbol', { name: 'isOdd' })).ok).toBe(false);
    const refs = await run(map, 'find_references', { name: 'rebased' });
    expect(refs.content).toContain('src/added.ts:4 usesRebased [calls]: return rebased();');
  });

  it('reads a file edited in place with the same size and a new mtime again', async () => {
    await session();
    const path = join(tp.project, 'src/barrel/impl.ts');
    const before = await readFile(path, 'utf8');
    const after = before.replace(/return \d/, (m) => `return ${(Number(m.slice(-1)) + 1) % 10}`);
    expect(after.length).toBe(before.length);
    await writeFile(path, after);
    const map = await openMap();
    expect(map.stats.reparsed).toBe(1);
    expect((await run(map, 'read_symbol', { name: 'barrelFn' })).content).toContain(after.match(/return \d/)![0]);
  });
});

describe('the cache body', () => {
  it('is not read by a warm start or a tool call served from stored data; damage found later is rebuilt before answering', async () => {
    const expected = await session();
    await (async () => {
      // A tool call once, so the graph parts are stored too.
      const m = await openMap();
      await run(m, 'read_symbol', { name: 'main' });
      await m.close();
      open.splice(open.indexOf(m), 1);
    })();
    const file = cacheFile(tp.cacheDir, tp.project);
    const good = await readFile(file);
    const flipped = Buffer.from(good);
    flipped[flipped.length - 10] = flipped[flipped.length - 10]! ^ 1;
    await writeFile(file, flipped);
    const warnings: string[] = [];
    const map = await openMap((m) => warnings.push(m));
    expect(map.stats.reparsed).toBe(0);
    // The stored map matches every file's size and mtime: it is served without the body.
    expect(map.mapText(4000)).toBe(expected);
    expect(warnings).toEqual([]);
    expect((await run(map, 'find_references', { name: 'parseConfig' })).content).toContain('src/index.ts:9 main [calls]');
    expect(warnings).toEqual([]);
    // An edit needs other files' indexes to resolve against: now the damage shows, and is repaired.
    await tp.write('src/more.ts', "import { parseConfig } from './config.js';\n\nexport const parsed = parseConfig('x');\n");
    await map.fileChanged('src/more.ts');
    const r = await run(map, 'read_symbol', { name: 'parseConfig' });
    expect(warnings).toEqual([expect.stringContaining('code map cache is corrupt')]);
    expect(r.content).toContain('src/index.ts:9 main (calls)');
    expect(r.content).toContain('src/more.ts:3 parsed (calls)');
    await rm(join(tp.project, 'src/more.ts'));
    await map.fileChanged('src/more.ts');
    // The 11 files the damaged body held (the new one was indexed by fileChanged).
    expect(map.stats.reparsed).toBe(11);
    await map.close();
    expect((await readFile(file)).equals(good)).toBe(true);
  });

  it('asked for synchronously (a map for a new budget) leaves damaged files out and keeps no such map', async () => {
    await session();
    const file = cacheFile(tp.cacheDir, tp.project);
    const good = await readFile(file);
    const flipped = Buffer.from(good);
    flipped[flipped.length - 10] = flipped[flipped.length - 10]! ^ 1;
    await writeFile(file, flipped);
    for (const n of await readdir(tp.cacheDir)) if (n.startsWith('graph-')) await rm(join(tp.cacheDir, n));
    const warnings: string[] = [];
    const map = await openMap((m) => warnings.push(m));
    const partial = map.mapText(3000);
    expect(warnings).toEqual([expect.stringContaining('code map cache is corrupt')]);
    expect(partial).toContain('(no symbols found)');
    // The next tool call indexes the files again; the map for that budget is then whole.
    expect((await run(map, 'read_symbol', { name: 'main' })).ok).toBe(true);
    expect(map.mapText(3000)).toContain('src/index.ts');
  });

  it('rebuilds stored graph parts that are damaged or of another format, quietly (they are derived data)', async () => {
    await session();
    const warm = await openMap();
    const expected = (await run(warm, 'read_symbol', { name: 'parseConfig' })).content;
    await warm.close();
    open.splice(open.indexOf(warm), 1);
    const name = (await readdir(tp.cacheDir)).find((n) => n.startsWith('graph-'))!;
    const good = await readFile(join(tp.cacheDir, name));
    const flipped = Buffer.from(good);
    flipped[flipped.length - 20] = flipped[flipped.length - 20]! ^ 4;
    const otherFormat = Buffer.concat([Buffer.from('lindwyrm-codemap-graph 1 0\n'), good.subarray(good.indexOf(10) + 1)]);
    for (const bad of [flipped, otherFormat, good.subarray(0, 30)]) {
      await writeFile(join(tp.cacheDir, name), bad);
      const warnings: string[] = [];
      const map = await openMap((m) => warnings.push(m));
      expect((await run(map, 'read_symbol', { name: 'parseConfig' })).content).toBe(expected);
      expect(warnings).toEqual([]);
      await map.close();
      open.splice(open.indexOf(map), 1);
      expect((await readFile(join(tp.cacheDir, name))).equals(good)).toBe(true);
    }
  });

  it('discards a cache of the previous format with a warning', async () => {
    await session();
    await writeFile(cacheFile(tp.cacheDir, tp.project), 'lindwyrm-codemap-index 2\n{"root":"x","plugins":[],"files":[],"crc":0}\n');
    const warnings: string[] = [];
    const map = await openMap((m) => warnings.push(m));
    expect(warnings).toEqual([expect.stringContaining('older format')]);
    expect(map.stats.reparsed).toBe(map.stats.files);
    expect((await run(map, 'read_symbol', { name: 'main' })).ok).toBe(true);
  });
});
