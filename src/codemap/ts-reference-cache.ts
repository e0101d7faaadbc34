/**
 * References kept per file across programs, so that a question after an edit searches only the
 * files the edit can have changed: the edited file itself; the files that import it, directly or
 * not, when its outward shape changed (ts-shape); when only some top-level declarations changed,
 * the importers that write one of their names or take the module whole, and their importers. Every
 * other file's references stand as they were found (its text and everything it sees are the same).
 * The search is the language service's own (FindAllReferences), handed that subset of the program.
 */
import { dirname, resolve } from 'node:path';
import type * as TS from 'typescript';
import type { CheckerHit } from './checker-protocol.js';
import { fileShape, shapeChange, writesAny, type FileShape } from './ts-shape.js';

type Ts = typeof TS;

/** What one search found, by file (absolute names as the program has them). */
export interface Found {
  readonly hits: ReadonlyMap<string, readonly CheckerHit[]>;
  /** Files whose references include an import or export of the declaration: the links of re-export chains. */
  readonly chain: ReadonlySet<string>;
  readonly aliases: ReadonlySet<string>;
}

interface Entry extends Found {
  /** Each project file's version and text when searched (the texts are the program's own strings). */
  readonly files: ReadonlyMap<string, { readonly version: string; readonly text: string }>;
  /** Everything else the search depended on: options, the project's file list, libraries and dependencies. */
  readonly context: string;
  readonly options: TS.CompilerOptions;
  readonly projectFiles: ReadonlySet<string>;
}

/** The files a search needs: all of them, or these (with the answers of the others kept). */
export type Plan = { readonly all: true } | { readonly all: false; readonly files: readonly TS.SourceFile[] };

/** Targets remembered (each a few maps of the program's own strings and hits). */
const MAX_ENTRIES = 64;
/** Shapes remembered (one per file version). */
const MAX_SHAPES = 4096;

interface Resolutions {
  getResolvedModuleFromModuleSpecifier(lit: TS.StringLiteralLike, sf: TS.SourceFile): TS.ResolvedModuleWithFailedLookupLocations | undefined;
}

/** A script (its names are global) or a module that augments another or the global scope; the flags are the compiler's. */
function isGlobal(sf: TS.SourceFile): boolean {
  const internal = sf as { externalModuleIndicator?: unknown; commonJsModuleIndicator?: unknown; moduleAugmentations?: readonly unknown[] };
  return (internal.externalModuleIndicator === undefined && internal.commonJsModuleIndicator === undefined) || (internal.moduleAugmentations?.length ?? 0) > 0;
}

/** The statements (or calls) of `importer` whose module specifier the program resolves to `fileName`. */
function* importsOf(prog: TS.Program, importer: TS.SourceFile, fileName: string): Generator<TS.Node | undefined> {
  for (const lit of (importer as { imports?: readonly TS.StringLiteralLike[] }).imports ?? []) {
    if ((prog as unknown as Resolutions).getResolvedModuleFromModuleSpecifier(lit, importer)?.resolvedModule?.resolvedFileName === fileName) yield lit.parent as TS.Node | undefined;
  }
}

/**
 * Whether `importer` takes `fileName` whole (its every name, whatever the importer writes): a
 * namespace import, a star re-export, `import()`, `require`, an import type. Named imports and
 * re-exports name what they take.
 */
function takesWhole(ts: Ts, prog: TS.Program, importer: TS.SourceFile, fileName: string): boolean {
  for (const p of importsOf(prog, importer, fileName)) {
    if (!p) return true;
    const named = (ts.isImportDeclaration(p) && (!p.importClause?.namedBindings || ts.isNamedImports(p.importClause.namedBindings)))
      || (ts.isExportDeclaration(p) && p.exportClause !== undefined && ts.isNamedExports(p.exportClause));
    if (!named) return true;
  }
  return false;
}

/**
 * Whether `importer` exports `fileName`'s declarations on without naming them: `export * from`,
 * `export * as ns from`, or a whole import (namespace, `require`) in a file that exports anything
 * not declared in it (`export { ns }`, `module.exports = require(…)`).
 */
