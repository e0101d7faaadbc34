/** The plugins that ship with lindwyrm. */
import { typescriptPlugin } from './ts-plugin.js';
import type { LanguagePlugin } from './types.js';

export function builtinPlugins(): LanguagePlugin[] {
  return [typescriptPlugin];
}
