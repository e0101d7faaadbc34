/** The plugins that ship with lindwyrm: the TypeScript compiler for TS/JS, tree-sitter grammars for the rest. */
import { genericPlugins } from './lang-generic.js';
import { goPlugin } from './lang-go.js';
import { javaPlugin } from './lang-java.js';
import { pythonPlugin } from './lang-python.js';
import { rustPlugin } from './lang-rust.js';
import { typescriptPlugin } from './ts-plugin.js';
import type { LanguagePlugin } from './types.js';

export function builtinPlugins(): LanguagePlugin[] {
  return [typescriptPlugin, pythonPlugin, goPlugin, rustPlugin, javaPlugin, ...genericPlugins];
}
