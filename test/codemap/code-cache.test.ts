import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

const MODULE = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'src', 'codemap', 'code-cache.ts');

let dir: string;
let cacheDir: string;
let file: string;

/** A real CommonJS module of some size, using what Node's wrapper provides. */
const moduleSource = (version: number): string => [
  "'use strict';",
  "const { basename } = require('node:path');",
  ...Array.from({ length: 200 }, (_, i) => `function f${i}(x) { return x * ${i} + ${version}; }`),
  `module.exports = { name: basename(__filename), dir: __dirname, version: ${version}, sum: (x) => f7(x) + f199(x) };`,
].join('\n');

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'lwyrm-code-cache-'));
  cacheDir = join(dir, 'cache');
  file = join(dir, 'big.js');
  await writeFile(file, moduleSource(1));
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

interface Loaded { name: string; dir: string; version: number; sum: number; fromCache: boolean; saveThrew: boolean }

/**
 * Loads the module in a new process, as a parse worker does (one V8 isolate per load: within one,
 * V8's own in-memory cache would answer before the file's), then saves the cache unless told not to.
 */
async function load(save = true): Promise<Loaded> {
  const script = `import { requireWithCodeCache } from ${JSON.stringify(MODULE)};
    const m = requireWithCodeCache(${JSON.stringify(file)}, ${JSON.stringify(cacheDir)});
    let saveThrew = false;
    if (${save}) try { m.save(); } catch { saveThrew = true; }
    const e = m.exports;
    console.log(JSON.stringify({ name: e.name, dir: e.dir, version: e.version, sum: e.sum(2), fromCache: m.fromCache, saveThrew }));`;
  const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script]);
  return JSON.parse(stdout) as Loaded;
}

describe('V8 code cache for a large CommonJS file', () => {
  it('loads the module as require would, writes the cache once used, and the next process takes it', { timeout: 30_000 }, async () => {
    const first = await load();
    expect(first).toMatchObject({ name: 'big.js', dir, version: 1, sum: 7 * 2 + 1 + 199 * 2 + 1, fromCache: false });
    const written = await readdir(cacheDir);
    expect(written).toHaveLength(1);
    expect(written[0]).toMatch(/^big-[0-9a-f]{24}\.v8cache$/);
    const before = await readFile(join(cacheDir, written[0]!));
    const second = await load();
    expect(second).toMatchObject({ version: 1, sum: first.sum, fromCache: true });
    // Taken as it was: nothing written again.
    expect(await readFile(join(cacheDir, written[0]!))).toEqual(before);
  });

  it('survives a damaged cache: the module loads from source and the cache is written again', { timeout: 30_000 }, async () => {
    await load();
    const [name] = await readdir(cacheDir);
    await writeFile(join(cacheDir, name!), Buffer.from('not a code cache at all, just bytes'.repeat(20)));
    expect(await load()).toMatchObject({ version: 1, fromCache: false });
    expect(await load()).toMatchObject({ version: 1, fromCache: true });
  });

  it('never takes the cache of another source, and drops the old one when the new one is written', { timeout: 30_000 }, async () => {
    await load();
    const [old] = await readdir(cacheDir);
    await writeFile(file, moduleSource(2));
    expect(await load()).toMatchObject({ version: 2, fromCache: false });
    const now = await readdir(cacheDir);
    expect(now).toHaveLength(1);
    expect(now[0]).not.toBe(old);
    expect(await load()).toMatchObject({ version: 2, fromCache: true });
  });

  it('loads without a cache where none can be written, and leaves no temp file', { timeout: 30_000 }, async () => {
    await writeFile(cacheDir, 'a file where the folder should be');
    expect(await load()).toMatchObject({ version: 1, fromCache: false, saveThrew: false });
    expect((await readdir(dir)).sort()).toEqual(['big.js', 'cache']);
  });
});
