/**
 * The project's tsconfig.json / jsconfig.json files, as an editor reads them: each file belongs to
 * the nearest config above it (for a solution config, `files: []` with references, to the referenced
 * project that lists it). The checker builds one program over every file: its options are those of
 * the config that covers the most files, with the libs and types of all of them; each file's imports
 * are resolved with its own config's options, so per-package `paths`, `baseUrl` and module settings
 * hold in a monorepo, and one its own config cannot resolve, as another config that lists the file
 * maps it (a root config's `paths` over examples with configs of their own).
 */
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type * as TS from 'typescript';

type Ts = typeof TS;

const CONFIG_NAMES = ['tsconfig.json', 'jsconfig.json'];
/** A solution config's references are followed this deep (they can point back at each other). */
const MAX_REFERENCE_DEPTH = 4;

interface Config {
  readonly path: string;
  readonly options: TS.CompilerOptions;
  readonly files: ReadonlySet<string>;
  /** The projects a solution config references (empty for an ordinary one). */
  readonly members: readonly Config[];
}

export interface ProjectConfigs {
  /** The one program's options (emit settings not yet removed). */
  readonly options: TS.CompilerOptions;
  /** The options `absFile`'s imports resolve with: its owning config's, else the program's. */
  optionsFor(absFile: string): TS.CompilerOptions;
  /**
   * Other configs that list `absFile` and map specifiers their own way (`paths`, `baseUrl`): an
   * import its own config cannot resolve is resolved as in their programs (a monorepo's root
   * config mapping `@scope/*` to the packages' sources, over examples with configs of their own).
   */
  alternativesFor(absFile: string): readonly TS.CompilerOptions[];
  /** Every config file read (a change to one of them means reading them again). */
  readonly configFiles: readonly string[];
  /**
   * The root files (absolute) of each program an editor opens for this project, one per config
   * that lists files; the files none of them holds are an inferred program of their own.
   */
  readonly projects: readonly { readonly files: ReadonlySet<string>; readonly options: TS.CompilerOptions }[];
}

/** What a project without any config (plain JS, or loose TS) is checked with. */
export function inferredOptions(ts: Ts): TS.CompilerOptions {
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

/** The lib files a config's program gets: its `lib`, or the default lib of its target. */
function libsOf(ts: Ts, options: TS.CompilerOptions): string[] {
  if (options.noLib) return [];
  return options.lib?.length ? [...options.lib] : [ts.getDefaultLibFileName(options)];
}

/**
 * Reads the configs that own `absFiles` (absolute paths of the project's TS/JS files). `root` bounds
 * the search upwards: a config above the project is not the project's.
 */
export function readProjectConfigs(ts: Ts, root: string, absFiles: readonly string[]): ProjectConfigs {
  const top = resolve(root);
  const parsed = new Map<string, Config | undefined>();
  const read = (path: string, depth: number): Config | undefined => {
    if (parsed.has(path)) return parsed.get(path);
    parsed.set(path, undefined);
    const cmd = parseConfig(ts, path);
    if (!cmd) return undefined;
    const members: Config[] = [];
    if (cmd.fileNames.length === 0 && depth < MAX_REFERENCE_DEPTH) {
      for (const ref of cmd.projectReferences ?? []) {
        const sub = ts.resolveProjectReferencePath(ref);
        const config = existsSync(sub) ? read(sub, depth + 1) : undefined;
        if (config) members.push(config);
      }
    }
    const config: Config = { path, options: cmd.options, files: new Set(cmd.fileNames.map((f) => resolve(f))), members };
    parsed.set(path, config);
    return config;
  };

  const nearestByDir = new Map<string, Config | undefined>();
  const nearest = (dir: string): Config | undefined => {
    if (nearestByDir.has(dir)) return nearestByDir.get(dir);
    let found: Config | undefined;
    const path = CONFIG_NAMES.map((n) => join(dir, n)).find((p) => existsSync(p));
    if (path) found = read(path, 0);
    if (!found && dir !== top && dir.startsWith(top)) found = nearest(dirname(dir));
    nearestByDir.set(dir, found);
    return found;
  };

  /** The config that lists `file`, searching a solution's members; the first leaf config otherwise. */
  const owning = (config: Config, file: string): Config | undefined => {
    if (config.members.length === 0) return config.files.has(file) ? config : undefined;
    for (const m of config.members) {
      const hit = owning(m, file);
      if (hit) return hit;
    }
    return undefined;
  };
  const leaves = (config: Config): Config[] => (config.members.length === 0 ? [config] : config.members.flatMap(leaves));

  const owner = new Map<string, Config>();
  const counts = new Map<Config, number>();
  for (const file of absFiles) {
    const near = nearest(dirname(file));
    if (!near) continue;
    const own = owning(near, file) ?? leaves(near)[0];
    if (!own) continue;
    owner.set(file, own);
    counts.set(own, (counts.get(own) ?? 0) + 1);
  }
  // The configs above a file's own may list it too (a monorepo's root config over its packages and
  // examples): their programs are ones an editor opens as well (see alternativesFor, Reach.together).
  const looked = new Set<string>();
  for (const file of absFiles) {
    for (let dir = dirname(file); dir.startsWith(top) && !looked.has(dir); dir = dirname(dir)) {
      looked.add(dir);
      const path = CONFIG_NAMES.map((n) => join(dir, n)).find((p) => existsSync(p));
      if (path) read(path, 0);
      if (dir === top) break;
    }
  }
  const used = [...counts.keys()];
  const projects = [...parsed.values()].filter((c) => c !== undefined && c.members.length === 0 && c.files.size > 0).map((c) => ({ files: c!.files, options: c!.options }));
  if (used.length === 0) {
    const options = inferredOptions(ts);
    return { options, optionsFor: () => options, alternativesFor: () => [], configFiles: [...parsed.keys()], projects };
  }
  const main = used.reduce((a, b) => (counts.get(b)! > counts.get(a)! ? b : a));
  const libs = new Set(used.flatMap((c) => libsOf(ts, c.options)));
  // DOM and the web worker lib declare the same globals; one program cannot hold both.
  if ([...libs].some((l) => /^lib\.(dom|es\w*\.full)\.d\.ts$/i.test(l))) for (const l of [...libs]) if (/^lib\.webworker/i.test(l)) libs.delete(l);
  const everyTyped = used.every((c) => c.options.types !== undefined);
  const options: TS.CompilerOptions = {
    ...main.options,
    ...(libs.size > 0 ? { lib: [...libs] } : {}),
    ...(everyTyped ? { types: [...new Set(used.flatMap((c) => c.options.types ?? []))] } : {}),
  };
  if (!everyTyped) delete options.types;
  const optionsFor = (absFile: string): TS.CompilerOptions => owner.get(absFile)?.options ?? nearest(dirname(absFile))?.options ?? options;
  const mapping = projects.filter((p) => p.options.paths !== undefined || p.options.baseUrl !== undefined);
  const alternatives = new Map<string, readonly TS.CompilerOptions[]>();
  return {
    options,
    optionsFor,
    alternativesFor(absFile) {
      let list = alternatives.get(absFile);
      if (!list) {
        const own = optionsFor(absFile);
        alternatives.set(absFile, (list = mapping.filter((p) => p.options !== own && p.files.has(absFile)).map((p) => p.options)));
      }
      return list;
    },
    configFiles: [...parsed.keys()],
    projects,
  };
}
