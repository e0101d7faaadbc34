/**
 * References after an edit: the checker searches again only the files the edit can have changed
 * (the edited file; its importers when its outward shape changed; files writing a name it added or
 * removed) and keeps the others' answers. After every edit its answer must be exactly what a fresh
 * checker finds on the edited project.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CheckerTarget } from '../../src/codemap/checker-protocol.js';
import { loadTypeScript } from '../../src/codemap/load-typescript.js';
import { createTsChecker, type TsChecker } from '../../src/codemap/ts-checker.js';
import { walkProject } from '../../src/codemap/walk-project.js';
import { tempProject, type TempProject } from './helpers.js';

const ts = loadTypeScript();
let tp: TempProject;
let files: string[];
let kept: TsChecker;

/** The target declared on the first line of `file` that holds `text` (the name's line). */
async function target(file: string, name: string, text: string): Promise<CheckerTarget> {
  const lines = (await readFile(join(tp.project, file), 'utf8')).split('\n');
  const line = lines.findIndex((l) => l.includes(text)) + 1;
  if (line === 0) throw new Error(`${text} is not in ${file}`);
  return { file, name, line, endLine: line };
}

async function edit(file: string, from: string, to: string): Promise<void> {
  const text = await readFile(join(tp.project, file), 'utf8');
  if (!text.includes(from)) throw new Error(`${from} is not in ${file}`);
  await tp.write(file, text.replace(from, to));
}

const answers = (checker: TsChecker, targets: readonly CheckerTarget[], withFiles: boolean): string[][] => {
  const a = checker.answer({ op: 'references', root: tp.project, ...(withFiles ? { files } : {}), targets });
  if (!a.ok) throw new Error(a.error);
  return a.results.map((r) => r.hits.map((h) => `${h.file}:${h.line}:${h.kind}`).sort());
};

/** The kept checker's answers to every target, and a fresh checker's on the same files: they must agree. */
async function compare(targets: () => Promise<CheckerTarget[]>): Promise<{ kept: string[][]; searched: number }> {
  const ts2 = await targets();
  const now = answers(kept, ts2, false);
  const searched = kept.searched();
  expect(now).toEqual(answers(createTsChecker(ts, tp.project), ts2, true));
  return { kept: now, searched };
}

beforeAll(async () => {
  tp = await tempProject('ts-checked');
  files = (await walkProject(tp.project, { extensions: new Set(['.ts', '.tsx', '.js']), maxFileBytes: 1 << 20 })).files.map((f) => f.rel);
  kept = createTsChecker(ts, tp.project);
});

afterAll(async () => {
  await tp.cleanup();
});

