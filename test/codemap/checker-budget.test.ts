/**
 * A symbol tool never blocks on a cold checker: past its budget it answers from the syntax index,
 * says the answer is partial, and the checker's answer comes to the same question asked again.
 * Answers the checker keeps for a question asked again follow every edit (by the agent or not).
 */
import { readFileSync } from 'node:fs';
import { appendFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openCodeMap, type CodeMap } from '../../src/codemap/code-map.js';
import { loadTypeScript } from '../../src/codemap/load-typescript.js';
import { createTsChecker } from '../../src/codemap/ts-checker.js';
import { walkProject } from '../../src/codemap/walk-project.js';
import type { Config } from '../../src/config/types.js';
import { tempProject, toolContext, type TempProject } from './helpers.js';

const worker = { url: new URL('./ts-worker-bootstrap.mjs', import.meta.url) };
let tp: TempProject;
let config: Config;
let map: CodeMap | undefined;

beforeEach(async () => {
  tp = await tempProject('ts-checked');
  config = await tp.config();
});

afterEach(async () => {
  await map?.close();
  map = undefined;
  await tp.cleanup();
});

const run = (tool: string, args: unknown) => map!.tools().find((t) => t.name === tool)!.run(args, toolContext(config));

describe('the checker budget', () => {
  it('answers from the syntax index, marked partial, while the checker is cold; the same question gets the checker\'s answer later', async () => {
    // 1 ms: no cold checker (compiler load, lib parse, program build) can answer within it.
    let budget = 1;
    map = await openCodeMap({ projectRoot: tp.project, cacheDir: tp.cacheDir, config, worker, checkerBudgetMs: () => budget });
    const first = await run('find_references', { name: 'Store.get' });
    expect(first.ok, first.content).toBe(true);
    expect(first.summary).toContain('(partial: syntax index)');
    expect(first.content.split('\n')[0]).toMatch(/^\(partial answer: the TypeScript checker did not answer within 0\.0 s/);
    // The syntax index's answer, not nothing: a direct call it resolves is listed.
    expect(first.content).toContain('src/service/store.ts:18 Cache.read [calls]');
    // Another question stops the first one in the checker (nobody waits for it), and is partial too.
    const deps = await run('get_dependencies', { name: 'Hono', depth: 2 });
    expect(deps.ok, deps.content).toBe(true);
    expect(deps.summary).toContain('(partial: syntax index)');
    expect(deps.content.split('\n')[0]).toContain('partial answer');
    // Asked again with time to wait, a question gets the checker's full answer: the one under way
    // in the worker, or asked anew when another request stopped it (a typed parameter's call the
    // syntax index cannot resolve).
    budget = 60_000;
    const again = await run('find_references', { name: 'Store.get' });
    expect(again.summary, again.content).not.toContain('partial');
    expect(again.content).toContain('src/service/user.ts:7 UserService.find [calls]');
    const depsAgain = await run('get_dependencies', { name: 'Hono', depth: 1 });
    expect(depsAgain.summary, depsAgain.content).not.toContain('partial');
    expect(depsAgain.content).toContain('method Router.add');
  }, 120_000);

  it('closes at once with a question the tool stopped waiting for still in the checker', async () => {
    map = await openCodeMap({ projectRoot: tp.project, cacheDir: tp.cacheDir, config, worker, checkerBudgetMs: 1 });
    const partial = await run('find_references', { name: 'Context.json' });
    expect(partial.summary).toContain('partial');
    const t0 = Date.now();
    await map.close();
    map = undefined;
    // The worker is stopped, not waited for (a cold build takes seconds on this fixture).
    expect(Date.now() - t0).toBeLessThan(1000);
  }, 60_000);
});

describe('answers kept for a question asked again', () => {
  it('follow an edit of a file in the program and a new use in a file outside it', async () => {
    const ts = loadTypeScript();
    const walked = await walkProject(tp.project, { extensions: new Set(['.ts', '.tsx', '.js']), maxFileBytes: 1 << 20 });
    const files = walked.files.map((f) => f.rel);
    const checker = createTsChecker(ts, tp.project);
    const target = { file: 'src/util/url.ts', name: 'getPath', line: 2, endLine: 5 };
    const ask = (): string[] => {
      const a = checker.answer({ op: 'references', root: tp.project, files, targets: [target] });
      if (!a.ok) throw new Error(a.error);
      return a.results[0]!.hits.map((h) => `${h.file}:${h.line}`).sort();
    };
    const before = ask();
    expect(before.length).toBeGreaterThan(0);
    expect(ask()).toEqual(before);
    // A file the program never held (it did not name getPath) starts using it, as bash or git would write it.
    expect(checker.programFiles()).not.toContain('src/shadow.ts');
    const shadow = join(tp.project, 'src/shadow.ts');
    await appendFile(shadow, "\nimport { getPath as gp } from './util/url.js';\nexport const viaBash = gp('x');\n");
    const lines = readFileSync(shadow, 'utf8').split('\n').length;
    // The import names getPath (the line before the last, which ends with a newline, is its use through the alias).
    expect(ask()).toContain(`src/shadow.ts:${lines - 2}`);
    // A file in the program loses its use: the kept answer is not served again.
    const user = before.find((r) => !r.startsWith('src/util/url.ts'))!.split(':')[0]!;
    await writeFile(join(tp.project, user), 'export const nothing = 1;\n');
    expect(ask().some((r) => r.startsWith(`${user}:`))).toBe(false);
  });
});
