/**
 * The TypeScript compiler, loaded once per thread on first use (it is ~9 MB of JavaScript that a
 * session without a code map never needs). Through require rather than import(): importing this
 * CommonJS file from ESM first scans all of it for export names, about 400 ms of CPU more.
 */
import { createRequire } from 'node:module';
import type * as TS from 'typescript';

let loaded: typeof TS | undefined;

export function loadTypeScript(): typeof TS {
  loaded ??= createRequire(import.meta.url)('typescript') as typeof TS;
  return loaded;
}

