/**
 * A TypeScript language service over the project's TS/JS files, for the symbol tools. The host is
 * versioned by each file's size and mtime, so an edit (by the agent, bash or git) is picked up by
 * the next query with only that file parsed again; nothing is watched and nothing is written.
 */
import { existsSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type * as TS from 'typescript';

type Ts = typeof TS;

export interface TsProgram {
  /** Sets the project's TS/JS files (project-relative); the next query sees the new set. */
  setFiles(files: readonly string[]): void;
  readonly files: ReadonlySet<string>;
  service(): TS.LanguageService;
  abs(rel: string): string;
  /** Project-relative path of a program file, undefined for files outside the project set. */
  rel(fileName: string): string | undefined;
}

/** Options every checker program gets, whatever the project asks: nothing is emitted or reported. */
function forQueries(ts: Ts, options: TS.CompilerOptions): TS.CompilerOptions {
  const out: TS.CompilerOptions = { ...options, allowJs: true, checkJs: false, noEmit: true, skipLibCheck: true, maxNodeModuleJsDepth: 0 };
  for (const key of ['composite', 'declaration', 'declarationMap', 'emitDeclarationOnly', 'incremental', 'tsBuildInfoFile', 'outDir', 'outFile', 'rootDir', 'sourceMap', 'plugins'] as const) {
    delete out[key];
  }
  if (out.jsx === undefined) out.jsx = ts.JsxEmit.Preserve;
  return out;
}

/** What a project without a tsconfig (plain JS, or loose TS) is checked with. */
function inferredOptions(ts: Ts): TS.CompilerOptions {
  return {
    target: ts.ScriptTarget.ESNext, module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Bundler,
    jsx: ts.JsxEmit.Preserve, esModuleInterop: true, allowSyntheticDefaultImports: true, resolveJsonModule: true,
    // Every @types package would be loaded for an inferred project; its own imports bring in what it uses.
    types: [],
  };
}

function parseConfig(ts: Ts, path: string): TS.ParsedCommandLine | undefined {
  try {
    const host: TS.ParseConfigFileHost = { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => undefined };
    return ts.getParsedCommandLineOfConfigFile(path, {}, host);
  } catch {
    return undefined;
  }
}

/**
 * The project's compiler options: its tsconfig.json (or jsconfig.json); for a solution-style
 * config (`files: []` with references) the referenced project that covers the most files.
 */
export function projectCompilerOptions(ts: Ts, root: string): TS.CompilerOptions {
  const configPath = ['tsconfig.json', 'jsconfig.json'].map((n) => join(root, n)).find((p) => existsSync(p));
  if (!configPath) return forQueries(ts, inferredOptions(ts));
  const parsed = parseConfig(ts, configPath);
  if (!parsed) return forQueries(ts, inferredOptions(ts));
  let best = parsed;
  if (parsed.fileNames.length === 0 && parsed.projectReferences?.length) {
    for (const ref of parsed.projectReferences) {
      const refPath = ts.resolveProjectReferencePath(ref);
      const sub = existsSync(refPath) ? parseConfig(ts, refPath) : undefined;
      if (sub && sub.fileNames.length > best.fileNames.length) best = sub;
    }
  }
  return forQueries(ts, best.options);
}

export function createTsProgram(ts: Ts, root: string): TsProgram {
  const options = projectCompilerOptions(ts, root);
  let files = new Set<string>();
  let names: string[] = [];
  const abs = (rel: string): string => join(root, rel);
  const prefix = resolve(root) + '/';
  const rel = (fileName: string): string | undefined => {
    const r = fileName.startsWith(prefix) ? fileName.slice(prefix.length) : undefined;
    return r !== undefined && files.has(r) ? r : undefined;
  };
  const host: TS.LanguageServiceHost = {
    getCompilationSettings: () => options,
    getScriptFileNames: () => names,
    getScriptVersion(fileName) {
      try {
        const st = statSync(fileName);
        return `${st.size}:${st.mtimeMs}`;
      } catch {
        return 'missing';
      }
    },
    getScriptSnapshot(fileName) {
      const text = ts.sys.readFile(fileName);
      return text === undefined ? undefined : ts.ScriptSnapshot.fromString(text);
    },
    getCurrentDirectory: () => root,
    getDefaultLibFileName: (o) => join(dirname(ts.sys.getExecutingFilePath()), ts.getDefaultLibFileName(o)),
    fileExists: (p) => ts.sys.fileExists(p),
    readFile: (p, enc) => ts.sys.readFile(p, enc),
    readDirectory: (...args) => ts.sys.readDirectory(...args),
    directoryExists: (p) => ts.sys.directoryExists(p),
    getDirectories: (p) => ts.sys.getDirectories(p),
    realpath: (p) => ts.sys.realpath?.(p) ?? p,
    useCaseSensitiveFileNames: () => ts.sys.useCaseSensitiveFileNames,
  };
  // One registry per program: documents are shared only between versions of this service.
  const service = ts.createLanguageService(host, ts.createDocumentRegistry(ts.sys.useCaseSensitiveFileNames, root));
  return {
    get files() { return files; },
    setFiles(list) {
      files = new Set(list);
      names = [...files].sort().map(abs);
    },
    service: () => service,
    abs,
    rel,
  };
}