function passesOnWhole(ts: Ts, prog: TS.Program, importer: TS.SourceFile, fileName: string): boolean {
  for (const p of importsOf(prog, importer, fileName)) {
    if (p && ts.isExportDeclaration(p) && (!p.exportClause || ts.isNamespaceExport(p.exportClause))) return true;
  }
  return takesWhole(ts, prog, importer, fileName) && (importer.statements.some((st) => ts.isExportAssignment(st) || (ts.isExportDeclaration(st) && !st.moduleSpecifier))
    || /\bmodule\.exports\b|\bexports\.[\w$]+\s*=/.test(importer.text));
}

const versionOf = (sf: TS.SourceFile): string => (sf as { version?: string }).version ?? '';

export interface ReferenceCache {
  /** What must be searched again for `key` (declared in `declaredIn`) in `prog`. */
  plan(key: string, prog: TS.Program, projectFiles: ReadonlySet<string>, declaredIn: string): Plan;
  /** Merges a search over `plan`'s files into what was kept, and keeps the result. */
  store(key: string, prog: TS.Program, projectFiles: ReadonlySet<string>, plan: Plan, found: Found): Found;
}

export function createReferenceCache(ts: Ts, isProject: (fileName: string) => boolean): ReferenceCache {
  const entries = new Map<string, Entry>();
  const shapes = new Map<string, FileShape>();
  const importers = new WeakMap<TS.Program, Map<string, Set<string>>>();

  const shapeOf = (fileName: string, version: string, sfOrText: TS.SourceFile | string, target: TS.ScriptTarget): FileShape => {
    const key = `${fileName}\0${version}`;
    let s = shapes.get(key);
    if (!s) {
      const sf = typeof sfOrText === 'string' ? ts.createSourceFile(fileName, sfOrText, target, false) : sfOrText;
      s = fileShape(ts, sf);
      if (shapes.size >= MAX_SHAPES) shapes.clear();
      shapes.set(key, s);
    }
    return s;
  };

  /**
   * What each project file imports, kept with its SourceFile: a file no edit touched is the same
   * object in the next program, and resolves as before while the options and the file list hold
   * (looking every resolution up again cost more than the search after a one-file edit).
   */
  const imported = new WeakMap<TS.SourceFile, { readonly options: TS.CompilerOptions; readonly files: ReadonlySet<string>; readonly to: readonly string[] }>();
  /** Who imports each project file (its module specifiers as the program resolved them, and `/// <reference path>`). */
  const importersIn = (prog: TS.Program, projectFiles: ReadonlySet<string>): Map<string, Set<string>> => {
    let map = importers.get(prog);
    if (map) return map;
    map = new Map();
    const options = prog.getCompilerOptions();
    for (const sf of prog.getSourceFiles()) {
      if (!isProject(sf.fileName)) continue;
      let known = imported.get(sf);
      if (known?.options !== options || known.files !== projectFiles) {
        const to: string[] = [];
        // `imports` (every module specifier of the file: imports, exports, require, import types) and the
        // lookup of its resolution are internal to the compiler, and what its own builder walks.
        for (const lit of (sf as { imports?: readonly TS.StringLiteralLike[] }).imports ?? []) {
          const target = (prog as unknown as Resolutions).getResolvedModuleFromModuleSpecifier(lit, sf)?.resolvedModule?.resolvedFileName;
          if (target) to.push(target);
        }
        for (const ref of sf.referencedFiles) to.push(resolve(dirname(sf.fileName), ref.fileName));
        imported.set(sf, (known = { options, files: projectFiles, to }));
      }
      for (const to of known.to) {
        let set = map.get(to);
        if (!set) map.set(to, (set = new Set()));
        set.add(sf.fileName);
      }
    }
    importers.set(prog, map);
    return map;
  };

  // Every non-project file (libs, dependencies' .d.ts) by version: asked twice per search, built once.
  const contexts = new WeakMap<TS.Program, string>();
  const contextOf = (prog: TS.Program): string => {
    let context = contexts.get(prog);
    if (context === undefined) {
      context = prog.getSourceFiles().filter((sf) => !isProject(sf.fileName)).map((sf) => `${sf.fileName}:${versionOf(sf)}`).join('|');
      contexts.set(prog, context);
    }
    return context;
  };

  return {
    plan(key, prog, projectFiles, declaredIn) {
      const entry = entries.get(key);
      if (!entry || entry.options !== prog.getCompilerOptions() || entry.projectFiles !== projectFiles || entry.context !== contextOf(prog)) return { all: true };
      const target = prog.getCompilerOptions().target ?? ts.ScriptTarget.ESNext;
      const stale = new Set<string>();
      const sources = prog.getSourceFiles().filter((sf) => isProject(sf.fileName));
      /** Marks every file that imports `fileName`, directly or not; false when a global file does (then any file can see it). */
      const everyImporter = (fileName: string): boolean => {
        const by = importersIn(prog, projectFiles);
        const queue = [fileName];
        while (queue.length > 0) {
          for (const from of by.get(queue.pop()!) ?? []) {
            if (stale.has(from)) continue;
            const sf = prog.getSourceFile(from);
            // A script or an augmentation passes what it imports on to every file (an ambient module is resolved to no file).
            if (!sf || isGlobal(sf)) return false;
            stale.add(from);
            queue.push(from);
          }
        }
        return true;
      };
      for (const sf of sources) {
        const was = entry.files.get(sf.fileName);
        const version = versionOf(sf);
        if (was?.version === version) continue;
        stale.add(sf.fileName);
        // A file the last search did not see: it came into the program (its own references are searched).
        if (!was) continue;
        const change = shapeChange(shapeOf(sf.fileName, was.version, was.text, target), shapeOf(sf.fileName, version, sf, target));
        if (change.kind === 'changed') {
          if (change.everywhere || !everyImporter(sf.fileName)) return { all: true };
        } else if (change.kind === 'names') {
          // Only a direct importer that writes a changed name, or takes the whole module, sees the change (and passes it on).
          for (const from of importersIn(prog, projectFiles).get(sf.fileName) ?? []) {
            const importer = prog.getSourceFile(from);
            if (!importer || stale.has(from) || !(writesAny(importer.text, change.names) || takesWhole(ts, prog, importer, sf.fileName))) continue;
            if (isGlobal(importer)) return { all: true };
            stale.add(from);
            if (!everyImporter(from)) return { all: true };
          }
        }
      }
      if (stale.size === 0) return { all: false, files: [] };
      // The search follows imports only through the files it is handed: the chain's links, and the
      // modules that pass the declaration's module (or a link) on whole without naming it (`export *`).
      const wanted = new Set([...stale, ...entry.chain]);
      const queue = [declaredIn, ...entry.chain];
      const by = importersIn(prog, projectFiles);
      while (queue.length > 0) {
        const at = queue.pop()!;
        for (const from of by.get(at) ?? []) {
          const importer = prog.getSourceFile(from);
          if (wanted.has(from) || !importer || !passesOnWhole(ts, prog, importer, at)) continue;
          wanted.add(from);
          queue.push(from);
        }
      }
      const files = sources.filter((sf) => wanted.has(sf.fileName));
      return files.length >= sources.length ? { all: true } : { all: false, files };
    },
    store(key, prog, projectFiles, plan, found) {
      const before = entries.get(key);
      const hits = new Map<string, readonly CheckerHit[]>();
      const chain = new Set<string>();
      const searched = plan.all ? undefined : new Set(plan.files.map((f) => f.fileName));
      const files = new Map<string, { version: string; text: string }>();
      for (const sf of prog.getSourceFiles()) {
        if (!isProject(sf.fileName)) continue;
        files.set(sf.fileName, { version: versionOf(sf), text: sf.text });
        const fresh = !searched || searched.has(sf.fileName);
        const list = fresh ? found.hits.get(sf.fileName) : before?.hits.get(sf.fileName);
        if (list && list.length > 0) hits.set(sf.fileName, list);
        if (fresh ? found.chain.has(sf.fileName) : before?.chain.has(sf.fileName)) chain.add(sf.fileName);
      }
      const aliases = new Set([...(plan.all ? [] : before?.aliases ?? []), ...found.aliases]);
      const entry: Entry = { hits, chain, aliases, files, context: contextOf(prog), options: prog.getCompilerOptions(), projectFiles };
      entries.delete(key);
      if (entries.size >= MAX_ENTRIES) entries.delete(entries.keys().next().value!);
      entries.set(key, entry);
      return entry;
    },
  };
}
