/**
 * Edits re-indexed in a worker that stays up: the symbol tools see the edited code, a plugin stuck
 * on an edited file is cut off (the file skipped with a warning) and the next edit still works.
 */
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openCodeMap, type CodeMap } from '../../src/codemap/code-map.js';
import { tempProject, toolContext, type TempProject } from './helpers.js';

/** `.note` files: `def NAME` lines are functions; HANG loops forever, but only in a worker. */
const NOTE_PLUGIN = `
import { isMainThread } from 'node:worker_threads';
export const plugin = {
  name: 'note', version: '1', extensions: ['.note'],
  indexFile(path, source) {
    if (source.includes('HANG') && !isMainThread) { for (;;) {} }
    const symbols = [];
    source.split('\\n').forEach((line, i) => {
      const def = /^def (\\w+)/.exec(line);
      if (def) symbols.push({ name: def[1], kind: 'function', startLine: i + 1, endLine: i + 1, exported: true, signature: line });
    });
    return { symbols, edges: [], imports: [] };
  },
};
`;

let tp: TempProject;
let map: CodeMap | undefined;

beforeEach(async () => {
  tp = await tempProject();
  await tp.write('.lindwyrm/plugins/note.js', NOTE_PLUGIN);
  await tp.write('a.note', 'def alpha\n');
  await tp.write('lib.ts', 'export function one(): number {\n  return 1;\n}\n');
  await tp.write('app.ts', "import { one } from './lib.js';\n\nexport const value = one();\n");
});

afterEach(async () => {
  await map?.close();
  map = undefined;
  await tp.cleanup();
});

const worker = { url: new URL('./ts-worker-bootstrap.mjs', import.meta.url) };

describe('edits re-indexed in a serving worker', () => {
  it('answers about the edited code, added and deleted files', async () => {
    const config = await tp.config(`trusted_projects = ["${tp.project}"]\n`);
    const warnings: string[] = [];
    map = await openCodeMap({ projectRoot: tp.project, cacheDir: tp.cacheDir, config, worker, onWarning: (m) => warnings.push(m) });
    const run = (tool: string, args: unknown) => map!.tools().find((t) => t.name === tool)!.run(args, toolContext(config));
    await tp.write('lib.ts', 'export function one(): number {\n  return 1;\n}\n\nexport function two(): number {\n  return one() + 1;\n}\n');
    await map.fileChanged(join(tp.project, 'lib.ts'));
    expect((await run('read_symbol', { name: 'two' })).content).toContain('6    return one() + 1;');
    expect((await run('find_references', { name: 'one' })).content).toContain('lib.ts:6 two [calls]');
    await tp.write('b.note', 'def beta\n');
    await map.fileChanged('b.note');
    expect((await run('read_symbol', { name: 'beta' })).ok).toBe(true);
    await rm(join(tp.project, 'app.ts'));
    await map.fileChanged('app.ts');
    expect((await run('read_symbol', { name: 'value' })).ok).toBe(false);
    expect(warnings).toEqual([]);
    // find_references of a TS symbol builds the checker cold (compiler, libs): on a busy machine that alone can take 20 s.
  }, 60_000);

  it('skips a file its plugin hangs on, with a warning, and carries on with the next edit', async () => {
    await rm(join(tp.project, 'lib.ts'));
    await rm(join(tp.project, 'app.ts'));
    const config = await tp.config(`trusted_projects = ["${tp.project}"]\n`);
    const warnings: string[] = [];
    map = await openCodeMap({ projectRoot: tp.project, cacheDir: tp.cacheDir, config, worker, pluginTimeoutMs: 300, onWarning: (m) => warnings.push(m) });
    await tp.write('a.note', 'def alpha\nHANG\n');
    await map.fileChanged('a.note');
    expect(warnings).toEqual([expect.stringContaining('plugin for a.note did not finish within 300 ms; file skipped')]);
    await tp.write('b.note', 'def beta\n');
    await map.fileChanged('b.note');
    const beta = await map.tools()[0]!.run({ name: 'beta' }, toolContext(config));
    expect(beta.content).toContain('1  def beta');
    expect(warnings).toHaveLength(1);
  });

  it('also indexes the few files changed since the last session, off this thread', async () => {
    await rm(join(tp.project, 'lib.ts'));
    await rm(join(tp.project, 'app.ts'));
    const config = await tp.config(`trusted_projects = ["${tp.project}"]\n`);
    const first = await openCodeMap({ projectRoot: tp.project, cacheDir: tp.cacheDir, config, worker: 'off' });
    await first.close();
    await tp.write('a.note', 'def alpha\nHANG\n');
    await tp.write('c.note', 'def gamma\n');
    const warnings: string[] = [];
    map = await openCodeMap({ projectRoot: tp.project, cacheDir: tp.cacheDir, config, worker, pluginTimeoutMs: 300, onWarning: (m) => warnings.push(m) });
    expect(map.stats.reparsed).toBe(2);
    expect(warnings).toEqual([expect.stringContaining('plugin for a.note did not finish within 300 ms; file skipped')]);
    expect(map.mapText(1000)).toContain('def gamma');
  });
});
