/**
 * The names through which a global file (a script, or a module that augments another module or the
 * global scope) can change what another file's code means. Its global declarations are reached
 * by their names, and what an augmentation adds to an interface or namespace by the added members'
 * names: a file that writes none of them cannot see any of it, nor can a question about what that
 * file uses. So the checker's program needs a global file only when one of its files writes one
 * of those names.
 *
 * Some declarations change a type without a name of their own to be reached by: an index, call or
 * construct signature, a base type (`extends`, `implements`), a re-export. A file with one of
 * those in its global part is needed in every program (undefined).
 */
import type * as TS from 'typescript';
import type { TsProgram } from './ts-program.js';
import { wholeWords, type Scope } from './ts-scope.js';

type Ts = typeof TS;

/** The names of `sf`'s global declarations; undefined when some of them are reached without a name. */
export function globalNames(ts: Ts, sf: TS.SourceFile): ReadonlySet<string> | undefined {
  const names = new Set<string>();
  let always = false;
  const add = (name: TS.Node | undefined): void => {
    if (!name) return;
    if (ts.isIdentifier(name) || ts.isPrivateIdentifier(name) || ts.isStringLiteral(name) || ts.isNumericLiteral(name)) names.add(name.text);
    else if (ts.isObjectBindingPattern(name) || ts.isArrayBindingPattern(name)) {
      for (const e of name.elements) if (ts.isBindingElement(e)) add(e.name);
    } else always = true; // a computed name: reached by whatever it computes
  };
  /** Members of an interface, class, type literal or enum: each reached by its name. */
  const members = (list: readonly (TS.TypeElement | TS.ClassElement | TS.EnumMember)[]): void => {
    for (const m of list) {
      if (ts.isIndexSignatureDeclaration(m) || ts.isCallSignatureDeclaration(m) || ts.isConstructSignatureDeclaration(m)) always = true;
      else if (ts.isClassStaticBlockDeclaration(m) || ts.isSemicolonClassElement(m)) continue;
      // (What a member's own type holds is reached through the member's name.)
      else add(m.name);
    }
  };
  const heritage = (n: TS.InterfaceDeclaration | TS.ClassLikeDeclaration): void => {
    if ((n.heritageClauses?.length ?? 0) > 0) always = true;
  };
  /**
   * The declarations of a global scope: `top`, a script's top level or `declare global`; otherwise
   * a module augmentation's body, whose interfaces and namespaces merge with the augmented module's
   * (reached through what they add, not their own names).
   */
  const statements = (list: readonly TS.Statement[], top: boolean): void => {
    for (const s of list) {
      if (ts.isInterfaceDeclaration(s)) {
        if (top) add(s.name);
        heritage(s);
        members(s.members);
      } else if (ts.isClassDeclaration(s)) {
        add(s.name);
        heritage(s);
        members(s.members);
      } else if (ts.isEnumDeclaration(s)) {
        add(s.name);
        members(s.members);
      } else if (ts.isFunctionDeclaration(s)) add(s.name);
      else if (ts.isTypeAliasDeclaration(s)) add(s.name);
      else if (ts.isVariableStatement(s)) {
        for (const d of s.declarationList.declarations) add(d.name);
      } else if (ts.isModuleDeclaration(s)) module(s, top);
      else if (ts.isImportEqualsDeclaration(s)) add(s.name);
      else if (ts.isExportDeclaration(s) || ts.isExportAssignment(s) || ts.isImportDeclaration(s)) always = true;
      else if (ts.isExpressionStatement(s)) assigned(s.expression);
    }
  };
  /** `X.prototype.y = …`, `a.b = …` in a JS script: expando members, reached by their names (every name on the left). */
  const assigned = (e: TS.Expression): void => {
    if (!ts.isBinaryExpression(e) || e.operatorToken.kind !== ts.SyntaxKind.EqualsToken) return;
    const visit = (n: TS.Node): void => {
      if (ts.isIdentifier(n)) names.add(n.text);
      else if (ts.isElementAccessExpression(n) && !ts.isStringLiteralLike(n.argumentExpression)) always = true;
      ts.forEachChild(n, visit);
    };
    visit(e.left);
  };
  /** A namespace (global or nested) or a module declaration: `declare module 'x'` in a script declares the module 'x'. */
  const module = (m: TS.ModuleDeclaration, top: boolean): void => {
    const global = (m.flags & ts.NodeFlags.GlobalAugmentation) !== 0;
    const external = ts.isStringLiteral(m.name);
    // A namespace is reached by its name; a module declared in a script, by the specifier that imports
    // it (a pattern, `declare module '*.svg'`, by specifiers that never write it).
    if (external && top && m.name.text.includes('*')) always = true;
    if (!global && (top || !external)) add(m.name);
    let body: TS.ModuleBody | undefined = m.body;
    while (body && ts.isModuleDeclaration(body)) {
      add(body.name);
      body = body.body;
    }
    // `declare module 'x';` in a script: every import of 'x' is typed any (reached by the specifier).
    if (!body) {
      if (!top) always = true;
      return;
    }
    if (ts.isModuleBlock(body)) statements(body.statements, global || top);
  };
  // `/// <reference types="vite/client" />` and the like: what they bring in is global, unnamed here.
  if (sf.referencedFiles.length > 0 || sf.typeReferenceDirectives.length > 0 || sf.libReferenceDirectives.length > 0) return undefined;
  if (ts.isExternalModule(sf)) {
    // A module: only its augmentations are global.
    for (const s of sf.statements) {
      if (ts.isModuleDeclaration(s) && (ts.isStringLiteral(s.name) || (s.flags & ts.NodeFlags.GlobalAugmentation) !== 0)) module(s, false);
    }
  } else statements(sf.statements, true);
  return always ? undefined : names;
}

