/**
 * Members looked up from declared types (ts-declared-members.ts) against the checker's own answer:
 * on every `recv.name` of the 30-file checker fixture, an answer is the checker's or none; the
 * narrowing and overload traps of src/shapes.ts get none; what declarations settle gets one.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type * as TS from 'typescript';
import { loadTypeScript } from '../../src/codemap/load-typescript.js';
import { declaredMembers, withDeclaredMembers } from '../../src/codemap/ts-declared-members.js';
import { walkProject } from '../../src/codemap/walk-project.js';
import { tempProject, type TempProject } from './helpers.js';

const ts = loadTypeScript();
let tp: TempProject;
let program: TS.Program;

beforeAll(async () => {
  tp = await tempProject('ts-checked');
  const walked = await walkProject(tp.project, { extensions: new Set(['.ts', '.tsx', '.js']), maxFileBytes: 1 << 20 });
  const config = ts.getParsedCommandLineOfConfigFile(join(tp.project, 'tsconfig.json'), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => undefined })!;
  program = ts.createProgram(walked.files.map((f) => join(tp.project, f.rel)), config.options);
});

afterAll(async () => {
  await tp.cleanup();
});

/** Every `recv.name` name of the project's files, in order. */
function memberNames(): TS.Identifier[] {
  const out: TS.Identifier[] = [];
  for (const sf of program.getSourceFiles()) {
    if (!sf.fileName.startsWith(tp.project)) continue;
    const visit = (n: TS.Node): void => {
      if (ts.isIdentifier(n) && ts.isPropertyAccessExpression(n.parent) && n.parent.name === n) out.push(n);
      ts.forEachChild(n, visit);
    };
    visit(sf);
  }
  return out;
}

/** Where a symbol is declared, as file:line of each declaration. */
function declaredAt(checker: TS.TypeChecker, sym: TS.Symbol | undefined): string[] {
  if (!sym) return [];
  return [...new Set(checker.getRootSymbols(sym).flatMap((r) => (r.declarations ?? []).map((d) => {
    const sf = d.getSourceFile();
    return `${sf.fileName.slice(tp.project.length + 1)}:${sf.getLineAndCharacterOfPosition(d.getStart()).line + 1}`;
  })))].sort();
}

/** The name of the `nth` access written `text` (e.g. 's.area') inside the function or constant `holder` of `file`. */
function access(names: readonly TS.Identifier[], file: string, holder: string, text: string, nth = 0): TS.Identifier {
  const within = (n: TS.Node): boolean => {
    for (let p: TS.Node | undefined = n.parent; p; p = p.parent) {
      if ((ts.isFunctionDeclaration(p) || ts.isVariableDeclaration(p) || ts.isMethodDeclaration(p)) && p.name && ts.isIdentifier(p.name) && p.name.text === holder) return true;
    }
    return false;
  };
  const found = names.filter((n) => n.getSourceFile().fileName.endsWith(file) && n.parent.getText() === text && within(n))[nth];
  if (!found) throw new Error(`no ${text} (#${nth}) in ${holder} of ${file}`);
  return found;
}

