/**
 * A fast directory walk for glob and grep: honours .gitignore and .ignore files (nested ones too),
 * skips version-control and vendored folders below the starting point, never follows symlinks,
 * and leaves out paths the read policy does not allow silently.
 */
import type { Dirent } from 'node:fs';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import ignore, { type Ignore } from 'ignore';
import { fsPath, readdirExactSync } from '../io/byte-names.js';

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

function loadLayer(dir: string): IgnoreLayer | undefined {
  let rules: Ignore | undefined;
  for (const name of IGNORE_FILES) {
    let text: string;
    try {
      text = readFileSync(fsPath(path.join(dir, name)), 'utf8');
    } catch {
      continue;
    }
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

/** Work in slices this long, then let the event loop breathe (the screen keeps repainting). */
const SLICE_MS = 15;

/**
 * Synchronous directory reads are several times faster than the promise API for trees of many
 * small folders; the walk yields every few milliseconds so it never blocks for long.
 */
export async function walkFiles(opts: WalkOptions): Promise<void> {
  const excluded = new Set(opts.excluded ?? []);
  // Ignore files above the starting point (within the project) apply too.
  const initial: IgnoreLayer[] = [];
  if (opts.base.startsWith(opts.root + path.sep)) {
    const parts = path.relative(opts.root, opts.base).split(path.sep);
    let dir = opts.root;
    for (let i = 0; i < parts.length; i++) {
      const layer = loadLayer(dir);
      // As ripgrep does, rules from above the starting point are matched against paths below it:
      // searching node_modules explicitly works although the root .gitignore lists it.
      if (layer !== undefined) initial.push({ dir: opts.base, rules: layer.rules });
      dir = path.join(dir, parts[i] as string);
    }
  }
  const stack: Array<{ dir: string; layers: readonly IgnoreLayer[] }> = [{ dir: opts.base, layers: initial }];
  const baseLength = opts.base.endsWith('/') ? opts.base.length : opts.base.length + 1;
  let sliceStart = performance.now();
  while (stack.length > 0) {
    if (opts.signal?.aborted === true) return;
    if (performance.now() - sliceStart > SLICE_MS) {
      await new Promise((r) => setImmediate(r));
      sliceStart = performance.now();
    }
    const { dir, layers: parentLayers } = stack.pop() as { dir: string; layers: readonly IgnoreLayer[] };
    let entries: Dirent[];
    try {
      entries = readdirExactSync(dir);
    } catch {
      continue; // unreadable folder: skipped, as rg does
    }
    const own = entries.some((e) => IGNORE_FILES.includes(e.name)) ? loadLayer(dir) : undefined;
    const layers = own === undefined ? parentLayers : [...parentLayers, own];
    const subdirs: string[] = [];
    const prefix = dir.endsWith('/') ? dir : `${dir}/`;
    for (const entry of entries) {
      const absolute = prefix + entry.name;
      if (excluded.has(absolute)) continue;
      if (entry.isDirectory()) {
        if (VENDORED_DIRS.has(entry.name)) continue;
        if (layers.length > 0 && ignoredBy(layers, absolute, true)) continue;
        subdirs.push(absolute);
      } else if (entry.isFile()) {
        if (layers.length > 0 && ignoredBy(layers, absolute, false)) continue;
        if (opts.onFile(absolute, absolute.slice(baseLength)) === false) return;
      }
    }
    // Reversed onto the stack so folders are visited in directory order.
    for (let i = subdirs.length - 1; i >= 0; i--) stack.push({ dir: subdirs[i] as string, layers });
  }
}
