/**
 * Loads a large CommonJS file (the vendored TypeScript compiler, ~9 MB) through V8's code cache:
 * the bytecode V8 compiled for it last time, read from the user's cache folder, instead of
 * compiling the source again (a parse worker's load: ~0.4 s → under 0.1 s). The cache is keyed by
 * the source's hash, the Node/V8 versions and the flags they run with, so it never meets another
 * source; V8 checks the bytes itself too, and a rejected or unreadable cache only costs the
 * compile it saves, after which it is written again. Written to a temp file and renamed, so a
 * reader never sees half of one; synchronously, because a parse worker is ended as soon as its
 * files are done, which would cut an asynchronous write short. Node 20 has no module.enableCompileCache (22 has): vm.Script's cachedData is used,
 * which every supported Node has.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Script } from 'node:vm';
import { FILE_MODE, isStaleTemp, tempNameFor } from '../io/atomic-write.js';

export interface CachedModule {
  readonly exports: unknown;
  /** True when V8 took the stored code cache (nothing compiled from source but what it lacked). */
  readonly fromCache: boolean;
  /**
   * Writes the code cache when there was none or V8 rejected it. Call it once the module has done
   * typical work: the cache then holds the functions compiled meanwhile (V8 compiles lazily), not
   * only the top level. Never throws.
   */
  save(): void;
}

/** What V8 keys its cache checks by besides the source: the version and the flags in force. */
function runtimeKey(): string {
  return [process.version, process.versions.v8, process.arch, process.execArgv.join(' '), process.env['NODE_OPTIONS'] ?? ''].join('\0');
}

/** The CommonJS wrapper Node puts around a module's source. */
const wrap = (source: string): string => `(function (exports, require, module, __filename, __dirname) { ${source}\n})`;

export function requireWithCodeCache(file: string, cacheDir: string): CachedModule {
  const source = readFileSync(file, 'utf8');
  const key = createHash('sha256').update(source).update('\0').update(runtimeKey()).digest('hex').slice(0, 24);
  const stem = file.split(/[\\/]/).pop()!.replace(/\.js$/, '');
  const cachePath = join(cacheDir, `${stem}-${key}.v8cache`);
  let cachedData: Buffer | undefined;
  try {
    cachedData = readFileSync(cachePath);
  } catch {
    cachedData = undefined; // none yet (or unreadable): compiled from source, written after use
  }
  const script = new Script(wrap(source), { filename: file, ...(cachedData ? { cachedData } : {}) });
  const fresh = !cachedData || script.cachedDataRejected === true;
  const module = { exports: {} as unknown };
  const init = script.runInThisContext() as (...args: unknown[]) => void;
  init.call(module.exports, module.exports, createRequire(file), module, file, dirname(file));
  let saved = !fresh;
  return {
    exports: module.exports,
    fromCache: !fresh,
    save() {
      if (saved) return;
      saved = true;
      const temp = tempNameFor(cachePath);
      try {
        mkdirSync(cacheDir, { recursive: true, mode: 0o700 });
        // Derived data: a power cut costs one compile, so no fsync.
        writeFileSync(temp, script.createCachedData(), { mode: FILE_MODE });
        renameSync(temp, cachePath);
        // The caches of earlier versions (of the file, of Node) would only pile up, as would temp files of writers killed mid-write.
        for (const name of readdirSync(cacheDir)) {
          const old = name.startsWith(`${stem}-`) && name.endsWith('.v8cache') && join(cacheDir, name) !== cachePath;
          if (old || isStaleTemp(name)) rmSync(join(cacheDir, name), { force: true });
        }
      } catch {
        rmSync(temp, { force: true }); // a read-only or full disk: the next start compiles from source again
      }
    },
  };
}