describe('members from declared types', () => {
  it('answer only as the checker does, over every member access of the fixture', () => {
    const checker = program.getTypeChecker();
    const names = memberNames();
    // Asked first, on a checker that has inferred nothing yet (as a cold search asks).
    const quick = declaredMembers(ts, checker);
    const answers = names.map((n) => quick(n));
    const answered = answers.filter((a) => a !== undefined).length;
    expect(answered, 'most accesses are settled by declarations').toBeGreaterThan(names.length * 0.4);
    const wrong = names.flatMap((n, i) => {
      if (!answers[i]) return [];
      const mine = declaredAt(checker, answers[i]);
      const real = declaredAt(checker, checker.getSymbolAtLocation(n));
      return mine.join() === real.join() ? [] : [`${n.getSourceFile().fileName}:${n.parent.getText()} ${mine.join()} vs ${real.join()}`];
    });
    expect(wrong).toEqual([]);
  });

  it('leave narrowed receivers and overloads that type a callback differently to the checker', () => {
    const checker = program.getTypeChecker();
    const names = memberNames();
    const quick = declaredMembers(ts, checker);
    const left = (holder: string, text: string, nth = 0): TS.Symbol | undefined => quick(access(names, 'src/shapes.ts', holder, text, nth));
    // The checker finds Circle.area in each of these (an instanceof, a type guard, an assertion);
    // the declared type, Shape, would give Shape.area.
    expect(left('measure', 's.area')).toBeUndefined();
    expect(left('guarded', 's.area')).toBeUndefined();
    expect(left('asserted', 's.area')).toBeUndefined();
    expect(declaredAt(checker, checker.getSymbolAtLocation(access(names, 'src/shapes.ts', 'asserted', 's.area')))).toEqual(['src/shapes.ts:8']);
    // `typeof v === 'function'` makes an object a Function.
    expect(left('printed', 'v.toString')).toBeUndefined();
    // Emitter.on's overloads give the listener a Circle or a Square: only the chosen overload says.
    expect(left('listen', 'shape.area', 0)).toBeUndefined();
    expect(left('listen', 'shape.area', 1)).toBeUndefined();
    expect(declaredAt(checker, checker.getSymbolAtLocation(access(names, 'src/shapes.ts', 'listen', 'shape.area', 1)))).toEqual(['src/shapes.ts:12']);
    // A property an index signature may type as well.
    expect(left('anyHook', 's.area')).toBeUndefined();
    // A union of callback types whose signatures differ leaves the parameter untyped.
    expect(left('loose', 'c.json')).toBeUndefined();
    expect(checker.getSymbolAtLocation(access(names, 'src/shapes.ts', 'loose', 'c.json'))).toBeUndefined();
  });

  it('answer what the declarations settle: generic overloads that agree, callbacks, typed receivers', () => {
    const checker = program.getTypeChecker();
    const names = memberNames();
    const quick = declaredMembers(ts, checker);
    const at = (file: string, holder: string, text: string, nth = 0): string[] => declaredAt(checker, quick(access(names, file, holder, text, nth)));
    // Ctx.json through Routes.get's generic overloads (a union of handler types, an intersection with a type parameter).
    expect([0, 1].map((nth) => at('src/shapes.ts', 'routes', 'c.json', nth))).toEqual([['src/shapes.ts:46'], ['src/shapes.ts:46']]);
    // A call that is no type guard (console.log) narrows nothing; an array's callback gets its element type.
    expect(at('src/shapes.ts', 'logged', 's.area')).toEqual(['src/shapes.ts:4']);
    expect(at('src/shapes.ts', 'total', 'shapes.reduce')).not.toEqual([]);
    // A callback as a property, and as a method, of an object literal passed to a typed parameter.
    expect(at('src/shapes.ts', 'hooked', 's.describe')).toEqual(['src/shapes.ts:5']);
    expect(at('src/shapes.ts', 'hooked', 'c.radius')).toEqual(['src/shapes.ts:9']);
    // A framework's handler: `app.get('/', (c) => c.json(…))`.
    expect(at('src/main.ts', 'main', 'c.json')).toEqual([`src/core/context.ts:${contextJsonLine()}`]);
  });

  it('are used only while a search runs, the checker keeping its own method', () => {
    const checker = program.getTypeChecker();
    const own = checker.getSymbolAtLocation;
    let inside: unknown;
    withDeclaredMembers(ts, checker, () => { inside = checker.getSymbolAtLocation; });
    expect(inside).not.toBe(own);
    expect(checker.getSymbolAtLocation).toBe(own);
    expect(() => withDeclaredMembers(ts, checker, () => { throw new Error('search failed'); })).toThrow('search failed');
    expect(checker.getSymbolAtLocation).toBe(own);
  });
});

function contextJsonLine(): number {
  const sf = program.getSourceFiles().find((f) => f.fileName.endsWith('src/core/context.ts'))!;
  return sf.text.split('\n').findIndex((l) => /^\s*json\(/.test(l)) + 1;
}
