/** The plugins in use, looked up by file extension. */
import type { LanguagePlugin } from './types.js';

export interface PluginSet {
  readonly plugins: readonly LanguagePlugin[];
  /** Module URLs of the plugins that are not built in, so a worker can load the same set. */
  readonly external: readonly string[];
  readonly warnings: readonly string[];
  forFile(path: string): LanguagePlugin | undefined;
  extensions(): ReadonlySet<string>;
}

/** `extname(path).toLowerCase()` for project-relative POSIX paths, without its generality: this runs per file at every start. */
function extensionOf(path: string): string {
  const base = path.slice(path.lastIndexOf('/') + 1);
  const dot = base.lastIndexOf('.');
  // Like extname: '' for a name that only starts with a dot ('.bashrc'), and for '..'.
  return dot > 0 && base !== '..' ? base.slice(dot).toLowerCase() : '';
}

/** Later plugins win an extension: a user's plugin can replace a built-in one. */
export function createPluginSet(plugins: readonly LanguagePlugin[], external: readonly string[] = [], warnings: readonly string[] = []): PluginSet {
  const byExt = new Map<string, LanguagePlugin>();
  for (const p of plugins) for (const ext of p.extensions) byExt.set(ext.toLowerCase(), p);
  return {
    plugins,
    external,
    warnings,
    forFile: (path) => byExt.get(extensionOf(path)),
    extensions: () => new Set(byExt.keys()),
  };
}

export function pluginKey(plugin: LanguagePlugin): string {
  return `${plugin.name}@${plugin.version}`;
}
