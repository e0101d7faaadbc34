/**
 * The checker on a project laid out as real ones are: a solution tsconfig referencing two packages
 * with their own `paths` aliases and options, a package that is only declaration files, a test file
 * its tsconfig excludes, CommonJS scripts and global scripts no config covers. Measured against
 * one language service per tsconfig (as an editor opens them) plus an inferred one for the rest.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openCodeMap, type CodeMap } from '../../src/codemap/code-map.js';
import type { Config } from '../../src/config/types.js';
import { loadTypeScript } from '../../src/codemap/load-typescript.js';
import { createTsChecker } from '../../src/codemap/ts-checker.js';
import { compareWithLanguageService } from '../support/ts-compare.js';
import { tempProject, toolContext, type TempProject } from './helpers.js';

let tp: TempProject;
let map: CodeMap;
let config: Config;
const worker = { url: new URL('./ts-worker-bootstrap.mjs', import.meta.url) };
const refs = async (args: Record<string, unknown>): Promise<string> => {
  const r = await map.tools().find((t) => t.name === 'find_references')!.run(args, toolContext(config));
  expect(r.ok, r.content).toBe(true);
  return r.content;
};

beforeAll(async () => {
  tp = await tempProject('ts-monorepo');
  config = await tp.config();
  map = await openCodeMap({ projectRoot: tp.project, cacheDir: tp.cacheDir, config, worker });
});

afterAll(async () => {
  await map.close();
  await tp.cleanup();
});

describe('the checker on a monorepo with several tsconfigs', () => {
  it('finds what one language service per tsconfig finds (recall and precision ≥ 0.95)', async () => {
    const result = await compareWithLanguageService(tp.project, map, config, 1000);
    const score = (t: { tp: number; fp: number; fn: number }) => ({ recall: t.tp / (t.tp + t.fn), precision: t.tp / (t.tp + t.fp) });
    expect(result.report, 'one service per package config, and one for the files no config lists')
      .toMatch(/3 language services \(packages\/core\/tsconfig\.json, packages\/web\/tsconfig\.json, \(inferred\)\)/);
    expect(result.refs.tp + result.refs.fn).toBeGreaterThan(40);
    expect(score(result.refs).recall, result.misses.join('\n')).toBeGreaterThanOrEqual(0.95);
    expect(score(result.refs).precision, result.misses.join('\n')).toBeGreaterThanOrEqual(0.95);
    expect(score(result.deps).recall, result.misses.join('\n')).toBeGreaterThanOrEqual(0.95);
    expect(score(result.deps).precision, result.misses.join('\n')).toBeGreaterThanOrEqual(0.95);
  }, 180_000);

  it('follows each package\'s own path aliases and a default export renamed on the way', async () => {
    // `@core` is web's alias for core's index, which re-exports the default class as KeyStore;
    // core imports it as Backing through its own `@core/*` alias.
    const get = await refs({ name: 'Store.get' });
    expect(get).toContain('packages/web/src/view.tsx:8 View [calls]');
    expect(get).toContain('packages/core/src/cache.ts:9 Cache.read [calls]');
    // A test file the package's tsconfig excludes is still the project's code.
    expect(get).toContain('packages/core/src/store.test.ts:7 (top level) [calls]');
    expect(await refs({ name: 'format' })).toContain('packages/web/src/view.tsx:8 View [calls]');
  });

  it('answers for JavaScript no config covers: CommonJS modules and global scripts', async () => {
    // `module.exports = function build` is what `require('./build')` gives, under any name.
    const build = await refs({ name: 'build' });
    expect(build).toContain('scripts/run.js:1');
    expect(build).toContain('scripts/run.js:4 (top level) [calls]');
    expect(await refs({ name: 'helper', file: 'scripts/helper.js' })).toContain('scripts/helper.js:6 unused [calls]');
    expect(await refs({ name: 'legacyGlobal' })).toContain('legacy/use.js:1 (top level) [calls]');
  });

  it('answers for a package of declaration files only', async () => {
    expect(await refs({ name: 'Options.level' })).toContain('packages/web/src/options.ts:4 level [calls]');
    expect(await refs({ name: 'Options' })).toContain('packages/web/src/options.ts:1');
  });

  it('counts a use only where one tsconfig\'s program (or the inferred one) holds both it and the declaration', async () => {
    // A global declared for core's files is not what a file outside every config names by that name.
    const host = await refs({ name: 'Host' });
    expect(host).toContain('packages/core/src/settings.ts:2 setting [references]');
    expect(host).not.toContain('deploy/check.ts');
    expect(await refs({ name: 'Host.env' })).not.toContain('deploy/check.ts');
    const deps = await map.tools().find((t) => t.name === 'get_dependencies')!.run({ name: 'check', depth: 1 }, toolContext(config));
    expect(deps.content).not.toContain('host.d.ts');
    // A class is related to its interface's uses only in a program that holds both: web's never holds core's router.
    const add = await refs({ name: 'LinearRouter.add' });
    expect(add).toContain('packages/core/src/linear-router.ts:14 defaultRouter [calls]');
    expect(add).not.toContain('packages/web/src/routes.ts');
    const viaInterface = await refs({ name: 'Router.add' });
    expect(viaInterface).toContain('packages/web/src/routes.ts:5 mount [calls]');
    expect(viaInterface).toContain('packages/core/src/linear-router.ts:14 defaultRouter [calls]');
  });

  it('sees an alias added by an edit at the next question', async () => {
    await tp.write('packages/web/src/alias.ts', "import { KeyStore as Renamed } from '@core';\n\nexport const seen = new Renamed().get('seen');\n");
    await map.fileChanged(join(tp.project, 'packages/web/src/alias.ts'));
    expect(await refs({ name: 'Store.get' })).toContain('packages/web/src/alias.ts:3');
  });
});

describe('a monorepo whose root config maps the packages for the examples under it', () => {
  it('resolves an import the file\'s own config cannot as the root config\'s program does', async () => {
    const mono = await tempProject();
    try {
      await mono.write('tsconfig.json', JSON.stringify({ compilerOptions: { strict: true, module: 'esnext', moduleResolution: 'bundler', paths: { '@acme/lib': ['./packages/lib/src/index.ts'] } }, include: ['packages', 'examples'] }));
      // The example's own config has no paths: without the root's, `@acme/lib` resolves to nothing.
      await mono.write('examples/app/tsconfig.json', JSON.stringify({ compilerOptions: { strict: true, module: 'esnext', moduleResolution: 'node' }, include: ['src'] }));
      await mono.write('packages/lib/tsconfig.json', JSON.stringify({ extends: '../../tsconfig.json', include: ['src'] }));
      await mono.write('examples/app/src/main.ts', "import { hello } from '@acme/lib';\nexport function main(): string { return hello(); }\n");
      await mono.write('packages/lib/src/index.ts', "export function hello(): string { return 'hi'; }\n");
      const checker = createTsChecker(loadTypeScript(), mono.project);
      const a = checker.answer({ op: 'references', root: mono.project, files: ['examples/app/src/main.ts', 'packages/lib/src/index.ts'], targets: [{ file: 'packages/lib/src/index.ts', name: 'hello', line: 1, endLine: 1 }] });
      if (!a.ok) throw new Error(a.error);
      expect(a.results[0]!.hits.map((h) => `${h.file}:${h.line}`).sort()).toEqual(['examples/app/src/main.ts:1', 'examples/app/src/main.ts:2']);
    } finally {
      await mono.cleanup();
    }
  });
});