export interface GlobalFiles {
  /**
   * Brings into the program the global files its files can see (they write one of the names), and
   * those the files they bring in can see, until none is left.
   */
  settle(globals: readonly string[]): void;
}

export function createGlobalFiles(ts: Ts, program: TsProgram, scope: Scope): GlobalFiles {
  /** Each global file's names, read from its text alone, by version. */
  const namesByFile = new Map<string, { readonly version: string; readonly names: ReadonlySet<string> | undefined }>();
  const namesOf = (rel: string): ReadonlySet<string> | undefined => {
    const version = program.version(program.abs(rel));
    const hit = namesByFile.get(rel);
    if (hit?.version === version) return hit.names;
    const text = scope.text(rel);
    const names = text === undefined ? new Set<string>() : globalNames(ts, ts.createSourceFile(rel, text, ts.ScriptTarget.Latest, false));
    namesByFile.set(rel, { version, names });
    return names;
  };
  /** Whether a file of `prog` other than the libs (a dependency's declarations too) writes one of the names. */
  /** Each set of names as a list and a pattern (made once per version of its file). */
  const patterns = new WeakMap<ReadonlySet<string>, { readonly list: readonly string[]; readonly words: RegExp }>();
  const writtenIn = (prog: TS.Program, names: ReadonlySet<string>, self: string): boolean => {
    if (names.size === 0) return false;
    let pattern = patterns.get(names);
    if (!pattern) patterns.set(names, (pattern = { list: [...names], words: wholeWords([...names]) }));
    const { list, words } = pattern;
    for (const sf of prog.getSourceFiles()) {
      if (sf.fileName === self || prog.isSourceFileDefaultLibrary(sf)) continue;
      const text = sf.text;
      if (list.some((n) => text.includes(n)) && words.test(text)) return true;
    }
    return false;
  };
  /** Programs whose global files are settled. */
  const settled = new WeakSet<TS.Program>();
  return {
    settle(globals) {
      for (;;) {
        const prog = program.service().getProgram();
        if (!prog || settled.has(prog)) return;
        const needed = globals.filter((rel) => {
          const abs = program.abs(rel);
          if (prog.getSourceFile(abs)) return false;
          const names = namesOf(rel);
          return names === undefined || writtenIn(prog, names, abs);
        });
        if (!program.include(needed)) {
          settled.add(prog);
          return;
        }
      }
    },
  };
}
