/**
 * The symbol tools' questions answered by the TypeScript checker: who references a declaration
 * (the language service's findReferences, minus the declarations themselves), and what a
 * declaration's body calls and which types it names (every identifier in it resolved by the checker).
 * Answers are positions; the caller maps them to code map symbols.
 */
import { readFileSync } from 'node:fs';
import type * as TS from 'typescript';
import { skipReason } from './index-file.js';
import type { CheckerAnswer, CheckerHit, CheckerRequest, CheckerTarget, TargetResult } from './checker-protocol.js';
import { createTsProgram, type TsProgram } from './ts-program.js';
import { createScope, moduleWord } from './ts-scope.js';
import type { EdgeKind } from './types.js';

type Ts = typeof TS;

function lineOf(sf: TS.SourceFile, pos: number): number {
  return sf.getLineAndCharacterOfPosition(pos).line + 1;
}

/** The innermost token-level node at `pos` (an identifier, a keyword). */
function nodeAt(ts: Ts, sf: TS.SourceFile, pos: number): TS.Node | undefined {
  let found: TS.Node | undefined;
  const visit = (n: TS.Node): void => {
    if (pos < n.getStart(sf) || pos >= n.getEnd()) return;
    found = n;
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return found;
}

/** How a name is used where it is written: called, extended, named as a type, imported. */
export function usageKind(ts: Ts, node: TS.Node): EdgeKind {
  let cur: TS.Node = node;
  // `a.b.c()`: climb the access chain only while `cur` is the name being accessed.
  while (cur.parent && (ts.isPropertyAccessExpression(cur.parent) || ts.isQualifiedName(cur.parent))
    && (ts.isPropertyAccessExpression(cur.parent) ? cur.parent.name === cur : cur.parent.right === cur)) cur = cur.parent;
  const p = cur.parent;
  if (!p) return 'references';
  if ((ts.isCallExpression(p) || ts.isNewExpression(p) || ts.isDecorator(p)) && p.expression === cur) return 'calls';
  if (ts.isTaggedTemplateExpression(p) && p.tag === cur) return 'calls';
  if ((ts.isJsxOpeningElement(p) || ts.isJsxSelfClosingElement(p) || ts.isJsxClosingElement(p)) && p.tagName === cur) return 'calls';
  for (let a: TS.Node | undefined = p; a && !ts.isSourceFile(a); a = a.parent) {
    if (ts.isImportDeclaration(a) || ts.isImportEqualsDeclaration(a) || ts.isExportDeclaration(a) || ts.isExportAssignment(a)) return 'imports';
    if (ts.isHeritageClause(a)) return a.token === ts.SyntaxKind.ImplementsKeyword ? 'implements' : 'extends';
    if (ts.isBlock(a) || ts.isClassLike(a) || ts.isFunctionLike(a) || ts.isVariableDeclaration(a)) break;
  }
  return 'references';
}

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

/** The name a declaration is known by in the code map ('constructor', 'default' for anonymous defaults). */
function declaredName(ts: Ts, d: TS.Declaration): string | undefined {
  if (ts.isConstructorDeclaration(d)) return 'constructor';
  const n = ts.getNameOfDeclaration(d);
  if (n && (ts.isIdentifier(n) || ts.isPrivateIdentifier(n) || ts.isStringLiteral(n) || ts.isNumericLiteral(n))) return n.text;
  if ((ts.isFunctionDeclaration(d) || ts.isClassDeclaration(d)) && !d.name) return 'default';
  return undefined;
}

/** The position of a declaration's name (the keyword for constructors and anonymous defaults). */
function namePosition(ts: Ts, sf: TS.SourceFile, d: TS.Node): number {
  const n = ts.getNameOfDeclaration(d as TS.Declaration);
  if (n) return n.getStart(sf);
  const kw = d.getChildren(sf).find((c) => c.kind === ts.SyntaxKind.ConstructorKeyword || c.kind === ts.SyntaxKind.DefaultKeyword);
  return (kw ?? d).getStart(sf);
}

/**
 * Expressions that declare a name in JavaScript: `exports.f = …`, `X.prototype.m = function`
 * (assignments the checker binds as declarations) and named function or class values
 * (`module.exports = function build() {}`).
 */
function declaresInJs(ts: Ts, n: TS.Node): boolean {
  return ts.isBinaryExpression(n) || ((ts.isFunctionExpression(n) || ts.isClassExpression(n)) && n.name !== undefined);
}

/** The outermost declarations named `t.name` whose name lies in the target's lines (overloads: several). */
function findDeclarations(ts: Ts, sf: TS.SourceFile, t: CheckerTarget): TS.Node[] {
  const out: TS.Node[] = [];
  const visit = (n: TS.Node): void => {
    const start = lineOf(sf, n.getStart(sf));
    const end = lineOf(sf, n.getEnd());
    if (end < t.line || start > t.endLine) return;
    const name = declaredName(ts, n as TS.Declaration);
    if (name === t.name && !ts.isParameter(n) && !ts.isImportSpecifier(n) && !ts.isExportSpecifier(n) && (!ts.isExpression(n) || declaresInJs(ts, n))) {
      const at = lineOf(sf, namePosition(ts, sf, n));
      if (at >= t.line && at <= t.endLine) {
        out.push(n);
        return;
      }
    }
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return out;
}

const DEFAULT_EXPORT = (name: string): RegExp =>
  new RegExp(`export\\s+default\\s+(?:(?:abstract\\s+)?class|(?:async\\s+)?function\\*?)?\\s*${name.replace(/\$/g, '\\$')}\\b|export\\s*=\\s*${name.replace(/\$/g, '\\$')}\\b|module\\.exports\\s*=\\s*${name.replace(/\$/g, '\\$')}\\b`);

/**
 * The name uses of a declaration are written with (a constructor: its class's), and whether its
 * module exports it as a default (imported under any name, found by the module's path).
 */
function searchedName(ts: Ts, sf: TS.SourceFile, decl: TS.Node, name: string): { name: string; defaultExported: boolean } {
  let owner: TS.Node = decl;
  let word = name;
  if (ts.isConstructorDeclaration(decl) && ts.isClassLike(decl.parent)) {
    owner = decl.parent;
    word = decl.parent.name?.text ?? 'default';
  }
  const modifiers = ts.canHaveModifiers(owner) ? ts.getModifiers(owner) ?? [] : [];
  const defaultExported = word === 'default' || modifiers.some((m) => m.kind === ts.SyntaxKind.DefaultKeyword)
    || (/^[\w$]+$/.test(word) && DEFAULT_EXPORT(word).test(sf.text));
  return { name: word === 'default' ? moduleWord(sf.fileName) : word, defaultExported };
}

/** The answer to a request without files to a checker that never got any (a new worker): send them. */
export const NEEDS_FILES = 'the checker needs the project\'s file list';

interface Located {
  readonly prog: TS.Program;
  readonly sf: TS.SourceFile;
  readonly decls: TS.Node[];
}

export interface TsChecker {
  answer(request: CheckerRequest): CheckerAnswer;
}

export function createTsChecker(ts: Ts, root: string): TsChecker {
  const program: TsProgram = createTsProgram(ts, root);
  const generated = new Map<string, boolean>();
  let hasFiles = false;
  const keep = (fileName: string): string | undefined => {
    const rel = program.rel(fileName);
    return rel !== undefined && !isGenerated(generated, fileName) ? rel : undefined;
  };

  const scope = createScope(program);
  /** The program with `t`'s file in it, and the target's declarations there. */
  const locate = (t: CheckerTarget): Located | undefined => {
    program.include([t.file, ...scope.alwaysIn()]);
    const prog = program.service().getProgram();
    const sf = prog?.getSourceFile(program.abs(t.file));
    if (!prog || !sf) return undefined;
    const decls = findDeclarations(ts, sf, t);
    return decls.length > 0 ? { prog, sf, decls } : undefined;
  };
  /** Brings every file that can reference `t` into the program (the declarations are looked up again in it). */
  const widen = (t: CheckerTarget): Located | undefined => {
    let at = locate(t);
    if (!at) return undefined;
    const { name, defaultExported } = searchedName(ts, at.sf, at.decls[0]!, t.name);
    const inProgram = (prog: TS.Program) => (rel: string): boolean => prog.getSourceFile(program.abs(rel)) !== undefined;
    // A file brought in can import others that were not: those are in the program too, nothing to search again.
    if (program.include(scope.users(name, t.file, defaultExported, inProgram(at.prog)))) at = locate(t);
    return at;
  };

  const collect = (at: Located): { hits: CheckerHit[]; aliases: Set<string> } => {
    const ls = program.service();
    const { prog, sf, decls } = at;
    const hits: CheckerHit[] = [];
    const aliases = new Set<string>();
    const seen = new Set<string>();
    for (const decl of decls) {
      for (const group of ls.findReferences(sf.fileName, namePosition(ts, sf, decl)) ?? []) {
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
          hits.push(hit);
        }
      }
      // Overloads share one symbol: the first declaration's references are all of them.
      if (!ts.isFunctionLike(decl)) break;
    }
    return { hits, aliases };
  };

  const references = (t: CheckerTarget): TargetResult => {
    const at = widen(t);
    if (!at) return { found: false, hits: [] };
    const first = collect(at);
    // An alias the text did not show (a rename the pattern missed): files using it join, and the question is asked again.
    const inProgram = (rel: string): boolean => at.prog.getSourceFile(program.abs(rel)) !== undefined;
    const more = [...first.aliases].filter((a) => a !== t.name).flatMap((a) => scope.users(a, t.file, false, inProgram));
    if (!program.include(more)) return { found: true, hits: first.hits };
    const again = locate(t);
    return again ? { found: true, hits: collect(again).hits } : { found: false, hits: [] };
  };

  const dependencies = (t: CheckerTarget): TargetResult => {
    const at = locate(t);
    if (!at) return { found: false, hits: [] };
    const { prog, decls } = at;
    const checker = prog.getTypeChecker();
    const inside = (d: TS.Node): boolean => decls.some((o) => o.getSourceFile() === d.getSourceFile() && d.pos >= o.pos && d.end <= o.end);
    const hits: CheckerHit[] = [];
    const seen = new Set<string>();
    const note = (id: TS.Node): void => {
      let sym = ts.isShorthandPropertyAssignment(id.parent) && id.parent.name === id
        ? checker.getShorthandAssignmentValueSymbol(id.parent) : checker.getSymbolAtLocation(id);
      if (!sym) return;
      if (sym.flags & ts.SymbolFlags.Alias) sym = checker.getAliasedSymbol(sym);
      const kind = usageKind(ts, id);
      for (const decl of sym.declarations ?? []) {
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
    answer(request) {
      try {
        if (request.files) {
          program.setFiles(request.files);
          hasFiles = true;
        } else if (!hasFiles) return { ok: false, error: NEEDS_FILES };
        if (request.op === 'warm') {
          // The program a question about these targets needs (or the libs and global files), parsed and bound.
          program.include(scope.alwaysIn());
          for (const t of request.targets) widen(t);
          program.service().getProgram()?.getTypeChecker();
          return { ok: true, results: [] };
        }
        return { ok: true, results: request.targets.map((t) => (request.op === 'references' ? references(t) : dependencies(t))) };
      } catch (err) {
        return { ok: false, error: err instanceof Error ? err.message : String(err) };
      }
    },
  };
}
