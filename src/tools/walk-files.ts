/**
 * A fast directory walk for glob and grep: honours .gitignore and .ignore files (nested ones too),
 * skips version-control and vendored folders below the starting point, never follows symlinks,
 * and leaves out paths the read policy does not allow silently.
 */
import type { Dirent } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import ignore, { type Ignore } from 'ignore';

/** Folders that hold someone else's code or generated state, never the user's own work. */
export const VENDORED_DIRS: ReadonlySet<string> = new Set([
  '.git', '.hg', '.svn', 'node_modules', 'bower_components', 'jspm_packages', 'vendor', '.venv', 'venv',
  '__pycache__', '.tox', '.mypy_cache', '.pytest_cache', '.ruff_cache', '.gradle', '.yarn', '.pnpm-store',
  '.next', '.nuxt', '.svelte-kit', '.turbo', '.parcel-cache', '.terraform',
]);

const IGNORE_FILES = ['.gitignore', '.ignore'];

interface IgnoreLayer {
  readonly dir: string;
  readonly rules: Ignore;
}

export interface WalkOptions {
  /** Real project root: ignore files are read from here down to `base`. */
  readonly root: string;
  /** Real absolute directory to walk. */
  readonly base: string;
  /** Absolute paths (files or folders) to leave out, e.g. read-denied by a rule. */
  readonly excluded?: readonly string[];
  readonly signal?: AbortSignal;
  /** Called for each regular file; return false to stop the walk. */
  readonly onFile: (absolute: string, relativeToBase: string) => boolean | void;
}

async function loadLayer(dir: string): Promise<IgnoreLayer | undefined> {
  let rules: Ignore | undefined;
  for (const name of IGNORE_FILES) {
    const text = await readFile(path.join(dir, name), 'utf8').catch(() => undefined);
    if (text === undefined) continue;
    rules ??= ignore();
    rules.add(text);
  }
  return rules === undefined ? undefined : { dir, rules };
}

function ignoredBy(layers: readonly IgnoreLayer[], absolute: string, isDir: boolean): boolean {
  for (const layer of layers) {
    // Every layer's folder is an ancestor of `absolute`, so slicing is exact (and much cheaper).
    const rel = absolute.slice(layer.dir.length + 1);
    if (rel === '') continue;
    if (layer.rules.ignores(isDir ? `${rel}/` : rel)) return true;
  }
  return false;
}

const CONCURRENCY = 24;

export async function walkFiles(opts: WalkOptions): Promise<void> {
  const excluded = new Set(opts.excluded ?? []);
  // Ignore files above the starting point (within the project) apply too.
  const initial: IgnoreLayer[] = [];
  if (opts.base.startsWith(opts.root + path.sep)) {
    const parts = path.relative(opts.root, opts.base).split(path.sep);
    let dir = opts.root;
    for (let i = 0; i < parts.length; i++) {
      const layer = await loadLayer(dir);
      // As ripgrep does, rules from above the starting point are matched against paths below it:
      // searching node_modules explicitly works although the root .gitignore lists it.
      if (layer !== undefined) initial.push({ dir: opts.base, rules: layer.rules });
      dir = path.join(dir, parts[i] as string);
    }
  }
  const queue: Array<{ dir: string; layers: readonly IgnoreLayer[] }> = [{ dir: opts.base, layers: initial }];
  let stopped = false;
  let active = 0;

  await new Promise<void>((resolve, reject) => {
    const pump = (): void => {
      if (stopped || opts.signal?.aborted === true) {
        stopped = true;
        if (active === 0) resolve();
        return;
      }
      while (active < CONCURRENCY && queue.length > 0) {
        const item = queue.shift() as { dir: string; layers: readonly IgnoreLayer[] };
        active++;
        visit(item.dir, item.layers)
          .then(() => {
            active--;
            if (queue.length === 0 && active === 0) resolve();
            else pump();
          })
          .catch(reject);
      }
      if (queue.length === 0 && active === 0) resolve();
    };

    const visit = async (dir: string, parentLayers: readonly IgnoreLayer[]): Promise<void> => {
      let entries: Dirent[];
      try {
        entries = await readdir(dir, { withFileTypes: true });
      } catch {
        return; // unreadable folder: skipped, like rg does
      }
      const own = entries.some((e) => IGNORE_FILES.includes(e.name)) ? await loadLayer(dir) : undefined;
      const layers = own === undefined ? parentLayers : [...parentLayers, own];
      for (const entry of entries) {
        if (stopped) return;
        const absolute = path.join(dir, entry.name);
        if (excluded.has(absolute)) continue;
        if (entry.isDirectory()) {
          if (VENDORED_DIRS.has(entry.name)) continue;
          if (layers.length > 0 && ignoredBy(layers, absolute, true)) continue;
          queue.push({ dir: absolute, layers });
        } else if (entry.isFile()) {
          if (layers.length > 0 && ignoredBy(layers, absolute, false)) continue;
          if (opts.onFile(absolute, path.relative(opts.base, absolute)) === false) stopped = true;
        }
      }
    };

    pump();
  });
}
