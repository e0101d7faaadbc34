/** The plugins in use, looked up by file extension. */
import { extname } from 'node:path';
import type { LanguagePlugin } from './types.js';

export interface PluginSet {
  readonly plugins: readonly LanguagePlugin[];
  /** Module URLs of the plugins that are not built in, so a worker can load the same set. */
  readonly external: readonly string[];
  readonly warnings: readonly string[];
  forFile(path: string): LanguagePlugin | undefined;
  extensions(): ReadonlySet<string>;
}

/** Later plugins win an extension: a user's plugin can replace a built-in one. */
export function createPluginSet(plugins: readonly LanguagePlugin[], external: readonly string[] = [], warnings: readonly string[] = []): PluginSet {
  const byExt = new Map<string, LanguagePlugin>();
  for (const p of plugins) for (const ext of p.extensions) byExt.set(ext.toLowerCase(), p);
  return {
    plugins,
    external,
    warnings,
    forFile: (path) => byExt.get(extname(path).toLowerCase()),
    extensions: () => new Set(byExt.keys()),
  };
}

export function pluginKey(plugin: LanguagePlugin): string {
  return `${plugin.name}@${plugin.version}`;
}
