/**
 * The symbol tools' questions answered by the TypeScript checker: who references a declaration
 * (the language service's findReferences, minus the declarations themselves), and what a
 * declaration's body calls and which types it names (every identifier in it resolved by the checker).
 * Answers are positions; the caller maps them to code map symbols.
 */
import { readFileSync } from 'node:fs';
import { getHeapStatistics } from 'node:v8';
import type * as TS from 'typescript';
import { skipReason } from './index-file.js';
import type { CheckerAnswer, CheckerHit, CheckerRequest, CheckerTarget, TargetResult } from './checker-protocol.js';
import { createTsProgram, type TsProgram } from './ts-program.js';
import { declarationPath, declaredName, findDeclarations, lineOf, namePosition, nodeAt, searchedName, usageKind } from './ts-locate.js';
import { createReferenceCache, type Found } from './ts-reference-cache.js';
import { createReach, inherits } from './ts-reach.js';
import { findReferencedSymbols } from './ts-find-references.js';
import { createScope } from './ts-scope.js';
import { declarationsMeant, isDeclaredName } from './ts-meaning.js';
import { declaredMembers } from './ts-declared-members.js';
import { createGlobalFiles } from './ts-global-files.js';

type Ts = typeof TS;

const NOTHING: Found = { hits: new Map(), chain: new Set(), aliases: new Set() };

function isGenerated(cache: Map<string, boolean>, abs: string): boolean {
  let hit = cache.get(abs);
  if (hit === undefined) {
    try {
      hit = skipReason(readFileSync(abs, 'utf8')) !== undefined;
    } catch {
      hit = true;
    }
    cache.set(abs, hit);
  }
  return hit;
}

/**
 * A declaration whose uses are found by name, through scopes and imports alone: a function, class,
 * variable, interface, type alias, enum or namespace of a file or namespace body, and a constructor
 * of such a class. A global file can change what such a name means only by writing it (merging
 * into an interface, say); a member, by contrast, is reached through a receiver that any global
 * declaration can type.
 */
function resolvedByScope(ts: Ts, d: TS.Node): boolean {
  // `new X()` and `super()`: a constructor is reached through its class's name.
  if (ts.isConstructorDeclaration(d)) return ts.isClassDeclaration(d.parent) && resolvedByScope(ts, d.parent);
  const holder = ts.isVariableDeclaration(d) && ts.isVariableDeclarationList(d.parent) ? d.parent.parent : d;
  const topLevel = ts.isSourceFile(holder.parent) || ts.isModuleBlock(holder.parent);
  return topLevel && (ts.isFunctionDeclaration(d) || ts.isClassDeclaration(d) || ts.isVariableDeclaration(d) || ts.isInterfaceDeclaration(d)
    || ts.isTypeAliasDeclaration(d) || ts.isEnumDeclaration(d) || (ts.isModuleDeclaration(d) && ts.isIdentifier(d.name)));
}

/** The checker's heap past which a program sheds the files only earlier questions needed. */
const HEAP_BUDGET_BYTES = 320 * 1024 * 1024;

/** A warm-up's answer when it stopped because another request waited. */
export const WARM_UP_STOPPED = 'warm-up stopped: a request waits';

/** A question no tool waited for any more, stopped because another request came. */
export const GIVEN_UP = 'stopped: no tool waited for the answer any more and another request came';

/** The answer to a request without files to a checker that never got any (a new worker): send them. */
export const NEEDS_FILES = 'the checker needs the project\'s file list';

interface Located {
  readonly prog: TS.Program;
  readonly sf: TS.SourceFile;
  readonly decls: TS.Node[];
}

export interface TsChecker {
  /** `projectUnchanged`: nothing changed in the project files' folders since the last request began (see TsProgram.newQuestion). */
  answer(request: CheckerRequest, projectUnchanged?: boolean): CheckerAnswer;
  /** The project files the program holds now (the roots questions needed, and what they import). */
  programFiles(): string[];
  /** How many project files the last references search went through (after an edit: the ones it can have changed). */
  searched(): number;
}

