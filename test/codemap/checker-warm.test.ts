/**
 * The checker's program: only the files a question needs are parsed, a warm-up gives way to a
 * request that waits, and a question is answered in full whatever waits behind it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadTypeScript } from '../../src/codemap/load-typescript.js';
import { createTsChecker, GIVEN_UP, WARM_UP_STOPPED } from '../../src/codemap/ts-checker.js';
import { walkProject } from '../../src/codemap/walk-project.js';
import { tempProject, type TempProject } from './helpers.js';

let tp: TempProject;
let files: string[];
const ts = loadTypeScript();
const storeGet = { file: 'src/service/store.ts', name: 'get', line: 5, endLine: 7 };

beforeAll(async () => {
  tp = await tempProject('ts-checked');
  const walked = await walkProject(tp.project, { extensions: new Set(['.ts', '.tsx', '.js']), maxFileBytes: 1 << 20 });
  files = walked.files.map((f) => f.rel);
});

afterAll(async () => {
  await tp.cleanup();
});

describe('the checker program', () => {
  it('parses the files that can use the symbol asked about, not the whole project', () => {
    const checker = createTsChecker(ts, tp.project);
    const answer = checker.answer({ op: 'references', root: tp.project, files, targets: [{ file: 'src/util/url.ts', name: 'getPath', line: 2, endLine: 5 }] });
    expect(answer.ok).toBe(true);
    const inProgram = checker.programFiles();
    expect(inProgram.length).toBeGreaterThan(0);
    // Files that never name getPath (nor import what does) are left unparsed.
    expect(inProgram).not.toContain('src/shadow.ts');
    expect(inProgram.length).toBeLessThan(files.length);
    // A question about a widely used symbol brings in every file that uses it.
    const get = checker.answer({ op: 'references', root: tp.project, targets: [storeGet] });
    expect(get.ok && get.results[0]!.hits.some((h) => h.file === 'src/service/user.ts')).toBe(true);
    expect(checker.programFiles()).toContain('src/service/user.ts');
  });

  it('takes in every global file for a member, and for a name scopes resolve only the global files that write it', async () => {
    const getPath = { file: 'src/util/url.ts', name: 'getPath', line: 2, endLine: 5 };
    // A global script (no import or export) that names getPath; the fixture's other one, jsx.d.ts, never does.
    await tp.write('src/path-global.d.ts', 'declare var pathOf: typeof import("./util/url.js").getPath;\n');
    const checker = createTsChecker(ts, tp.project);
    const asked = checker.answer({ op: 'references', root: tp.project, files: [...files, 'src/path-global.d.ts'], targets: [getPath] });
    expect(asked.ok && asked.results[0]!.hits.map((h) => h.file)).toContain('src/path-global.d.ts');
    expect(checker.programFiles()).not.toContain('src/jsx/jsx.d.ts');
    // A constructor is reached through its class's name: `new UserService(…)` in main.ts.
    const ctor = checker.answer({ op: 'references', root: tp.project, targets: [{ file: 'src/service/user.ts', name: 'constructor', line: 4, endLine: 4 }] });
    expect(ctor.ok && ctor.results[0]!.hits.map((h) => h.file)).toContain('src/main.ts');
    expect(checker.programFiles()).not.toContain('src/jsx/jsx.d.ts');
    // A member's receiver can be typed by any global declaration: they all come in.
    checker.answer({ op: 'references', root: tp.project, targets: [storeGet] });
    expect(checker.programFiles()).toContain('src/jsx/jsx.d.ts');
  });

  it('stops a warm-up when a request waits, and answers a question in full anyway', () => {
    const checker = createTsChecker(ts, tp.project, () => true);
    const warm = checker.answer({ op: 'warm', root: tp.project, files, targets: [storeGet], replay: 'references' });
    expect(warm).toEqual({ ok: false, error: WARM_UP_STOPPED });
    const asked = checker.answer({ op: 'references', root: tp.project, targets: [storeGet] });
    expect(asked.ok, JSON.stringify(asked)).toBe(true);
    if (asked.ok) expect(asked.results[0]!.hits.map((h) => h.file)).toContain('src/service/user.ts');
  });

  it('stops a question nobody waits for any more when a request waits, and only that one', () => {
    let givenUp = true;
    const checker = createTsChecker(ts, tp.project, () => true, () => givenUp);
    expect(checker.answer({ op: 'references', root: tp.project, files, targets: [storeGet] })).toEqual({ ok: false, late: true, error: GIVEN_UP });
    givenUp = false;
    const asked = checker.answer({ op: 'references', root: tp.project, targets: [storeGet] });
    expect(asked.ok && asked.results[0]!.hits.map((h) => h.file)).toContain('src/service/user.ts');
  });

  it('warms up in full when nothing waits', () => {
    const checker = createTsChecker(ts, tp.project, () => false);
    expect(checker.answer({ op: 'warm', root: tp.project, files, targets: [storeGet], replay: 'references' })).toEqual({ ok: true, results: [] });
    expect(checker.programFiles()).toContain('src/service/user.ts');
  });
});
