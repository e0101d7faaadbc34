/**
 * A TypeScript language service over the project's TS/JS files, for the symbol tools. The host is
 * versioned by each file's size and mtime, so an edit (by the agent, bash or git) is picked up by
 * the next query with only that file parsed again (the document registry keeps every other
 * SourceFile, already bound); nothing is watched and nothing is written.
 *
 * The program holds only the files questions so far needed (its roots: `include`), plus what they
 * import: a question about a symbol parses the files that can use it, not the whole project.
 */
import { statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type * as TS from 'typescript';
import { inferredOptions, readProjectConfigs, type ProjectConfigs } from './ts-configs.js';

type Ts = typeof TS;

export interface TsProgram {
  /** Sets the project's TS/JS files (project-relative); files no longer among them leave the program. */
  setFiles(files: readonly string[]): void;
  readonly files: ReadonlySet<string>;
  /** Adds project files to the program's roots; true when one was not there yet. */
  include(rels: Iterable<string>): boolean;
  /** Makes these project files the only roots (what only earlier questions needed leaves the program). */
  retain(rels: Iterable<string>): void;
  /** The program's roots. */
  readonly roots: ReadonlySet<string>;
  service(): TS.LanguageService;
  /**
   * The project file an import in `fromRel` resolves to, as the program resolves it (undefined: none,
   * or outside the project); with `within`, as the program of that config (ConfigProject.options) does.
   */
  resolveImport(spec: string, fromRel: string, within?: Within): string | undefined;
  /** The module JSX in `rel` imports its factory from, implicitly (`jsxImportSource`), if the options say one. */
  jsxRuntime(rel: string, options?: TS.CompilerOptions): string | undefined;
  abs(rel: string): string;
  /** Project-relative path of a program file, undefined for files outside the project set. */
  rel(fileName: string): string | undefined;
  /** The version the host gives a file (size and mtime), 'missing' when it cannot be read. */
  version(fileName: string): string;
  /**
   * A new question: files are looked at again (an edit since the last one is seen); the project's
   * own only when `projectUnchanged` is false (the checker host's folder watch says so).
   */
  newQuestion(projectUnchanged?: boolean): void;
  /** The project files each config lists (as ProjectConfigs.projects), with its options; the same array while the configs hold. */
  configProjects(): readonly ConfigProject[];
  /** The options of the program an editor infers for the files no config holds. */
  readonly inferredOptions: TS.CompilerOptions;
}

export interface ConfigProject {
  readonly files: readonly string[];
  readonly options: TS.CompilerOptions;
}

/** An import resolved as one config's program resolves it: with its options, in the mode the statement asks. */
export interface Within {
  readonly options: TS.CompilerOptions;
  /** `require()` and `import()` say their mode; a static import takes the importing file's format. */
  readonly call?: 'require' | 'import';
}

/** Options every checker program gets, whatever the project asks: nothing is emitted or reported. */
export function forQueries(ts: Ts, options: TS.CompilerOptions): TS.CompilerOptions {
  const out: TS.CompilerOptions = { ...options, allowJs: true, checkJs: false, noEmit: true, skipLibCheck: true, maxNodeModuleJsDepth: 0 };
  for (const key of ['composite', 'declaration', 'declarationMap', 'emitDeclarationOnly', 'incremental', 'tsBuildInfoFile', 'outDir', 'outFile', 'rootDir', 'sourceMap', 'plugins', 'configFilePath'] as const) {
    delete out[key];
  }
  if (out.jsx === undefined) out.jsx = ts.JsxEmit.Preserve;
  return out;
}

const JS_FILE = /\.(js|jsx|mjs|cjs)$/i;

/**
 * Two registries: the project's files keep every JSDoc comment (findReferences reports uses inside
 * them); the libs and declaration files of dependencies are parsed without, as JSDoc in a .d.ts
 * never changes a type (lib.dom.d.ts alone is 2 MB, mostly doc comments).
 */
function splitRegistry(ts: Ts, root: string, isProject: (fileName: string) => boolean): TS.DocumentRegistry {
  const full = ts.createDocumentRegistry(ts.sys.useCaseSensitiveFileNames, root);
  const lean = ts.createDocumentRegistry(ts.sys.useCaseSensitiveFileNames, root, ts.JSDocParsingMode.ParseNone);
  const home = new Map<string, TS.DocumentRegistry>();
  const pick = (fileName: string, path: string): TS.DocumentRegistry => {
    let r = home.get(path);
    if (!r) home.set(path, (r = isProject(fileName) || JS_FILE.test(fileName) ? full : lean));
    return r;
  };
  const optionsFor = (r: TS.DocumentRegistry, o: TS.CreateSourceFileOptions | TS.ScriptTarget | undefined): TS.CreateSourceFileOptions | TS.ScriptTarget | undefined =>
    (r === lean && typeof o === 'object' ? { ...o, jsDocParsingMode: ts.JSDocParsingMode.ParseNone } : o);
  return {
    acquireDocument: (fileName, settings, snapshot, version, kind, o) =>
      pick(fileName, fileName).acquireDocument(fileName, settings, snapshot, version, kind, optionsFor(pick(fileName, fileName), o)),
    acquireDocumentWithKey: (fileName, path, settings, key, snapshot, version, kind, o) => {
      const r = pick(fileName, path);
      return r.acquireDocumentWithKey(fileName, path, settings, key, snapshot, version, kind, optionsFor(r, o));
    },
    updateDocument: (fileName, settings, snapshot, version, kind, o) =>
      pick(fileName, fileName).updateDocument(fileName, settings, snapshot, version, kind, optionsFor(pick(fileName, fileName), o)),
    updateDocumentWithKey: (fileName, path, settings, key, snapshot, version, kind, o) => {
      const r = pick(fileName, path);
      return r.updateDocumentWithKey(fileName, path, settings, key, snapshot, version, kind, optionsFor(r, o));
    },
    getKeyForCompilationSettings: (settings) => full.getKeyForCompilationSettings(settings),
    releaseDocument: (fileName: string, settings: TS.CompilerOptions, kind?: TS.ScriptKind, format?: TS.ResolutionMode) =>
      (home.get(fileName) ?? full).releaseDocument(fileName, settings, kind!, format),
    releaseDocumentWithKey: (path: TS.Path, key: TS.DocumentRegistryBucketKey, kind?: TS.ScriptKind, format?: TS.ResolutionMode) =>
      (home.get(path) ?? full).releaseDocumentWithKey(path, key, kind!, format),
    reportStats: () => `${full.reportStats()}\n${lean.reportStats()}`,
  };
}

/** `cancelled`: true when the work under way should stop (the service then throws OperationCanceledException). */
export function createTsProgram(ts: Ts, root: string, cancelled: () => boolean = () => false): TsProgram {
  let files = new Set<string>();
  let roots = new Set<string>();
  let names: string[] = [];
  let configs: ProjectConfigs | undefined;
  let configStamp = '';
  let options: TS.CompilerOptions = {};
  /** Module resolutions, kept between programs (a new program per edit) until the file list changes. */
  let caches = new Map<TS.CompilerOptions, TS.ModuleResolutionCache>();
  /** Each config's options as the checker uses them. */
  const normalized = new Map<TS.CompilerOptions, TS.CompilerOptions>();
  /** Asked for every file several times a question: joined once. */
  const absolute = new Map<string, string>();
  const abs = (rel: string): string => {
    let a = absolute.get(rel);
    if (a === undefined) {
      if (absolute.size > 100_000) absolute.clear();
      absolute.set(rel, (a = join(root, rel)));
    }
    return a;
  };
  const prefix = resolve(root) + '/';
  const rel = (fileName: string): string | undefined => {
    const r = fileName.startsWith(prefix) ? fileName.slice(prefix.length) : undefined;
    return r !== undefined && files.has(r) ? r : undefined;
  };
  const libDir = dirname(ts.sys.getExecutingFilePath());
  /**
   * Each file is looked at once per question: the service asks for versions several times a program.
   * The project's files are kept apart: while nothing changed in their folders (newQuestion's
   * `projectUnchanged`), what was looked at before still holds, and a large project is not looked
   * at file by file for every question. Anything else (configs, dependencies' declarations) is
   * looked at again each question.
   */
  const projectVersions = new Map<string, string>();
  const otherVersions = new Map<string, string>();
  const version = (fileName: string): string => {
    // The compiler's own libs never change under a running process.
    if (fileName.startsWith(libDir)) return 'lib';
    const versions = rel(fileName) !== undefined ? projectVersions : otherVersions;
    let v = versions.get(fileName);
    if (v === undefined) {
      const st = statSync(fileName, { throwIfNoEntry: false });
      versions.set(fileName, (v = st ? `${st.size}:${st.mtimeMs}` : 'missing'));
    }
    return v;
  };
  /** The texts the service asks for again with each new program (every file, libs included), while their version holds. */
  const snapshots = new Map<string, { version: string; snapshot: TS.IScriptSnapshot }>();
  const stampOf = (paths: readonly string[]): string => paths.map(version).join('|');
  /** Reads the configs again when the file list or a config file changed. */
  const ensureConfigs = (): ProjectConfigs => {
    if (configs && stampOf(configs.configFiles) === configStamp) return configs;
    configs = readProjectConfigs(ts, root, [...files].map(abs));
    configStamp = stampOf(configs.configFiles);
    options = forQueries(ts, configs.options);
    caches = new Map();
    normalized.clear();
    return configs;
  };
  const canonical = (s: string): string => (ts.sys.useCaseSensitiveFileNames ? s : s.toLowerCase());
  const moduleHost: TS.ModuleResolutionHost = {
    fileExists: (p) => ts.sys.fileExists(p),
    readFile: (p) => ts.sys.readFile(p),
    directoryExists: (p) => ts.sys.directoryExists(p),
    getDirectories: (p) => ts.sys.getDirectories(p),
    realpath: (p) => ts.sys.realpath?.(p) ?? p,
    getCurrentDirectory: () => root,
    useCaseSensitiveFileNames: ts.sys.useCaseSensitiveFileNames,
  };
  const host: TS.LanguageServiceHost = {
    getCompilationSettings: () => {
      ensureConfigs();
      return options;
    },
    getScriptFileNames: () => names,
    getScriptVersion: version,
    getScriptSnapshot(fileName) {
      // Building a program checks no token of its own: stop between files, where nothing is half done
      // (the service keeps its last program; the files parsed so far stay in the registry for the next build).
      if (cancelled()) throw new ts.OperationCanceledException();
      const v = version(fileName);
      const hit = snapshots.get(fileName);
      if (hit?.version === v) return hit.snapshot;
      const text = v === 'missing' ? undefined : ts.sys.readFile(fileName);
      if (text === undefined) {
        snapshots.delete(fileName);
        return undefined;
      }
      const snapshot = ts.ScriptSnapshot.fromString(text);
      snapshots.set(fileName, { version: v, snapshot });
      return snapshot;
    },
    getCurrentDirectory: () => root,
    getDefaultLibFileName: (o) => join(libDir, ts.getDefaultLibFileName(o)),
    fileExists: (p) => ts.sys.fileExists(p),
    readFile: (p, enc) => ts.sys.readFile(p, enc),
    readDirectory: (...args) => ts.sys.readDirectory(...args),
    directoryExists: (p) => ts.sys.directoryExists(p),
    getDirectories: (p) => ts.sys.getDirectories(p),
    realpath: (p) => ts.sys.realpath?.(p) ?? p,
    useCaseSensitiveFileNames: () => ts.sys.useCaseSensitiveFileNames,
    getCancellationToken: () => ({ isCancellationRequested: cancelled }),
    // Each file's imports resolve with the options of the config it belongs to.
    resolveModuleNameLiterals(literals, containingFile, redirected, _options, containingSourceFile) {
      return literals.map((lit) => resolveFrom(containingFile, lit.text, (o) => ts.getModeForUsageLocation(containingSourceFile, lit, o), redirected));
    },
  };
  /**
   * `spec` resolved from `containingFile` with its own config's options; when they find nothing,
   * as another config that lists the file maps it (see ProjectConfigs.alternativesFor).
   */
  const resolveFrom = (containingFile: string, spec: string, modeFor: (o: TS.CompilerOptions) => TS.ResolutionMode,
    redirected?: TS.ResolvedProjectReference): TS.ResolvedModuleWithFailedLookupLocations => {
    const { own, cache } = resolutionFor(containingFile);
    const found = ts.resolveModuleName(spec, containingFile, own, moduleHost, cache, redirected, modeFor(own));
    if (found.resolvedModule) return found;
    for (const other of ensureConfigs().alternativesFor(containingFile)) {
      const alt = resolutionWith(forQueriesCached(other));
      const there = ts.resolveModuleName(spec, containingFile, alt.own, moduleHost, alt.cache, redirected, modeFor(alt.own));
      if (there.resolvedModule) return there;
    }
    return found;
  };
  /** The options `containingFile`'s imports resolve with, and their cache. */
  const resolutionFor = (containingFile: string): { own: TS.CompilerOptions; cache: TS.ModuleResolutionCache } =>
    resolutionWith(forQueriesCached(ensureConfigs().optionsFor(containingFile)));
  const resolutionWith = (own: TS.CompilerOptions): { own: TS.CompilerOptions; cache: TS.ModuleResolutionCache } => {
    let cache = caches.get(own);
    if (!cache) caches.set(own, (cache = ts.createModuleResolutionCache(root, canonical, own)));
    return { own, cache };
  };
  const forQueriesCached = (o: TS.CompilerOptions): TS.CompilerOptions => {
    let n = normalized.get(o);
    if (!n) normalized.set(o, (n = o === configs?.options ? options : forQueries(ts, o)));
    return n;
  };
  const service = ts.createLanguageService(host, splitRegistry(ts, root, (fileName) => rel(fileName) !== undefined));
  let projectsOf: { configs: ProjectConfigs; files: ReadonlySet<string>; list: ConfigProject[] } | undefined;
  const rename = (): void => {
    names = [...roots].sort().map(abs);
  };
  return {
    get files() { return files; },
    get roots() { return roots; },
    setFiles(list) {
      const next = new Set(list);
      const same = next.size === files.size && [...next].every((f) => files.has(f));
      if (same) return;
      files = next;
      // Which map a file's version is kept in follows the file list.
      projectVersions.clear();
      roots = new Set([...roots].filter((f) => files.has(f)));
      configs = undefined;
      rename();
    },
    include(rels) {
      let grew = false;
      for (const r of rels) {
        if (!files.has(r) || roots.has(r)) continue;
        roots.add(r);
        grew = true;
      }
      if (grew) rename();
      return grew;
    },
    retain(rels) {
      roots = new Set([...rels].filter((r) => files.has(r)));
      rename();
    },
    service: () => service,
    resolveImport(spec, fromRel, within) {
      const from = abs(fromRel);
      let hit: string | undefined;
      if (within) {
        const { own, cache } = resolutionWith(forQueriesCached(within.options));
        const mode = within.call === 'require' ? ts.ModuleKind.CommonJS : within.call === 'import' ? ts.ModuleKind.ESNext
          : ts.getImpliedNodeFormatForFile(from, cache.getPackageJsonInfoCache(), moduleHost, own);
        hit = ts.resolveModuleName(spec, from, own, moduleHost, cache, undefined, mode).resolvedModule?.resolvedFileName;
      } else hit = resolveFrom(from, spec, () => undefined).resolvedModule?.resolvedFileName;
      return hit === undefined ? undefined : rel(hit);
    },
    jsxRuntime(fromRel, given) {
      const own = given ? forQueriesCached(given) : resolutionFor(abs(fromRel)).own;
      const automatic = own.jsx === ts.JsxEmit.ReactJSX || own.jsx === ts.JsxEmit.ReactJSXDev;
      return own.jsxImportSource ?? (automatic ? 'react' : undefined);
    },
    abs,
    rel,
    version,
    newQuestion(projectUnchanged = false) {
      otherVersions.clear();
      if (!projectUnchanged) projectVersions.clear();
    },
    configProjects() {
      const c = ensureConfigs();
      if (projectsOf?.configs !== c || projectsOf.files !== files) {
        const list = c.projects.map((p) => ({ files: [...p.files].map((f) => rel(f)).filter((r) => r !== undefined), options: p.options }));
        projectsOf = { configs: c, files, list: list.filter((p) => p.files.length > 0) };
      }
      return projectsOf.list;
    },
    inferredOptions: { ...inferredOptions(ts), allowJs: true },
  };
}