/**
 * `yieldNow`: true when another request waits (a warm-up then stops where it is); `givenUp`: true
 * when nobody waits for the question under way any more (it then stops as a warm-up does).
 */
export function createTsChecker(ts: Ts, root: string, yieldNow: () => boolean = () => false, givenUp: () => boolean = () => false): TsChecker {
  let warming = false;
  const cancelled = (): boolean => (warming || givenUp()) && yieldNow();
  const program: TsProgram = createTsProgram(ts, root, cancelled);
  const token: TS.CancellationToken = {
    isCancellationRequested: cancelled,
    throwIfCancellationRequested() {
      if (cancelled()) throw new ts.OperationCanceledException();
    },
  };
  const findIn = (prog: TS.Program, files: readonly TS.SourceFile[], sf: TS.SourceFile, pos: number): TS.ReferencedSymbol[] | undefined =>
    findReferencedSymbols(ts, prog, token, files, sf, pos);
  let lastSearched = 0;
  const kept = createReferenceCache(ts, (fileName) => program.rel(fileName) !== undefined);
  const generated = new Map<string, boolean>();
  let hasFiles = false;
  const keep = (fileName: string): string | undefined => {
    const rel = program.rel(fileName);
    return rel !== undefined && !isGenerated(generated, fileName) ? rel : undefined;
  };

  const scope = createScope(program, ts);
  const reach = createReach(program, scope);
  const globalFiles = createGlobalFiles(ts, program, scope);
  /**
   * The files outside the program that write `name` (or import it by default) and can see `at`'s
   * module. A member of a type with bases (or of an object literal, typed by its context) is related
   * to the bases' members and their other implementations, which files that never see its module use.
   */
  const users = (at: Located, name: string, defaultExported: boolean, inProgram: (rel: string) => boolean): string[] => {
    const file = program.rel(at.sf.fileName)!;
    const found = scope.users(name, file, defaultExported, inProgram);
    // A namespace is also reached without an import: JSX's, through the runtime the compiler imports for JSX.
    const seeing = inherits(ts, at.decls[0]!) || ts.isModuleDeclaration(at.decls[0]!) ? undefined : reach.reaching(file);
    // A file no editor's program holds with the declaration's cannot answer (see within).
    const together = reach.together();
    return found.filter((rel) => (!seeing || seeing.has(rel)) && together(file, rel));
  };
  /**
   * Answers per program: the service hands back the same Program while no file changed (versions
   * are looked at again each question), so a question asked again is answered without the checker.
   * A program an edit replaced is dropped with its answers.
   */
  const answered = new WeakMap<TS.Program, Map<string, unknown>>();
  const remembered = <T>(prog: TS.Program, key: string, compute: () => T): T => {
    let answers = answered.get(prog);
    if (!answers) answered.set(prog, (answers = new Map()));
    if (answers.has(key)) return answers.get(key) as T;
    const value = compute();
    answers.set(key, value);
    return value;
  };
  const keyOf = (op: string, t: CheckerTarget): string => `${op}\0${t.file}\0${t.line}\0${t.endLine}\0${t.name}`;
  /**
   * The program with `t`'s file in it, and the target's declarations there; with the global files
   * (scripts, augmentations) its answer can depend on. For the references of a name scopes resolve
   * alone (resolvedByScope), those that write it; otherwise (a member's references, what a body
   * uses) those the program's files can see (see ts-global-files.ts; widen settles them again
   * once the files using the name are in).
   */
  const locate = (t: CheckerTarget, op: 'references' | 'dependencies' = 'references'): Located | undefined => {
    const find = (): Located | undefined => {
      const prog = program.service().getProgram();
      const sf = prog?.getSourceFile(program.abs(t.file));
      if (!prog || !sf) return undefined;
      const decls = findDeclarations(ts, sf, t);
      return decls.length > 0 ? { prog, sf, decls } : undefined;
    };
    const globals = scope.alwaysIn();
    const word = op === 'references' ? scopedName(t) : undefined;
    if (word !== undefined) program.include([t.file, ...globals.filter((rel) => writes(rel, word))]);
    else {
      program.include([t.file]);
      globalFiles.settle(globals);
    }
    return find();
  };
  /**
   * The name `t`'s uses are written with, when every declaration of it is one scopes resolve
   * (a constructor's: its class's name); undefined otherwise, or when it is a default export (a
   * file imports that under any name). Read from its file's text alone, before any program holds it.
   */
  const scoped = new Map<string, { readonly version: string; readonly word: string | undefined }>();
  const scopedName = (t: CheckerTarget): string | undefined => {
    const key = keyOf('', t);
    const version = program.version(program.abs(t.file));
    const hit = scoped.get(key);
    if (hit?.version === version) return hit.word;
    const text = scope.text(t.file);
    const sf = text === undefined ? undefined : ts.createSourceFile(t.file, text, ts.ScriptTarget.Latest, true);
    const decls = sf ? findDeclarations(ts, sf, t) : [];
    let word: string | undefined;
    if (sf && decls.length > 0 && decls.every((d) => resolvedByScope(ts, d))) {
      const searched = searchedName(ts, sf, decls[0]!, t.name);
      if (!searched.defaultExported) word = searched.name;
    }
    scoped.set(key, { version, word });
    return word;
  };
  const writes = (rel: string, name: string): boolean => {
    const text = scope.text(rel);
    return text === undefined || text.includes(name);
  };
  /** Brings every file that can reference `t` into the program (the declarations are looked up again in it). */
  const widen = (t: CheckerTarget): Located | undefined => {
    let at = locate(t);
    if (!at) return undefined;
    const { name, defaultExported } = searchedName(ts, at.sf, at.decls[0]!, t.name);
    const inProgram = (prog: TS.Program) => (rel: string): boolean => prog.getSourceFile(program.abs(rel)) !== undefined;
    // A file brought in can import others that were not: those are in the program too, nothing to search again.
    if (program.include(users(at, name, defaultExported, inProgram(at.prog)))) at = locate(t);
    return at;
  };

  /** The language service's search for `at`'s declarations, in `files` of its program only. */
  const collect = (at: Located, files: readonly TS.SourceFile[]): Found => {
    const { prog, sf, decls } = at;
    const hits = new Map<string, CheckerHit[]>();
    const chain = new Set<string>();
    const aliases = new Set<string>();
    const seen = new Set<string>();
    for (const decl of decls) {
      for (const group of findIn(prog, files, sf, namePosition(ts, sf, decl)) ?? []) {
        if (group.definition.kind === ts.ScriptElementKind.alias) aliases.add(group.definition.name);
        for (const r of group.references) {
          if (r.isDefinition) continue;
          const rel = keep(r.fileName);
          const refSf = rel === undefined ? undefined : prog.getSourceFile(r.fileName);
          if (rel === undefined || !refSf) continue;
          const node = nodeAt(ts, refSf, r.textSpan.start);
          const hit: CheckerHit = { file: rel, line: lineOf(refSf, r.textSpan.start), kind: node ? usageKind(ts, node) : 'references' };
          // Several uses on one line are one line to read.
          const key = `${rel}:${hit.line}:${hit.kind}`;
          if (seen.has(key)) continue;
          seen.add(key);
          let list = hits.get(refSf.fileName);
          if (!list) hits.set(refSf.fileName, (list = []));
          list.push(hit);
          if (hit.kind === 'imports') chain.add(refSf.fileName);
        }
      }
      // Overloads share one symbol: the first declaration's references are all of them.
      if (!ts.isFunctionLike(decl)) break;
    }
    return { hits, chain, aliases };
  };
  /** The references of `at`: the files an edit since the last search can have changed are searched, the others' kept. */
  const search = (at: Located): Found => {
    // The kind as well: an interface and a namespace (or a function) of one name merge, and their uses differ by meaning.
    const key = `${program.rel(at.sf.fileName)}\0${at.decls[0]!.kind}\0${declarationPath(ts, at.decls[0]!)}`;
    const plan = kept.plan(key, at.prog, program.files, at.sf.fileName);
    const found = plan.all ? collect(at, at.prog.getSourceFiles()) : plan.files.length > 0 ? collect(at, plan.files) : NOTHING;
    lastSearched = plan.all ? at.prog.getSourceFiles().filter((f) => program.rel(f.fileName) !== undefined).length : plan.files.length;
    return kept.store(key, at.prog, program.files, plan, found);
  };
  /** The hits an editor's program holding `file` (the declaration's) would give: see Reach.together. */
  const within = (file: string, hits: readonly CheckerHit[]): CheckerHit[] => {
    const together = reach.together();
    return hits.filter((h) => together(file, h.file));
  };
  const hitsOf = (t: CheckerTarget, found: Found): CheckerHit[] => within(t.file, [...found.hits.values()].flat());

  /**
   * Past the memory budget, the program keeps only what the question just answered needs: files
   * earlier questions brought in leave it (they are parsed again if asked for).
   */
  const trim = (t: CheckerTarget, at: Located, aliases: Iterable<string>): void => {
    if (getHeapStatistics().used_heap_size <= HEAP_BUDGET_BYTES) return;
    const { name, defaultExported } = searchedName(ts, at.sf, at.decls[0]!, t.name);
    const all = (): boolean => false;
    const globals = new Set(scope.alwaysIn());
    program.retain([t.file, ...[...program.roots].filter((rel) => globals.has(rel)), ...users(at, name, defaultExported, all),
      ...[...aliases].flatMap((a) => users(at, a, false, all))]);
    program.service().getProgram();
  };

  const references = (t: CheckerTarget): TargetResult => {
    const at = widen(t);
    if (!at) return { found: false, hits: [] };
    // Files outside the program were searched for the name by widen: the same program is the same answer.
    const first = remembered(at.prog, keyOf('references', t), () => search(at));
    // An alias the text did not show (a rename the pattern missed): files using it join, and the question is asked again.
    const inProgram = (rel: string): boolean => at.prog.getSourceFile(program.abs(rel)) !== undefined;
    const more = [...first.aliases].filter((a) => a !== t.name).flatMap((a) => users(at, a, false, inProgram));
    if (!program.include(more)) {
      if (!warming) trim(t, at, first.aliases);
      return { found: true, hits: hitsOf(t, first) };
    }
    const again = locate(t);
    if (!again) return { found: false, hits: [] };
    const second = remembered(again.prog, keyOf('references', t), () => search(again));
    if (!warming) trim(t, again, second.aliases);
    return { found: true, hits: hitsOf(t, second) };
  };

  const dependencies = (t: CheckerTarget): TargetResult => {
    const at = locate(t, 'dependencies');
    if (!at) return { found: false, hits: [] };
    const found = remembered(at.prog, keyOf('dependencies', t), () => dependenciesIn(at));
    return { found: found.found, hits: within(t.file, found.hits) };
  };

  const dependenciesIn = (at: Located): TargetResult => {
    const { prog, decls } = at;
    const checker = prog.getTypeChecker();
    const members = declaredMembers(ts, checker);
    const inside = (d: TS.Node): boolean => decls.some((o) => o.getSourceFile() === d.getSourceFile() && d.pos >= o.pos && d.end <= o.end);
    const hits: CheckerHit[] = [];
    const seen = new Set<string>();
    const note = (id: TS.Node): void => {
      // A declaration's own name is no use of it, nor of what merges with it (`type X = typeof X`).
      if (isDeclaredName(ts, id)) return;
      let sym = ts.isShorthandPropertyAssignment(id.parent) && id.parent.name === id
        ? checker.getShorthandAssignmentValueSymbol(id.parent) : members(id) ?? checker.getSymbolAtLocation(id);
      if (!sym) return;
      if (sym.flags & ts.SymbolFlags.Alias) sym = checker.getAliasedSymbol(sym);
      const kind = usageKind(ts, id);
      for (const decl of declarationsMeant(ts, id, sym.declarations ?? [])) {
        // `module.exports = function build() {}`: the module's value is declared by the function.
        const d = ts.isBinaryExpression(decl) && (ts.isFunctionExpression(decl.right) || ts.isClassExpression(decl.right))
          && decl.right.name && declaredName(ts, decl) === undefined ? decl.right : decl;
        if (inside(d)) continue;
        const dsf = d.getSourceFile();
        const rel = keep(dsf.fileName);
        const name = declaredName(ts, d);
        if (rel === undefined || name === undefined) continue;
        const line = lineOf(dsf, namePosition(ts, dsf, d));
        const key = `${rel}:${line}:${name}:${kind}`;
        if (seen.has(key)) continue;
        seen.add(key);
        hits.push({ file: rel, line, kind, name });
      }
    };
    /** The constructor a `new X()` or `super()` runs (the class itself is noted from its name). */
    const called = (n: TS.CallLikeExpression): void => {
      const decl = checker.getResolvedSignature(n)?.declaration;
      if (!decl || !ts.isConstructorDeclaration(decl) || inside(decl)) return;
      const dsf = decl.getSourceFile();
      const rel = keep(dsf.fileName);
      const name = declaredName(ts, decl);
      if (rel === undefined || name === undefined) return;
      const line = lineOf(dsf, namePosition(ts, dsf, decl));
      const key = `${rel}:${line}:${name}:calls`;
      if (seen.has(key)) return;
      seen.add(key);
      hits.push({ file: rel, line, kind: 'calls', name });
    };
    const visit = (n: TS.Node): void => {
      if (ts.isIdentifier(n) || ts.isPrivateIdentifier(n)) note(n);
      else if (n.kind === ts.SyntaxKind.ThisKeyword) return;
      else if (ts.isNewExpression(n) || (ts.isCallExpression(n) && n.expression.kind === ts.SyntaxKind.SuperKeyword)) called(n);
      ts.forEachChild(n, visit);
    };
    for (const d of decls) visit(d);
    return { found: true, hits };
  };

  return {
    searched: () => lastSearched,
    programFiles: () => (program.service().getProgram()?.getSourceFiles() ?? []).map((f) => program.rel(f.fileName)).filter((r) => r !== undefined),
    answer(request, projectUnchanged = false) {
      try {
        program.newQuestion(projectUnchanged);
        if (request.files) {
          program.setFiles(request.files);
          hasFiles = true;
        } else if (!hasFiles) return { ok: false, error: NEEDS_FILES };
        if (request.op === 'warm') {
          warming = true;
          try {
            // The program a question about these targets needs (or the libs and global files), parsed and bound.
            program.include(scope.alwaysIn());
            for (const t of request.targets) {
              if (request.replay === 'references') references(t);
              else if (request.replay === 'dependencies') dependencies(t);
              else widen(t);
            }
            program.service().getProgram()?.getTypeChecker();
          } catch (err) {
            if (err instanceof ts.OperationCanceledException) return { ok: false, error: WARM_UP_STOPPED };
            throw err;
          } finally {
            warming = false;
          }
          return { ok: true, results: [] };
        }
        return { ok: true, results: request.targets.map((t) => (request.op === 'references' ? references(t) : dependencies(t))) };
      } catch (err) {
        if (err instanceof ts.OperationCanceledException) return { ok: false, late: true, error: GIVEN_UP };
        return { ok: false, error: err instanceof Error ? err.message : String(err) };
      }
    },
  };
}