describe('references after an edit', () => {
  const json = () => target('src/core/context.ts', 'json', '  json(');
  const param = () => target('src/core/request.ts', 'param', '  param(');
  const get = () => target('src/service/store.ts', 'get', '  get(');
  const storeClass = () => target('src/service/store.ts', 'Store', 'export class Store');
  const text = () => target('src/core/context.ts', 'text', '  text(');
  const all = async () => [await json(), await param(), await get(), await storeClass(), await text()];

  it('are what a fresh checker finds, searching only the files the edit can have changed', async () => {
    const first = answers(kept, await all(), true);
    expect(first.every((hits) => hits.length > 0)).toBe(true);
    const everything = kept.searched();

    // Inside a body whose return type is written: no other file can see it.
    await edit('src/core/context.ts', 'return this.text(JSON.stringify(value));', 'return this.text(JSON.stringify(value) + "");');
    let r = await compare(all);
    expect(r.searched).toBeLessThan(everything);

    // Lines moved above every target of the file, and a name added that nobody writes.
    await edit('src/core/context.ts', 'export class Context {', '// moved\n\nexport class Context {');
    await tp.write('src/core/context.ts', `${await readFile(join(tp.project, 'src/core/context.ts'), 'utf8')}\nexport const addedName = 1;\n`);
    r = await compare(all);
    expect(r.searched).toBeLessThan(everything);

    // That name's value changed: no other file writes it.
    await edit('src/core/context.ts', 'export const addedName = 1;', 'export const addedName = 2;');
    r = await compare(all);
    expect(r.searched).toBeLessThan(everything);

    // A type changed that only another declaration of its file names: main.ts writes RouteInfo, whose handler is no longer given a Context.
    expect((await compare(all)).kept[4]!.some((h) => h.startsWith('src/main.ts'))).toBe(true);
    await edit('src/types.ts', 'export type Handler = (c: Context) => string;', 'export type Handler = (c: { text(body: string): string }) => string;');
    r = await compare(all);
    expect(r.kept[4]!.filter((h) => h.startsWith('src/main.ts'))).toHaveLength(1);

    // A use removed, inside a body: only that file changes.
    await edit('src/main.ts', " + (users.find('1') ?? '')", '');
    r = await compare(all);
    expect(r.searched).toBeLessThan(everything);

    // A field's type changed: what `c.req.param` refers to changes in files that never name the field's file.
    await edit('src/core/context.ts', 'readonly req: HonoRequest;', 'readonly req: { param(name: string): string | undefined };');
    await edit('src/core/context.ts', 'this.req = new HonoRequest(path);', 'this.req = { param: () => path };');
    r = await compare(all);
    expect(r.kept[1]!.some((h) => h.startsWith('src/main.ts'))).toBe(false);

    // A re-export under another name and a use of it in a file that did not write the name before.
    await tp.write('src/service/index.ts', `${await readFile(join(tp.project, 'src/service/index.ts'), 'utf8')}export { Store as KeyStore } from './store.js';\n`);
    await edit('src/main.ts', "import { Cache, seeded, UserService } from './service/index.js';",
      "import { Cache, seeded, UserService, type KeyStore } from './service/index.js';\nexport const keyed = (k: KeyStore): string => k.get('x') ?? '';");
    r = await compare(all);
    expect(r.kept[2]!.some((h) => h.startsWith('src/main.ts'))).toBe(true);

    // A name removed from a module that others import under it.
    await edit('src/service/index.ts', "export { Store as KeyStore } from './store.js';\n", '');
    await compare(all);
  }, 240_000);
});

describe('the files a question brings into the program', () => {
  it('are those that can see the module, and for a member with bases, those its bases relate it to', async () => {
    const small = await tempProject();
    try {
      await small.write('src/shape.ts', 'export interface Shape {\n  area(): number;\n}\n');
      await small.write('src/square.ts', "import type { Shape } from './shape.js';\n\nexport class Square implements Shape {\n  area(): number {\n    return 4;\n  }\n}\n");
      await small.write('src/circle.ts', "import type { Shape } from './shape.js';\n\nexport class Circle implements Shape {\n  area(): number {\n    return 3;\n  }\n}\n");
      await small.write('src/use-circle.ts', "import { Circle } from './circle.js';\n\nexport const a = new Circle().area();\n");
      await small.write('src/plain.ts', 'export function area(): number {\n  return 1;\n}\n');
      await small.write('src/use-plain.ts', "import { area } from './plain.js';\n\nexport const b = area();\n");
      // Writes the name, but cannot see plain.ts: no reference to its function can be there.
      await small.write('src/lonely.ts', 'export function other(x: { area(): number }): number {\n  return x.area();\n}\n');
      const list = ['src/shape.ts', 'src/square.ts', 'src/circle.ts', 'src/use-circle.ts', 'src/plain.ts', 'src/use-plain.ts', 'src/lonely.ts'];
      const ask = (t: CheckerTarget): { hits: string[]; program: string[] } => {
        const checker = createTsChecker(ts, small.project);
        const a = checker.answer({ op: 'references', root: small.project, files: list, targets: [t] });
        if (!a.ok) throw new Error(a.error);
        return { hits: a.results[0]!.hits.map((h) => `${h.file}:${h.line}`), program: checker.programFiles() };
      };
      const plain = ask({ file: 'src/plain.ts', name: 'area', line: 1, endLine: 1 });
      expect(plain.hits).toEqual(['src/use-plain.ts:1', 'src/use-plain.ts:3']);
      expect(plain.program).not.toContain('src/lonely.ts');
      // Circle's area is Shape's, as Square's is: the language service counts its uses, in a file that never sees square.ts.
      expect(ask({ file: 'src/square.ts', name: 'area', line: 4, endLine: 4 }).hits).toContain('src/use-circle.ts:3');
    } finally {
      await small.cleanup();
    }
  }, 120_000);
});
