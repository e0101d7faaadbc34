/**
 * Which project files can see a module's declarations: those that import it, directly or through
 * other modules (every type a file has comes from what it imports, or from the global scope). A
 * question about a symbol then leaves out files that merely write its name — `save`, `get`, `include`
 * are words in most files of a large project. Imports are found by a pattern over the text (a
 * parse of every file to list them would cost more than the question) and resolved as the checker's
 * program resolves them; a pattern that finds too many only keeps more files in.
 */
import { dirname, posix } from 'node:path';
import type * as TS from 'typescript';
import type { TsProgram } from './ts-program.js';
import type { Scope } from './ts-scope.js';

/** Module specifiers: `from '…'`, `import '…'`, `import('…')`, `require('…')`, `/// <reference path="…"/>`. */
const SPECIFIER = /\bfrom\s*['"]([^'"\n]+)['"]|(?:^|[^\w$.])import\s*['"]([^'"\n]+)['"]|\b(?:require|import)\s*\(\s*['"]([^'"\n]+)['"]|<reference\s+path\s*=\s*['"]([^'"\n]+)['"]/g;

/**
 * Whether the language service relates `decl` to declarations of other modules than its own: a
 * member of a class or interface with bases (their members, their other implementations), or of an
 * object literal or type literal (the members of the type its context gives it).
 */
export function inherits(ts: typeof TS, decl: TS.Node): boolean {
  for (let n = decl.parent; n && !ts.isSourceFile(n); n = n.parent) {
    if (ts.isObjectLiteralExpression(n) || ts.isTypeLiteralNode(n)) return true;
    if ((ts.isClassLike(n) || ts.isInterfaceDeclaration(n))
      && ((n.heritageClauses?.length ?? 0) > 0 || ts.getJSDocImplementsTags(n).length > 0 || ts.getJSDocAugmentsTag(n) !== undefined)) return true;
  }
  return false;
}

interface Imports { readonly version: string; readonly to: readonly string[] }

export interface Reach {
  /** The project files that import `rel`, directly or not (and `rel` itself); undefined when every file can see it (a global file does). */
  reaching(rel: string): ReadonlySet<string> | undefined;
}

export function createReach(program: TsProgram, scope: Scope): Reach {
  const cache = new Map<string, Imports>();
  const importsOf = (rel: string): readonly string[] => {
    const version = program.version(program.abs(rel));
    const hit = cache.get(rel);
    if (hit?.version === version) return hit.to;
    const to = new Set<string>();
    const text = scope.text(rel) ?? '';
    // JSX imports its runtime without writing it: from the options' jsxImportSource, or a pragma.
    const pragma = /@jsxImportSource\s+(\S+)/.exec(text)?.[1];
    const runtime = pragma ?? (/\.[jt]sx$/.test(rel) ? program.jsxRuntime(rel) : undefined);
    for (const suffix of runtime === undefined ? [] : ['/jsx-runtime', '/jsx-dev-runtime']) {
      const target = program.resolveImport(runtime + suffix, rel);
      if (target !== undefined) to.add(target);
    }
    for (const m of text.matchAll(SPECIFIER)) {
      const ref = m[4];
      const target = ref !== undefined ? posix.normalize(posix.join(dirname(rel), ref)) : program.resolveImport(m[1] ?? m[2] ?? m[3]!, rel);
      if (target !== undefined && program.files.has(target)) to.add(target);
    }
    const entry = { version, to: [...to] };
    cache.set(rel, entry);
    return entry.to;
  };
  return {
    reaching(rel) {
      const global = new Set(scope.alwaysIn());
      if (global.has(rel)) return undefined;
      const by = new Map<string, string[]>();
      for (const f of program.files) {
        for (const to of importsOf(f)) {
          let list = by.get(to);
          if (!list) by.set(to, (list = []));
          list.push(f);
        }
      }
      const seen = new Set([rel]);
      const queue = [rel];
      while (queue.length > 0) {
        for (const from of by.get(queue.pop()!) ?? []) {
          if (seen.has(from)) continue;
          // A global file passes what it imports on to every file.
          if (global.has(from)) return undefined;
          seen.add(from);
          queue.push(from);
        }
      }
      return seen;
    },
  };
}
