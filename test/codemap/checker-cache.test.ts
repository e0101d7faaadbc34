/**
 * The references kept between questions (ts-reference-cache.ts) must never change an answer: a
 * question asked after others gets what it gets asked alone, of a fresh checker. Two ways it did:
 * a search of a few files again that left out a module passing the declaration on with `export *`
 * (the search follows imports only through the files it is handed), and two declarations that
 * merge under one name (an interface and a namespace) kept as one.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { CheckerTarget } from '../../src/codemap/checker-protocol.js';
import { loadTypeScript } from '../../src/codemap/load-typescript.js';
import { createTsChecker, type TsChecker } from '../../src/codemap/ts-checker.js';
import { tempProject, type TempProject } from './helpers.js';

const ts = loadTypeScript();
let tp: TempProject | undefined;

afterEach(async () => {
  await tp?.cleanup();
});

async function project(files: Record<string, string>): Promise<TempProject> {
  tp = await tempProject();
  for (const [rel, text] of Object.entries(files)) await tp.write(rel, text);
  return tp;
}

const hits = (checker: TsChecker, root: string, files: string[], t: CheckerTarget): string[] => {
  const a = checker.answer({ op: 'references', root, files, targets: [t] });
  if (!a.ok) throw new Error(a.error);
  return a.results[0]!.hits.map((h) => `${h.file}:${h.line}`).sort();
};

const TSCONFIG = JSON.stringify({ compilerOptions: { strict: true, module: 'nodenext', moduleResolution: 'nodenext', noEmit: true }, include: ['*.ts'] });

describe('references kept between questions', () => {
  it('search again through the modules that re-export the declaration with export *', async () => {
    const p = await project({
      'tsconfig.json': TSCONFIG,
      'types.ts': 'export class Base {\n  x = 1;\n}\nexport type Out<T extends Base> = T["x"];\nexport { Base as Schema };\n',
      'index.ts': 'export * from "./types.js";\nexport * from "./errors.js";\n',
      'errors.ts': 'import type { Base, Out } from "./index.js";\n\nexport type Flat<T extends Base> = Out<T>;\n',
      // Writes only the other name: brought in, and the question asked again over the files that changed.
      'use.ts': 'import * as z from "./index.js";\n\nexport const isSchema = (v: unknown): boolean => v instanceof z.Schema;\n',
    });
    const files = ['types.ts', 'index.ts', 'errors.ts', 'use.ts'];
    const base = { file: 'types.ts', name: 'Base', line: 1, endLine: 3 };
    const kept = createTsChecker(ts, p.project);
    const want = ['errors.ts:1', 'errors.ts:3', 'types.ts:4', 'types.ts:5', 'use.ts:3'];
    expect(hits(kept, p.project, files, base)).toEqual(want);
    // An edit of an importer: searched again with the files that lead it to the declaration.
    await p.write('use.ts', 'import * as z from "./index.js";\n\nexport const isSchema = (v: unknown): boolean => v instanceof z.Schema; // edited\n');
    expect(hits(kept, p.project, files, base)).toEqual(want);
  });

  it('keep an interface and the namespace it merges with apart', async () => {
    const p = await project({
      'tsconfig.json': TSCONFIG,
      'schema.ts': 'export interface Spec {\n  readonly id: string;\n}\n\nexport declare namespace Spec {\n  export type Id = string;\n}\n',
      'use.ts': 'import type { Spec } from "./schema.js";\n\nexport type One = Spec;\nexport type Key = Spec.Id;\n',
    });
    const files = ['schema.ts', 'use.ts'];
    const face = { file: 'schema.ts', name: 'Spec', line: 1, endLine: 3 };
    const space = { file: 'schema.ts', name: 'Spec', line: 5, endLine: 7 };
    const alone = [face, space].map((t) => hits(createTsChecker(ts, p.project), p.project, files, t));
    expect(alone[0]).toContain('use.ts:3');
    expect(alone[1]).toContain('use.ts:4');
    const kept = createTsChecker(ts, p.project);
    expect([face, space].map((t) => hits(kept, p.project, files, t))).toEqual(alone);
    const reversed = createTsChecker(ts, p.project);
    expect([space, face].map((t) => hits(reversed, p.project, files, t))).toEqual([alone[1], alone[0]]);
  });
});
