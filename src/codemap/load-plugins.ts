/**
 * Which language plugins run. Built-ins always; plugins named in the user's config always; the
 * project's own (.lindwyrm/plugins/*.js, lindwyrm-plugin-* packages) only in a trusted project,
 * because loading a plugin runs its code.
 */
import { readdir, readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { isAbsolute, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Config } from '../config/types.js';
import { builtinPlugins } from './builtin-plugins.js';
import { createPluginSet, type PluginSet } from './plugin-set.js';
import type { LanguagePlugin } from './types.js';

const LOAD_TIMEOUT_MS = 5000;

export function asPlugin(mod: unknown): LanguagePlugin | undefined {
  const m = mod as { default?: unknown; plugin?: unknown } | null;
  for (const candidate of [m?.plugin, m?.default, m]) {
    const p = candidate as Partial<LanguagePlugin> | null | undefined;
    if (p && typeof p.name === 'string' && typeof p.version === 'string' && Array.isArray(p.extensions)
      && p.extensions.every((e) => typeof e === 'string' && e.startsWith('.')) && typeof p.indexFile === 'function') {
      return p as LanguagePlugin;
    }
  }
  return undefined;
}

/** Loads one plugin module by file URL; a module that throws, hangs or exports no plugin is reported. */
export async function importPlugin(url: string): Promise<LanguagePlugin> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`loading took over ${LOAD_TIMEOUT_MS} ms`)), LOAD_TIMEOUT_MS);
    timer.unref();
  });
  try {
    const mod: unknown = await Promise.race([import(url), timeout]);
    const plugin = asPlugin(mod);
    if (!plugin) throw new Error('it exports no plugin (name, version, extensions, indexFile) as default or `plugin`');
    return plugin;
  } finally {
    clearTimeout(timer);
  }
}

function resolveSpec(spec: string, projectRoot: string): string {
  if (spec.startsWith('.') || isAbsolute(spec) || spec.startsWith('~')) {
    const path = spec.startsWith('~') ? join(process.env['HOME'] ?? '', spec.slice(1)) : resolve(projectRoot, spec);
    return pathToFileURL(path).href;
  }
  // A package name: resolved from the project first, then from lindwyrm's own installation.
  try {
    return pathToFileURL(createRequire(join(projectRoot, 'package.json')).resolve(spec)).href;
  } catch {
    return pathToFileURL(createRequire(import.meta.url).resolve(spec)).href;
  }
}

/** The project's own plugin modules (not loaded here). */
export async function projectPluginSpecs(projectRoot: string): Promise<string[]> {
  const specs: string[] = [];
  try {
    const dir = join(projectRoot, '.lindwyrm', 'plugins');
    for (const name of (await readdir(dir)).sort()) if (/\.(m?js)$/.test(name)) specs.push(join(dir, name));
  } catch {
    // No plugin folder.
  }
  try {
    const pkg = JSON.parse(await readFile(join(projectRoot, 'package.json'), 'utf8')) as Record<string, unknown>;
    const names = new Set<string>();
    for (const key of ['dependencies', 'devDependencies']) {
      const deps = pkg[key];
      if (deps && typeof deps === 'object') for (const n of Object.keys(deps)) if (/^(@[^/]+\/)?lindwyrm-plugin-/.test(n)) names.add(n);
    }
    specs.push(...[...names].sort());
  } catch {
    // No package.json.
  }
  return specs;
}

export async function loadPlugins(config: Config, projectRoot: string, warn: (m: string) => void): Promise<PluginSet> {
  const plugins: LanguagePlugin[] = [...builtinPlugins()];
  const external: string[] = [];
  const specs = [...config.plugins];
  const own = await projectPluginSpecs(projectRoot);
  if (own.length > 0 && !config.trusted) {
    warn(`project plugins not loaded because this project is not trusted: ${own.join(', ')}`);
  } else specs.push(...own);
  for (const spec of specs) {
    try {
      const url = resolveSpec(spec, projectRoot);
      plugins.push(await importPlugin(url));
      external.push(url);
    } catch (err) {
      warn(`code map plugin ${spec} skipped: ${(err as Error).message}`);
    }
  }
  return createPluginSet(plugins, external);
}
