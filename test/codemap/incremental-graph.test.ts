/**
 * The graph kept up to date file by file (edits in a session, changes between sessions through the
 * stored parts) must be exactly the graph a full build makes from the same files.
 */
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildGraph } from '../../src/codemap/build-graph.js';
import { assembleGraph, updateFileGraphs } from '../../src/codemap/file-graph.js';
import { builtinPlugins } from '../../src/codemap/builtin-plugins.js';
import type { CodeGraph } from '../../src/codemap/graph-types.js';
import { createPluginSet } from '../../src/codemap/plugin-set.js';
import { readProjectFacts } from '../../src/codemap/project-facts.js';
import { openProjectIndex, type ProjectIndex } from '../../src/codemap/project-index.js';
import { indexInThread } from '../../src/codemap/run-indexing.js';
import { tempProject, type TempProject } from './helpers.js';

let tp: TempProject;
const warnings: string[] = [];

beforeEach(async () => {
  tp = await tempProject('ts-project');
  warnings.length = 0;
});
afterEach(() => tp.cleanup());

function openIndex(): Promise<ProjectIndex> {
  return openProjectIndex({
    root: tp.project, cacheDir: tp.cacheDir, plugins: createPluginSet(builtinPlugins()), maxFileBytes: 512 * 1024,
    timeoutMs: 10_000, warn: (m) => warnings.push(m), runJobs: indexInThread,
  });
}

async function fullBuild(index: ProjectIndex): Promise<CodeGraph> {
  return buildGraph(index.files(), await readProjectFacts(tp.project, ['go.mod']));
}

/** Edges as readable strings, to say what a step changed as well as that both graphs agree. */
function edgeList(g: CodeGraph): string[] {
  return g.edges.map((e) => `${e.file}:${e.line} ${e.from >= 0 ? g.symbols[e.from]!.qualified : '-'} ${e.kind} ${g.symbols[e.to]!.file}#${g.symbols[e.to]!.qualified}`);
}

async function change(index: ProjectIndex, rel: string, text: string | undefined): Promise<CodeGraph> {
  if (text === undefined) await rm(join(tp.project, rel));
  else await tp.write(rel, text);
  await index.refresh(rel);
  const graph = index.graph();
  expect(graph).toEqual(await fullBuild(index));
  return graph;
}

