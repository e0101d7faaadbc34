/**
 * The TypeScript compiler, loaded once per thread on first use (it is ~9 MB of JavaScript that a
 * session without a code map never needs). Through require rather than import(): importing this
 * CommonJS file from ESM first scans all of it for export names, about 400 ms of CPU more.
 * From the build it is dist/vendor/typescript/typescript.js, whose lib.*.d.ts files sit next to it
 * where the checker's default library lookup expects them (src/codemap/vendored.ts). A thread
 * told a code-cache folder (useCodeCache) loads it through V8's code cache (code-cache.ts).
 */
import { createRequire } from 'node:module';
import type * as TS from 'typescript';
import { requireWithCodeCache, type CachedModule } from './code-cache.js';
import { VENDORED, vendoredDir } from './vendored.js';

let loaded: typeof TS | undefined;
let codeCacheDir: string | undefined;
let cached: CachedModule | undefined;

/** Load the vendored compiler through V8's code cache in `dir` (call before the first loadTypeScript). */
export function useCodeCache(dir: string): void {
  codeCacheDir = dir;
}

/** Writes the code cache if this load made or refreshed it (after typical work, see CachedModule.save). */
export function saveCodeCache(): void {
  cached?.save();
}

export function loadTypeScript(): typeof TS {
  if (!loaded) {
    const dir = vendoredDir('typescript');
    const require = createRequire(import.meta.url);
    if (codeCacheDir) {
      try {
        cached = requireWithCodeCache(dir ? dir + VENDORED.typescript : require.resolve('typescript'), codeCacheDir);
        loaded = cached.exports as typeof TS;
      } catch {
        cached = undefined; // an unreadable file: the plain require below says why
      }
    }
    loaded ??= require(dir ? dir + VENDORED.typescript : 'typescript') as typeof TS;
  }
  return loaded;
}
