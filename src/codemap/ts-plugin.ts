/** The built-in TypeScript / JavaScript plugin: the TypeScript compiler's parser, loaded on first use. */
import type * as TS from 'typescript';
import { indexTypeScriptSource } from './ts-declarations.js';
import { resolveTsImport } from './ts-resolve.js';
import type { FileIndex, LanguagePlugin } from './types.js';

let loading: Promise<typeof TS> | undefined;
let loaded: typeof TS | undefined;

/** Imported lazily: the compiler is ~9 MB of JavaScript that a session without a code map never needs. */
function loadTypeScript(): Promise<typeof TS> {
  loading ??= import('typescript').then((m) => {
    // typescript is CommonJS: under ESM its API is the default export.
    const api = m.default as unknown as typeof TS;
    loaded = api;
    return api;
  });
  return loading;
}

export const typescriptPlugin: LanguagePlugin = {
  name: 'typescript',
  version: '3',
  extensions: ['.ts', '.tsx', '.mts', '.cts', '.js', '.jsx', '.mjs', '.cjs'],
  indexFile(path: string, source: string): FileIndex | Promise<FileIndex> {
    if (loaded) return indexTypeScriptSource(loaded, path, source);
    return loadTypeScript().then((ts) => indexTypeScriptSource(ts, path, source));
  },
  resolveImport: resolveTsImport,
};
