/** The built-in TypeScript / JavaScript plugin: the TypeScript compiler's parser, loaded on first use. */
import { loadTypeScript } from './load-typescript.js';
import { indexTypeScriptSource } from './ts-declarations.js';
import { resolveTsImport } from './ts-resolve.js';
import type { FileIndex, LanguagePlugin } from './types.js';

export const typescriptPlugin: LanguagePlugin = {
  name: 'typescript',
  version: '5',
  extensions: ['.ts', '.tsx', '.mts', '.cts', '.js', '.jsx', '.mjs', '.cjs'],
  indexFile(path: string, source: string): FileIndex | Promise<FileIndex> {
    return indexTypeScriptSource(loadTypeScript(), path, source);
  },
  resolveImport: resolveTsImport,
};
