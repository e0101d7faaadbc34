/**
 * The index worker (edits, the checker) loads the compiler through the parse pool's V8 code cache,
 * and writes one only after parsing, never after checker work (which would make every parse
 * worker load the checker's functions too). Real worker threads, real files.
 */
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { createEditIndexer } from '../../src/codemap/edit-worker.js';
import { createPluginSet } from '../../src/codemap/plugin-set.js';
import { builtinPlugins } from '../../src/codemap/builtin-plugins.js';
import { tempProject, type TempProject } from './helpers.js';

const worker = { url: new URL('./ts-worker-bootstrap.mjs', import.meta.url) };
const plugins = createPluginSet([...builtinPlugins()]);
let tp: TempProject;

beforeEach(async () => {
  tp = await tempProject();
  await tp.write('lib.ts', 'export function one(): number {\n  return 1;\n}\n');
  await tp.write('app.ts', "import { one } from './lib.js';\n\nexport const value = one();\n");
});
afterEach(async () => {
  await tp.cleanup();
});

const caches = async (dir: string): Promise<string[]> => (await readdir(dir).catch(() => [])).filter((n) => n.endsWith('.v8cache'));

/** The worker writes the cache just after answering the edit: give it a moment. */
async function settledCaches(dir: string): Promise<string[]> {
  for (let i = 0; i < 50; i++) {
    const found = await caches(dir);
    if (found.length > 0) return found;
    await new Promise((r) => setTimeout(r, 100));
  }
  return caches(dir);
}

it('writes the compiler\'s code cache after an edit is parsed', { timeout: 120_000 }, async () => {
  const dir = join(tp.root, 'v8-code-cache');
  const editor = createEditIndexer(worker, plugins, 10_000, dir);
  try {
    const outcome = await editor.index({ rel: 'lib.ts', abs: join(tp.project, 'lib.ts') });
    expect(outcome.ok).toBe(true);
    expect(await settledCaches(dir)).toHaveLength(1);
  } finally {
    await editor.close();
  }
});

it('writes none after a checker question, even once an edit follows', { timeout: 120_000 }, async () => {
  const dir = join(tp.root, 'v8-code-cache');
  const editor = createEditIndexer(worker, plugins, 10_000, dir);
  try {
    const answer = await editor.query({
      op: 'references', root: tp.project, files: ['lib.ts', 'app.ts'],
      targets: [{ file: 'lib.ts', line: 1, endLine: 3, name: 'one' }],
    });
    expect(answer.ok && [...new Set(answer.results[0]!.hits.map((h) => h.file))]).toEqual(['app.ts']);
    await editor.index({ rel: 'app.ts', abs: join(tp.project, 'app.ts') });
    expect(await settledCaches(dir)).toEqual([]);
  } finally {
    await editor.close();
  }
});
