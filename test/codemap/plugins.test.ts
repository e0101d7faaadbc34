import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openCodeMap, type CodeMap, type OpenCodeMapOptions } from '../../src/codemap/code-map.js';
import { printCodeMap } from '../../src/codemap/print-map.js';
import { tempProject, toolContext, type TempProject } from './helpers.js';

/** A plugin for `.note` files: each `def NAME` line is a function; `use NAME` a call. */
const NOTE_PLUGIN = `
import { isMainThread, threadId } from 'node:worker_threads';
export const plugin = {
  name: 'note', version: '1', extensions: ['.note'],
  indexFile(path, source) {
    if (source.includes('THROW')) throw new Error('cannot parse this note');
    // Only ever loops in a worker: run in the test's own thread it would hang the test run.
    if (source.includes('HANG') && !isMainThread) { for (;;) {} }
    if (source.includes('WAIT')) return new Promise(() => {});
    // Says which thread parsed it (0: the main thread).
    if (source.includes('THREAD')) return { symbols: [{ name: 'thread' + threadId, kind: 'variable', startLine: 1, endLine: 1, exported: true, signature: 'thread' }], edges: [], imports: [] };
    const symbols = [], edges = [];
    let current = '';
    source.split('\\n').forEach((line, i) => {
      const def = /^def (\\w+)/.exec(line);
      if (def) { current = def[1]; symbols.push({ name: current, kind: 'function', startLine: i + 1, endLine: i + 1, exported: true, signature: line }); }
      const use = /^use (\\w+)/.exec(line);
      if (use) edges.push({ from: current, to: use[1], kind: 'calls', line: i + 1 });
    });
    return { symbols, edges, imports: [] };
  },
};
`;

let tp: TempProject;
const open: CodeMap[] = [];

async function openMap(opts: Partial<OpenCodeMapOptions> & { trusted?: boolean } = {}): Promise<CodeMap> {
  const base = await tp.config(opts.trusted ? `trusted_projects = ["${tp.project}"]\n` : '');
  const map = await openCodeMap({ projectRoot: tp.project, cacheDir: tp.cacheDir, config: base, worker: 'off', ...opts });
  open.push(map);
  return map;
}

beforeEach(async () => {
  tp = await tempProject();
  await tp.write('.lindwyrm/plugins/note.js', NOTE_PLUGIN);
  await tp.write('a.note', 'def alpha\nuse beta\n');
  await tp.write('b.note', 'def beta\n');
});

afterEach(async () => {
  for (const m of open.splice(0)) await m.close();
  await tp.cleanup();
});

describe('language plugins', () => {
  it('does not load an untrusted project\'s own plugins, and says so', async () => {
    await tp.write('marker.js', 'globalThis.__noteLoaded = true;\n');
    const map = await openMap();
    expect(map.mapText(2000)).not.toContain('alpha');
    expect(map.warnings).toEqual([expect.stringContaining('project plugins not loaded because this project is not trusted')]);
  });

  it('loads a trusted project\'s plugins and resolves their edges', async () => {
    const map = await openMap({ trusted: true });
    expect(map.mapText(2000)).toContain('a.note\n  1: def alpha\nb.note\n  1: def beta');
    const refs = await map.tools()[1]!.run({ name: 'beta' }, toolContext(await tp.config()));
    expect(refs.content).toContain('a.note:2 alpha [calls]: use beta');
  });

  it('loads plugins named in the user config even for an untrusted project', async () => {
    await tp.write('../plugins/note.js', NOTE_PLUGIN);
    const config = await tp.config(`plugins = ["${join(tp.root, 'plugins', 'note.js')}"]\n`);
    const map = await openCodeMap({ projectRoot: tp.project, cacheDir: tp.cacheDir, config, worker: 'off' });
    open.push(map);
    expect(map.mapText(2000)).toContain('def alpha');
  });

  it('reports and skips a file its plugin throws on or never finishes, and indexes the rest', async () => {
    await tp.write('bad.note', 'def broken\nTHROW\n');
    await tp.write('slow.note', 'def slow\nWAIT\n');
    const map = await openMap({ trusted: true, pluginTimeoutMs: 200 });
    expect(map.warnings).toEqual(expect.arrayContaining([
      expect.stringContaining('plugin note failed on bad.note: cannot parse this note'),
      expect.stringContaining('plugin note failed on slow.note: plugin note timed out after 200 ms'),
    ]));
    expect(map.mapText(2000)).toContain('def alpha');
  });

  it('kills a worker stuck in a plugin loop, skips that file and finishes the others', async () => {
    for (let i = 0; i < 20; i++) await tp.write(`n${String(i).padStart(2, '0')}.note`, `def fn${i}\n`);
    await tp.write('n05x.note', 'def stuck\nHANG\n');
    const worker = { url: new URL('./ts-worker-bootstrap.mjs', import.meta.url) };
    const map = await openMap({ trusted: true, pluginTimeoutMs: 300, worker });
    expect(map.warnings).toEqual([expect.stringContaining('plugin for n05x.note did not finish within 300 ms; file skipped')]);
    const text = map.mapText(4000);
    expect(text).toContain('def fn19');
    expect(text).toContain('def fn0');
    expect(text).not.toContain('def stuck');
  });

  it('spreads the files over a pool of workers; one stuck on a file is replaced and the others go on', { timeout: 120_000 }, async () => {
    for (let i = 0; i < 60; i++) await tp.write(`t${String(i).padStart(2, '0')}.note`, 'THREAD\n');
    await tp.write('t30x.note', 'def stuck\nHANG\n');
    const worker = { url: new URL('./ts-worker-bootstrap.mjs', import.meta.url), workers: 3 };
    const map = await openMap({ trusted: true, pluginTimeoutMs: 300, worker });
    expect(map.warnings).toEqual([expect.stringContaining('plugin for t30x.note did not finish within 300 ms; file skipped')]);
    const threads = new Map<string, number>();
    for (const s of map.symbols()) if (s.name.startsWith('thread')) threads.set(s.name, (threads.get(s.name) ?? 0) + 1);
    expect([...threads.values()].reduce((a, b) => a + b, 0)).toBe(60);
    expect(threads.has('thread0')).toBe(false);
    expect(threads.size).toBeGreaterThanOrEqual(2);
    expect(map.symbols().map((s) => s.name)).toEqual(expect.arrayContaining(['alpha', 'beta']));
  });
});

describe('the example plugin', () => {
  it('maps INI sections and keys, with interpolations as references', async () => {
    const example = new URL('../../examples/plugins/lindwyrm-plugin-ini.js', import.meta.url).pathname;
    await tp.write('app.ini', '[db]\nhost = localhost\nurl = postgres://${db.host}/app\n\n[cache]\nttl = 60\n');
    const config = await tp.config(`plugins = ["${example}"]\n`);
    const map = await openCodeMap({ projectRoot: tp.project, cacheDir: tp.cacheDir, config, worker: 'off' });
    open.push(map);
    expect(map.mapText(2000)).toContain('app.ini\n  1: [db]\n    2: host = localhost\n    3: url = postgres://${db.host}/app\n  5: [cache]');
    const refs = await map.tools()[1]!.run({ name: 'db.host' }, toolContext(config));
    expect(refs.content).toContain('app.ini:3 db.url [references]');
  });
});

describe('printCodeMap', () => {
  it('says the feature is off when code_map = false', async () => {
    const config = await tp.config('code_map = false\n');
    expect(await printCodeMap(config)).toMatch(/code map is turned off/);
  });
});
