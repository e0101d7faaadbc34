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
import type { ConfigProject, TsProgram } from './ts-program.js';
import type { Scope } from './ts-scope.js';

/** Module specifiers: `from '…'`, `import '…'`, `require('…')`, `import('…')`, `/// <reference path="…"/>`. */
const SPECIFIER = /\bfrom\s*['"]([^'"\n]+)['"]|(?:^|[^\w$.])import\s*['"]([^'"\n]+)['"]|\brequire\s*\(\s*['"]([^'"\n]+)['"]|\bimport\s*\(\s*['"]([^'"\n]+)['"]|<reference\s+path\s*=\s*['"]([^'"\n]+)['"]/g;

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

/** What a file's text imports: module specifiers (with the call that asks for a CommonJS or ESM one) and referenced paths. */
interface Specifiers {
  readonly version: string;
  readonly modules: readonly { readonly spec: string; readonly call?: 'require' | 'import' }[];
  readonly paths: readonly string[];
  readonly pragma: string | undefined;
  /** The project files they resolve to, per set of options (the file's own: undefined). */
  readonly to: Map<TS.CompilerOptions | undefined, readonly string[]>;
}

export interface Reach {
  /** The project files that import `rel`, directly or not (and `rel` itself); undefined when every file can see it (a global file does). */
  reaching(rel: string): ReadonlySet<string> | undefined;
  /**
   * Whether two project files are in one program an editor opens: one per config that lists files
   * (its files and what they import), one inferred for the files none holds. The checker's one
   * program holds them all, so without this a global declared for one config's files (a runtime's
   * `declare namespace`) would bind the same name in a file no config of it sees, and a class
   * would be related to its interface's uses in a config that never holds the class.
   */
  together(): (a: string, b: string) => boolean;
}

interface Programs {
  readonly files: ReadonlySet<string>;
  readonly projects: readonly ConfigProject[];
  readonly imports: readonly Specifiers[];
  readonly test: (a: string, b: string) => boolean;
}

const ANY = (): boolean => true;

export function createReach(program: TsProgram, scope: Scope): Reach {
  const cache = new Map<string, Specifiers>();
  const specifiersOf = (rel: string): Specifiers => {
    const version = program.version(program.abs(rel));
    const hit = cache.get(rel);
    if (hit?.version === version) return hit;
    const text = scope.text(rel) ?? '';
    const modules: { spec: string; call?: 'require' | 'import' }[] = [];
    const paths: string[] = [];
    for (const m of text.matchAll(SPECIFIER)) {
      if (m[5] !== undefined) paths.push(posix.normalize(posix.join(dirname(rel), m[5])));
      else if (m[3] !== undefined) modules.push({ spec: m[3], call: 'require' });
      else if (m[4] !== undefined) modules.push({ spec: m[4], call: 'import' });
      else modules.push({ spec: (m[1] ?? m[2])! });
    }
    // JSX imports its runtime without writing it: from the options' jsxImportSource, or a pragma.
    const entry: Specifiers = { version, modules, paths, pragma: /@jsxImportSource\s+(\S+)/.exec(text)?.[1], to: new Map() };
    cache.set(rel, entry);
    return entry;
  };
  /** The project files `rel` imports: as its own config resolves them, or as the program with `options` does. */
  const importsOf = (rel: string, options?: TS.CompilerOptions): readonly string[] => {
    const s = specifiersOf(rel);
    const hit = s.to.get(options);
    if (hit) return hit;
    const to = new Set<string>();
    const runtime = s.pragma ?? (/\.[jt]sx$/.test(rel) ? program.jsxRuntime(rel, options) : undefined);
    for (const suffix of runtime === undefined ? [] : ['/jsx-runtime', '/jsx-dev-runtime']) {
      const target = program.resolveImport(runtime + suffix, rel, options && { options });
      if (target !== undefined) to.add(target);
    }
    for (const m of s.modules) {
      const target = program.resolveImport(m.spec, rel, options && { options, call: m.call });
      if (target !== undefined) to.add(target);
    }
    for (const p of s.paths) if (program.files.has(p)) to.add(p);
    const list = [...to];
    s.to.set(options, list);
    return list;
  };
  let programs: Programs | undefined;
  /** What a program of `roots` holds: they and what they import, resolved with its options. */
  const closure = (roots: Iterable<string>, options: TS.CompilerOptions): Set<string> => {
    const seen = new Set(roots);
    const queue = [...seen];
    while (queue.length > 0) {
      for (const to of importsOf(queue.pop()!, options)) {
        if (seen.has(to)) continue;
        seen.add(to);
        queue.push(to);
      }
    }
    return seen;
  };
  return {
    together() {
      const projects = program.configProjects();
      const files = program.files;
      // What each file imports is the same object while no file changed: the programs are too.
      const imports = [...files].map(specifiersOf);
      if (programs?.files === files && programs.projects === projects && imports.every((to, i) => to === programs!.imports[i])) return programs.test;
      const groups = projects.map((p) => closure(p.files, p.options));
      const held = new Set(groups.flatMap((g) => [...g]));
      const rest = [...files].filter((f) => !held.has(f));
      if (rest.length > 0) groups.push(closure(rest, program.inferredOptions));
      const of = new Map<string, number[]>();
      groups.forEach((g, i) => {
        for (const f of g) {
          const list = of.get(f);
          if (list) list.push(i);
          else of.set(f, [i]);
        }
      });
      const test = groups.length <= 1 ? ANY : (a: string, b: string): boolean => {
        const ga = of.get(a);
        const gb = of.get(b);
        return a === b || !ga || !gb || ga.some((g) => gb.includes(g));
      };
      programs = { files, projects, imports, test };
      return test;
    },
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
