/**
 * Global files (module augmentations, scripts) in a member's program: one is brought in when a
 * file of the program writes a name it declares, directly or through a file it imports, or always
 * when it changes a type without a name (a base type, a signature, a reference directive). A
 * member reached only through an augmentation must be found as the language service finds it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadTypeScript } from '../../src/codemap/load-typescript.js';
import { createTsChecker } from '../../src/codemap/ts-checker.js';
import { globalNames } from '../../src/codemap/ts-global-files.js';
import { tempProject, type TempProject } from './helpers.js';

const ts = loadTypeScript();
let tp: TempProject;

const FILES: Record<string, string> = {
  'src/box.ts': 'export class Lid {\n  lift(): void {}\n}\n\nexport class Box {\n  open(): Lid {\n    return new Lid();\n  }\n}\n',
  // Adds `spare` to Box: `b.spare.lift()` reaches Lid.lift only with this file in the program.
  'src/augment.ts': "import { Lid } from './box';\n\ndeclare module './box' {\n  interface Box {\n    spare: Lid;\n  }\n}\n",
  'src/use.ts': "import { Box } from './box';\n\nexport function lift(b: Box): void {\n  b.spare.lift();\n}\n",
  // `spare` written only by the file this one imports.
  'src/get.ts': "import { Box } from './box';\n\nexport const spareOf = (b: Box) => b.spare;\n",
  'src/use-get.ts': "import { spareOf } from './get';\nimport { Box } from './box';\n\nexport const again = (b: Box): void => spareOf(b).lift();\n",
  // Declares a name no file writes: left out.
  'src/noise.ts': "declare module './box' {\n  interface Box {\n    unrelatedThing: number;\n  }\n}\nexport {};\n",
  // Changes Box through a base type: always in.
  'src/based.ts': "declare module './box' {\n  interface Box extends Extra {}\n}\ninterface Extra {\n  extraThing: number;\n}\nexport {};\n",
  // A script whose only exports are a namespace's members: global all the same.
  'src/runtime.d.ts': 'declare namespace Runtime {\n  export function version(): string;\n}\n',
  'src/env.ts': 'export function runtimeVersion(): string {\n  return Runtime.version();\n}\n',
};

beforeAll(async () => {
  tp = await tempProject();
  for (const [rel, text] of Object.entries(FILES)) await tp.write(rel, text);
  await tp.write('tsconfig.json', JSON.stringify({ compilerOptions: { strict: true, target: 'es2022', module: 'esnext', moduleResolution: 'bundler' }, include: ['src'] }));
});

afterAll(async () => {
  await tp.cleanup();
});

describe('global files in a member question', () => {
  it('finds a member reached through an augmentation, with the augmentations nothing writes left out', () => {
    const checker = createTsChecker(ts, tp.project);
    const a = checker.answer({ op: 'references', root: tp.project, files: Object.keys(FILES), targets: [{ file: 'src/box.ts', name: 'lift', line: 2, endLine: 2 }] });
    if (!a.ok) throw new Error(a.error);
    expect(a.results[0]!.hits.map((h) => `${h.file}:${h.line}`).sort()).toEqual(['src/use-get.ts:4', 'src/use.ts:4']);
    const inProgram = checker.programFiles();
    expect(inProgram).toContain('src/augment.ts');
    expect(inProgram).toContain('src/based.ts');
    expect(inProgram).not.toContain('src/noise.ts');
  });

  it('lists what a body uses from a script that exports only inside a namespace', () => {
    const checker = createTsChecker(ts, tp.project);
    const a = checker.answer({ op: 'dependencies', root: tp.project, files: Object.keys(FILES), targets: [{ file: 'src/env.ts', name: 'runtimeVersion', line: 1, endLine: 3 }] });
    if (!a.ok) throw new Error(a.error);
    expect(a.results[0]!.hits.map((h) => `${h.file}:${h.line} ${h.name}`).sort()).toEqual(['src/runtime.d.ts:1 Runtime', 'src/runtime.d.ts:2 version']);
  });

  it('reads the names a global file declares, and which declarations it cannot name', () => {
    const names = (text: string): string[] | undefined => {
      const found = globalNames(ts, ts.createSourceFile('x.ts', text, ts.ScriptTarget.Latest, false));
      return found && [...found].sort();
    };
    // An augmentation: what it adds, not the interface or module it merges into.
    expect(names(FILES['src/augment.ts']!)).toEqual(['spare']);
    expect(names("declare global {\n  interface Window { appState: number }\n  var appName: string;\n}\nexport {};\n")).toEqual(['Window', 'appName', 'appState']);
    // A script: every global declaration, a namespace's members, and JS expandos.
    expect(names('declare function boot(): void;\nnamespace Tools { export const knife = 1; }\n')).toEqual(['Tools', 'boot', 'knife']);
    expect(names('function Shape() {}\nShape.prototype.area = function () { return 0; };\n')).toEqual(['Shape', 'area', 'prototype']);
    expect(names("declare module 'legacy-lib' {\n  export function run(): void;\n}\n")).toEqual(['legacy-lib', 'run']);
    // Declarations reached without a name of their own: the file is always needed.
    expect(names(FILES['src/based.ts']!)).toBeUndefined();
    expect(names("declare module './box' {\n  interface Box { (x: string): void }\n}\nexport {};\n")).toBeUndefined();
    expect(names("declare module './box' {\n  interface Box { [key: string]: unknown }\n}\nexport {};\n")).toBeUndefined();
    expect(names('/// <reference types="vite/client" />\n')).toBeUndefined();
    expect(names("declare module '*.svg' {\n  const src: string;\n  export default src;\n}\n")).toBeUndefined();
  });
});
