import { readdirSync } from 'node:fs';
import { copyFile, mkdir, readFile, readdir, stat, utimes, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openCodeMap, type CodeMap } from '../../src/codemap/code-map.js';
import { cacheFile } from '../../src/codemap/index-cache.js';
import { poolSize, type WorkerChoice } from '../../src/codemap/worker-runner.js';
import type { Config } from '../../src/config/types.js';
import { tempProject, toolContext, type TempProject } from './helpers.js';

const SRC = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'src');
const bootstrap = new URL('./ts-worker-bootstrap.mjs', import.meta.url);

let tp: TempProject;
let config: Config;
const open: CodeMap[] = [];

async function openMap(worker: WorkerChoice, cacheDir = tp.cacheDir, codeCacheDir?: string): Promise<CodeMap> {
  const map = await openCodeMap({ projectRoot: tp.project, cacheDir, config, worker, ...(codeCacheDir ? { codeCacheDir } : {}) });
  open.push(map);
  return map;
}

async function closeAll(): Promise<void> {
  for (const m of open.splice(0)) await m.close();
}

/** Every file the cache folder holds (index, graph parts, maps), by name. */
async function cacheFiles(dir: string): Promise<Map<string, Buffer>> {
  const out = new Map<string, Buffer>();
  for (const name of (await readdir(dir)).sort()) out.set(name, await readFile(join(dir, name)));
  return out;
}

beforeEach(async () => {
  tp = await tempProject();
  // Real code, and plenty of it: this project's own engine sources (TS), plus some JavaScript.
  for (const dir of ['codemap', 'agent', 'tools']) {
    for (const name of readdirSync(join(SRC, dir))) {
      if (!name.endsWith('.ts')) continue;
      await mkdir(join(tp.project, 'src', dir), { recursive: true });
      await copyFile(join(SRC, dir, name), join(tp.project, 'src', dir, name));
    }
  }
  await tp.write('lib/legacy.js', 'function Legacy() {}\nLegacy.prototype.run = function () { return helper(); };\nmodule.exports = { Legacy };\n');
  config = await tp.config();
});

afterEach(async () => {
  await closeAll();
  await tp.cleanup();
});

