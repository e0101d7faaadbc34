/**
 * The TypeScript compiler, loaded once per thread on first use (it is ~9 MB of JavaScript that a
 * session without a code map never needs). Through require rather than import(): importing this
 * CommonJS file from ESM first scans all of it for export names, about 400 ms of CPU more.
 * From the build it is dist/vendor/typescript/typescript.js, whose lib.*.d.ts files sit next to it
 * where the checker's default library lookup expects them (src/codemap/vendored.ts).
 */
import { createRequire } from 'node:module';
import type * as TS from 'typescript';
import { VENDORED, vendoredDir } from './vendored.js';

let loaded: typeof TS | undefined;

export function loadTypeScript(): typeof TS {
  if (!loaded) {
    const dir = vendoredDir('typescript');
    loaded = createRequire(import.meta.url)(dir ? dir + VENDORED.typescript : 'typescript') as typeof TS;
  }
  return loaded;
}