describe('the graph updated per file', () => {
  it('equals a full build after edits, additions and deletions that reach other files', async () => {
    const index = await openIndex();
    expect(index.graph()).toEqual(await fullBuild(index));
    // Lines shift and a symbol is added in front: main's edges into config.ts must follow.
    let g = await change(index, 'src/config.ts', '// moved\nexport function first(): void {}\n\nexport interface Config {\n  readonly verbose: boolean;\n  readonly name: string;\n}\n\n'
      + 'export function parseConfig(text: string): Config {\n  return { verbose: text.includes(\'-v\'), name: text };\n}\n');
    expect(edgeList(g)).toContain('src/index.ts:9 main calls src/config.ts#parseConfig');
    // A body rewritten and a member added in front in a file others extend: their edges follow the moved indexes.
    g = await change(index, 'src/base.ts', 'export abstract class BaseApp {\n  start(): number {\n    return 1;\n  }\n\n  abstract run(): void;\n}\n\n'
      + 'export interface Runnable {\n  run(): void;\n}\n');
    expect(edgeList(g)).toContain('src/index.ts:14 App extends src/base.ts#BaseApp');
    g = await change(index, 'src/index.ts', (await readFile(join(tp.project, 'src/index.ts'), 'utf8')).replace('this.helper(new Date());', 'this.helper(new Date());\n    this.start();'));
    expect(edgeList(g)).toContain('src/index.ts:19 App.run calls src/base.ts#BaseApp.start');
    // The member a caller uses goes away, then comes back under another type: the caller is resolved again.
    g = await change(index, 'src/base.ts', 'export abstract class BaseApp {\n  abstract run(): void;\n}\n\nexport interface Runnable {\n  run(): void;\n}\n');
    expect(edgeList(g).filter((e) => e.includes('start'))).toEqual([]);
    g = await change(index, 'src/base.ts', 'export abstract class BaseApp {\n  abstract run(): void;\n\n  start(): string {\n    return \'\';\n  }\n}\n\nexport interface Runnable {\n  run(): void;\n}\n');
    expect(edgeList(g)).toContain('src/index.ts:19 App.run calls src/base.ts#BaseApp.start');
    // A script calling a global that no file declares yet; then one that declares it; then a second one.
    g = await change(index, 'src/caller.js', 'function callsIt() {\n  return helperScript();\n}\n');
    expect(edgeList(g).filter((e) => e.includes('helperScript'))).toEqual([]);
    g = await change(index, 'src/helper-one.js', 'function helperScript() {\n  return 1;\n}\n');
    expect(edgeList(g)).toContain('src/caller.js:2 callsIt calls src/helper-one.js#helperScript');
    g = await change(index, 'src/helper-two.js', 'function helperScript() {\n  return 2;\n}\n');
    expect(edgeList(g).filter((e) => e.includes('helperScript'))).toEqual([]);
    // Through a barrel: the file behind `export *` goes away and comes back.
    g = await change(index, 'src/barrel/impl.ts', undefined);
    expect(edgeList(g).filter((e) => e.includes('barrelFn'))).toEqual([]);
    g = await change(index, 'src/barrel/impl.ts', 'export function barrelFn(): number {\n  return 43;\n}\n');
    expect(edgeList(g)).toContain('src/index.ts:10 main calls src/barrel/impl.ts#barrelFn');
    // A tsconfig path target deleted, then renamed in the importer's favour.
    g = await change(index, 'src/lib/format.ts', undefined);
    expect(edgeList(g).filter((e) => e.includes('#format'))).toEqual([]);
    g = await change(index, 'src/lib/format.ts', 'export function format(x: unknown): string {\n  return String(x);\n}\n');
    expect(edgeList(g)).toContain('src/index.ts:11 main calls src/lib/format.ts#format');
    // The importer itself changes what it imports.
    g = await change(index, 'src/index.ts', "import { helper } from './a/util.js';\n\nexport function main(): string {\n  return helper();\n}\n");
    expect(edgeList(g)).toContain('src/index.ts:4 main calls src/a/util.ts#helper');
  });

  it('keeps the parts of files an edit reaches only through names it kept, with their edges moved', async () => {
    const index = await openIndex();
    const facts = await readProjectFacts(tp.project, ['go.mod']);
    const parts = updateFileGraphs(new Map(), index.files(), new Set(), facts);
    const before = new Map([['src/config.ts', index.files().get('src/config.ts')!.index]]);
    const original = await readFile(join(tp.project, 'src/config.ts'), 'utf8');
    await tp.write('src/config.ts', `export function first(): void {}\n\n${original}`);
    await index.refresh('src/config.ts');
    const next = updateFileGraphs(parts, index.files(), new Set(['src/config.ts']), facts, before);
    // index.ts imports config.ts but never writes `first`: not resolved again (its lookups are the same arrays).
    expect(next.get('src/index.ts')!.deps).toBe(parts.get('src/index.ts')!.deps);
    expect(next.get('src/index.ts')!.edges).not.toEqual(parts.get('src/index.ts')!.edges);
    const graph = assembleGraph(next);
    expect(graph).toEqual(await fullBuild(index));
    // The symbol added moved the ids of every file after config.ts: the kept parts now hold the
    // symbols made for the new ids, and the next update (the file touched again) reuses them as they are.
    const moved = graph.symbols.filter((s) => s.file > 'src/config.ts');
    expect(moved.length).toBeGreaterThan(0);
    const again = assembleGraph(updateFileGraphs(next, index.files(), new Set(['src/config.ts']), facts,
      new Map([['src/config.ts', index.files().get('src/config.ts')!.index]])));
    expect(again).toEqual(graph);
    for (const s of moved) expect(again.symbols[s.id]).toBe(s);
    // Without the index it had, the same edit resolves every importer again.
    const blind = updateFileGraphs(parts, index.files(), new Set(['src/config.ts']), facts);
    expect(blind.get('src/index.ts')!.deps).not.toBe(parts.get('src/index.ts')!.deps);
    expect(assembleGraph(blind)).toEqual(assembleGraph(next));
  });

  it('equals a full build in the next session, from the stored parts and the files changed since', async () => {
    const first = await openIndex();
    first.graph();
    await first.flush();
    first.release();
    // Nothing changed: the stored graph as it is.
    const same = await openIndex();
    expect(same.graph()).toEqual(await fullBuild(same));
    same.release();
    await tp.write('src/base.ts', 'export abstract class BaseApp {\n  abstract run(): void;\n  abstract stop(): void;\n}\n');
    await rm(join(tp.project, 'src/other.ts'));
    await tp.write('src/more.ts', "import { parseConfig } from './config.js';\n\nexport const parsed = parseConfig('x');\n");
    const second = await openIndex();
    expect(second.stats.reparsed).toBe(2);
    const g = second.graph();
    expect(g).toEqual(await fullBuild(second));
    expect(edgeList(g)).toContain('src/more.ts:3 parsed calls src/config.ts#parseConfig');
    expect(g.symbols.some((s) => s.qualified === 'BaseApp.stop')).toBe(true);
    expect(g.symbols.some((s) => s.file === 'src/other.ts')).toBe(false);
    expect(warnings).toEqual([]);
    second.release();
  });
});