describe('the parse pool', () => {
  // Workers run the sources through tsx here: each start compiles them, seconds on a busy machine.
  it('writes the same cache and map, byte for byte, as indexing in one thread', { timeout: 120_000 }, async () => {
    const alone = join(tp.root, 'cache-alone');
    const pooled = join(tp.root, 'cache-pooled');
    const one = await openMap('off', alone);
    expect(one.stats.files).toBeGreaterThan(100);
    const expected = one.mapText(8000);
    await closeAll();
    const many = await openMap({ url: bootstrap, workers: 3 }, pooled);
    expect(many.warnings).toEqual([]);
    expect(many.stats).toMatchObject({ files: one.stats.files, reparsed: one.stats.files, failed: 0 });
    expect(many.mapText(8000)).toBe(expected);
    await closeAll();
    const a = await cacheFiles(alone);
    const b = await cacheFiles(pooled);
    expect([...b.keys()]).toEqual([...a.keys()]);
    for (const [name, bytes] of a) expect(b.get(name)!.equals(bytes), name).toBe(true);
  });

  it('loads the compiler through V8\'s code cache: written by the first pool, taken unchanged by the next, same bytes out', { timeout: 120_000 }, async () => {
    const codeCache = join(tp.root, 'v8-code-cache');
    const alone = join(tp.root, 'cache-alone');
    await openMap('off', alone);
    await closeAll();
    await openMap({ url: bootstrap, workers: 2 }, join(tp.root, 'cache-first'), codeCache);
    await closeAll();
    const written = await readdir(codeCache);
    expect(written).toHaveLength(1);
    expect(written[0]).toMatch(/^typescript-[0-9a-f]{24}\.v8cache$/);
    const before = await stat(join(codeCache, written[0]!));
    expect(before.size).toBeGreaterThan(100_000);
    const again = await openMap({ url: bootstrap, workers: 2 }, join(tp.root, 'cache-again'), codeCache);
    expect(again.warnings).toEqual([]);
    await closeAll();
    // V8 took it (a rejected cache is written again): the same file, untouched.
    expect(await readdir(codeCache)).toEqual(written);
    const after = await stat(join(codeCache, written[0]!));
    expect([after.ino, after.mtimeMs]).toEqual([before.ino, before.mtimeMs]);
    for (const dir of ['cache-first', 'cache-again']) {
      const got = await cacheFiles(join(tp.root, dir));
      for (const [name, bytes] of await cacheFiles(alone)) expect(got.get(name)?.equals(bytes), `${dir}/${name}`).toBe(true);
    }
  });

  it('reads touched files, parses none whose bytes are the same, and parses the one that changed', { timeout: 120_000 }, async () => {
    const first = await openMap({ url: bootstrap, workers: 2 });
    const files = first.stats.files;
    const expected = first.mapText(8000);
    await closeAll();
    // A checkout or a build tool touches everything; one file really changes.
    const later = new Date(Date.now() + 10_000);
    const all = (await readdir(tp.project, { recursive: true })).filter((p) => /\.(ts|js)$/.test(p));
    for (const rel of all) await utimes(join(tp.project, rel), later, later);
    await tp.write('lib/legacy.js', 'function Legacy() {}\nLegacy.prototype.walk = function () { return helper(); };\nmodule.exports = { Legacy };\n');
    const second = await openMap({ url: bootstrap, workers: 2 });
    expect(second.stats).toEqual({ files, reparsed: 1, unchanged: files - 1, failed: 0 });
    expect(second.warnings).toEqual([]);
    const read = second.tools().find((t) => t.name === 'read_symbol')!;
    expect((await read.run({ name: 'Legacy.walk' }, toolContext(config))).ok).toBe(true);
    expect((await read.run({ name: 'Legacy.run' }, toolContext(config))).ok).toBe(false);
    // The stored indexes kept for the touched files make the map a fresh index makes.
    const fresh = await openMap('off', join(tp.root, 'cache-fresh'));
    expect(second.mapText(8000)).toBe(fresh.mapText(8000));
    expect(second.mapText(8000)).not.toBe(expected);
    await closeAll();
    // The new stamps are stored: the next start reads nothing.
    const third = await openMap({ url: bootstrap, workers: 2 });
    expect(third.stats).toMatchObject({ reparsed: 0, unchanged: 0 });
  });

  it('keeps using a cache of the previous format (no content hashes): nothing is parsed again', async () => {
    const first = await openMap('off');
    const files = first.stats.files;
    await closeAll();
    const path = cacheFile(tp.cacheDir, tp.project);
    const bytes = await readFile(path);
    const firstLine = bytes.indexOf(10);
    const headerLength = Number(/ (\d+)$/.exec(bytes.subarray(0, firstLine).toString())![1]);
    const header = JSON.parse(bytes.subarray(firstLine + 1, firstLine + 1 + headerLength).toString()) as { files: unknown[][] };
    header.files = header.files.map((row) => row.slice(0, 5));
    const text = `${JSON.stringify(header)}\n`;
    await writeFile(path, Buffer.concat([Buffer.from(`lindwyrm-codemap-index 3 ${Buffer.byteLength(text) - 1}\n${text}`), bytes.subarray(firstLine + 1 + headerLength + 1)]));
    const warnings: string[] = [];
    const again = await openCodeMap({ projectRoot: tp.project, cacheDir: tp.cacheDir, config, worker: 'off', onWarning: (w) => warnings.push(w) });
    open.push(again);
    expect(warnings).toEqual([]);
    expect(again.stats).toMatchObject({ files, reparsed: 0 });
    expect((await again.tools()[0]!.run({ name: 'openCodeMap' }, toolContext(config))).ok).toBe(true);
  });

  it('uses a worker per core, fewer for a small batch, and leaves the main thread a core only where priority is per process', () => {
    expect(poolSize(5000, false, 2)).toBe(2);
    expect(poolSize(5000, false, 16)).toBeLessThanOrEqual(4);
    expect(poolSize(150, false, 8)).toBe(1);
    expect(poolSize(5000, false, 1)).toBe(1);
    expect(poolSize(5000, true, 1)).toBe(1);
    expect(poolSize(5000, true, 2)).toBe(process.platform === 'linux' ? 2 : 1);
  });
});

describe.runIf(process.platform === 'linux')('a background parse worker', () => {
  it('lowers its own thread\'s priority and not the main thread\'s', async () => {
    const niceOf = (stat: string): number => Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
    const before = niceOf(await readFile('/proc/thread-self/stat', 'utf8'));
    const probe = `
      const { parentPort } = require('node:worker_threads');
      const { readFileSync } = require('node:fs');
      const { register } = require('tsx/cjs/api');
      register();
      const { lowerThreadPriority } = require(${JSON.stringify(join(SRC, 'codemap', 'thread-priority.ts'))});
      const ok = lowerThreadPriority(10);
      parentPort.postMessage({ ok, stat: readFileSync('/proc/thread-self/stat', 'utf8') });
    `;
    const answer = await new Promise<{ ok: boolean; stat: string }>((resolve, reject) => {
      const w = new Worker(probe, { eval: true });
      w.once('message', (m: { ok: boolean; stat: string }) => { void w.terminate(); resolve(m); });
      w.once('error', reject);
    });
    expect(answer.ok).toBe(true);
    expect(niceOf(answer.stat)).toBe(Math.max(10, before));
    expect(niceOf(await readFile('/proc/thread-self/stat', 'utf8'))).toBe(before);
  });
});
