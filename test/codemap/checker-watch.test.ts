/**
 * The checker looks at each project file once per question only while something may have changed:
 * a watch on the project files' folders tells it when nothing did. A file written by anything
 * (bash, the user's editor, git), told to nobody, must still be seen by the very next question.
 */
import { writeFileSync } from 'node:fs';
import { readFile, stat, utimes } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { answerCheckerRequest, dropCheckers } from '../../src/codemap/checker-host.js';
import type { CheckerAnswer } from '../../src/codemap/checker-protocol.js';
import { loadTypeScript } from '../../src/codemap/load-typescript.js';
import { createTsProgram } from '../../src/codemap/ts-program.js';
import { walkProject } from '../../src/codemap/walk-project.js';
import { tempProject, type TempProject } from './helpers.js';

let tp: TempProject;
let files: string[];
const ts = loadTypeScript();
const getPath = { file: 'src/util/url.ts', name: 'getPath', line: 2, endLine: 5 };

const lines = (a: CheckerAnswer): string[] => {
  if (!a.ok) throw new Error(a.error);
  return a.results[0]!.hits.map((h) => `${h.file}:${h.line}`).sort();
};

beforeAll(async () => {
  tp = await tempProject('ts-checked');
  files = (await walkProject(tp.project, { extensions: new Set(['.ts', '.tsx', '.js']), maxFileBytes: 1 << 20 })).files.map((f) => f.rel);
});

afterEach(() => {
  dropCheckers();
});

afterAll(async () => {
  await tp.cleanup();
});

describe('the checker and files changed behind its back', () => {
  it('sees a file written between two questions with nobody telling it, however soon the question comes', async () => {
    const ask = (): Promise<CheckerAnswer> => answerCheckerRequest({ op: 'references', root: tp.project, targets: [getPath] });
    const first = lines(await answerCheckerRequest({ op: 'references', root: tp.project, files, targets: [getPath] }));
    // Asked again with nothing changed: the same answer (from what the checker looked at before).
    expect(lines(await ask())).toEqual(first);
    // A use added in a file of another folder, written and asked about at once.
    const user = 'src/service/user.ts';
    const text = await readFile(join(tp.project, user), 'utf8');
    const next = `import { getPath as gp } from '../util/url';\n${text}\nexport const watched = gp('http://x/y');\n`;
    await tp.write(user, next);
    const added = lines(await ask());
    const useLine = next.split('\n').findIndex((l) => l.includes('watched')) + 1;
    expect(added).toEqual([...first, `${user}:1`, `${user}:${useLine}`].sort());
    // And taken away again, written synchronously right before the question (no turn of the event
    // loop in between, as when another process wrote it): its event is waited for.
    writeFileSync(join(tp.project, user), text);
    expect(lines(await ask())).toEqual(first);
  });

  it('keeps what it looked at for the project files only while told nothing changed; anything else is looked at again', async () => {
    const program = createTsProgram(ts, tp.project);
    program.setFiles(files);
    const url = program.abs('src/util/url.ts');
    const config = join(tp.project, 'tsconfig.json');
    await tp.write('tsconfig.json', '{}');
    program.newQuestion();
    const before = program.version(url);
    const configBefore = program.version(config);
    await tp.write('src/util/url.ts', `${await readFile(url, 'utf8')}\n// one more line\n`);
    await tp.write('tsconfig.json', '{ "compilerOptions": {} }');
    const stamp = await stat(url);
    await utimes(url, stamp.atime, new Date(stamp.mtimeMs + 5000));
    program.newQuestion(true);
    expect(program.version(url)).toBe(before);
    // Not a project file: looked at again with every question.
    expect(program.version(config)).not.toBe(configBefore);
    program.newQuestion(false);
    expect(program.version(url)).not.toBe(before);
  });
});
