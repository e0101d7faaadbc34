/**
 * The truth the code map's checker is measured against, built the way an editor opens a project
 * and independent of the code map's own program: one language service per tsconfig.json /
 * jsconfig.json in the project (and per config a solution config references), each with exactly
 * the files and options `tsc -p` would use, and one inferred service (allowJs, default options)
 * for the project's files no config lists. A question about a declaration is asked of every
 * service whose program holds its file, and the answers are joined (as an editor's "find all
 * references" searches every open project).
 */
import { existsSync, readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type * as TS from 'typescript';
import tsModule from 'typescript';
import { SKIPPED_DIRS } from '../../src/codemap/walk-project.js';

// typescript is CommonJS: its API is the default export.
const ts = tsModule as unknown as typeof TS;

export interface TruthService {
  readonly label: string;
  readonly service: TS.LanguageService;
  readonly program: TS.Program;
}

export interface Truth {
  readonly services: readonly TruthService[];
  /** The services whose program holds `absFile`. */
  servicesFor(absFile: string): TruthService[];
}

function serviceFor(label: string, root: string, fileNames: readonly string[], options: TS.CompilerOptions,
  registry: TS.DocumentRegistry, references?: readonly TS.ProjectReference[]): TruthService {
  const host: TS.LanguageServiceHost = {
    getCompilationSettings: () => ({ ...options, noEmit: true }),
    getScriptFileNames: () => [...fileNames],
    getScriptVersion: () => '1',
    getScriptSnapshot: (f) => {
      const text = ts.sys.readFile(f);
      return text === undefined ? undefined : ts.ScriptSnapshot.fromString(text);
    },
    getProjectReferences: () => references,
    getCurrentDirectory: () => root,
    getDefaultLibFileName: (o) => ts.getDefaultLibFilePath(o),
    fileExists: ts.sys.fileExists,
    readFile: ts.sys.readFile,
    readDirectory: ts.sys.readDirectory,
    directoryExists: ts.sys.directoryExists,
    getDirectories: ts.sys.getDirectories,
    realpath: ts.sys.realpath,
    useCaseSensitiveFileNames: () => ts.sys.useCaseSensitiveFileNames,
  };
  // An editor (tsserver) reads a referenced project's sources, not its built declarations; the
  // language service passes this host method on, though its public type does not list it.
  Object.assign(host, { useSourceOfProjectReferenceRedirect: () => true });
  const service = ts.createLanguageService(host, registry);
  return { label, service, program: service.getProgram()! };
}

/** tsconfig.json and jsconfig.json files in the project's own directories. */
function configFiles(root: string): string[] {
  const out: string[] = [];
  const walk = (dir: string): void => {
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      if (e.isDirectory() && !SKIPPED_DIRS.has(e.name) && !e.name.startsWith('.')) walk(join(dir, e.name));
      else if (e.isFile() && (e.name === 'tsconfig.json' || e.name === 'jsconfig.json')) out.push(join(dir, e.name));
    }
  };
  walk(root);
  return out;
}

/** `absFiles`: the project's TS/JS files (every one ends up in some service). */
export function buildTruth(root: string, absFiles: readonly string[]): Truth {
  const registry = ts.createDocumentRegistry(ts.sys.useCaseSensitiveFileNames, root);
  const services: TruthService[] = [];
  const owned = new Set<string>();
  const seen = new Set<string>();
  const parseHost: TS.ParseConfigFileHost = { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => undefined };
  const open = (path: string, depth: number): void => {
    const key = resolve(path);
    if (seen.has(key) || depth > 4) return;
    seen.add(key);
    const parsed = ts.getParsedCommandLineOfConfigFile(key, {}, parseHost);
    if (!parsed) return;
    for (const ref of parsed.projectReferences ?? []) {
      const sub = ts.resolveProjectReferencePath(ref);
      if (existsSync(sub)) open(sub, depth + 1);
    }
    if (parsed.fileNames.length === 0) return;
    const options = { ...parsed.options, allowJs: parsed.options.allowJs, skipLibCheck: true };
    const svc = serviceFor(key.slice(resolve(root).length + 1), dirname(key), parsed.fileNames, options, registry, parsed.projectReferences);
    services.push(svc);
    for (const sf of svc.program.getSourceFiles()) owned.add(resolve(sf.fileName));
  };
  for (const path of configFiles(root)) open(path, 0);
  const rest = absFiles.filter((f) => !owned.has(resolve(f)));
  if (rest.length > 0) {
    services.push(serviceFor('(inferred)', root, rest, {
      allowJs: true, allowNonTsExtensions: true, target: ts.ScriptTarget.ESNext, module: ts.ModuleKind.ESNext,
      moduleResolution: ts.ModuleResolutionKind.Bundler, jsx: ts.JsxEmit.Preserve, esModuleInterop: true,
      allowSyntheticDefaultImports: true, resolveJsonModule: true, skipLibCheck: true,
    }, registry));
  }
  const byFile = new Map<string, TruthService[]>();
  for (const svc of services) {
    for (const sf of svc.program.getSourceFiles()) {
      const k = resolve(sf.fileName);
      byFile.set(k, [...(byFile.get(k) ?? []), svc]);
    }
  }
  return { services, servicesFor: (absFile) => byFile.get(resolve(absFile)) ?? [] };
}
