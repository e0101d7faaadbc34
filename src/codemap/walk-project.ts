/** Lists the project's source files: .gitignore honoured, dependencies, vendored and build output skipped. */
import { readdirSync, statSync, type Dirent } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join, sep } from 'node:path';
import ignore, { type Ignore } from 'ignore';

export interface WalkedFile {
  /** Project-relative POSIX path. */
  readonly rel: string;
  readonly abs: string;
  readonly size: number;
  readonly mtimeMs: number;
}

export interface WalkOptions {
  /** With the dot, lower case. */
  readonly extensions: ReadonlySet<string>;
  readonly maxFileBytes: number;
  /** Stop after this many files (a session started in ~ must not index the whole disk). */
  readonly maxFiles?: number;
  /** Told the number of files found so far after each directory. */
  readonly onProgress?: (files: number) => void;
}

export interface WalkResult {
  readonly files: WalkedFile[];
  /** True when maxFiles cut the walk short. */
  readonly truncated: boolean;
}

/** Directories that hold dependencies, vendored copies, caches or build output, never the project's own code. */
export const SKIPPED_DIRS: ReadonlySet<string> = new Set([
  'node_modules', '.git', '.hg', '.svn', 'vendor', 'vendors', 'third_party', 'third-party', 'bower_components',
  'dist', 'build', 'out', 'coverage', '.next', '.nuxt', '.turbo', '.cache', '.parcel-cache', 'target',
  '__pycache__', '.venv', 'venv', '.tox', '.mypy_cache', '.pytest_cache', '.gradle', '.idea', '.vscode', '.lindwyrm',
]);

/**
 * Listings and stats run synchronously, about this many between yields: thousands of promise-based
 * calls cost a warm start hundreds of ms in thread-pool round trips, while a batch of cached stats
 * takes a few ms, so the event loop (typing) still gets a turn often.
 */
const STAT_BATCH = 400;

const MINIFIED_NAME = /[.-]min\.[cm]?js$|\.bundle\.[cm]?js$|\.chunk\.[cm]?js$/i;

async function readIgnore(dir: string): Promise<Ignore | undefined> {
  try {
    return ignore().add(await readFile(join(dir, '.gitignore'), 'utf8'));
  } catch {
    return undefined; // no .gitignore here (or unreadable): nothing ignored by it
  }
}

interface Rules {
  /** Directory (project-relative, '' for the root) the .gitignore sits in. */
  readonly base: string;
  readonly rules: Ignore;
}

function ignored(stack: readonly Rules[], rel: string, isDir: boolean): boolean {
  for (const { base, rules } of stack) {
    const sub = base ? rel.slice(base.length + 1) : rel;
    if (rules.ignores(isDir ? `${sub}/` : sub)) return true;
  }
  return false;
}

/** The extension as `extname` gives it, lower-cased, without its string juggling (this runs per file). */
function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(dot).toLowerCase() : '';
}

/**
 * Walks `root` and returns its indexable files, sorted by path so every run sees the same order.
 * Directories are listed synchronously, one at a time with a yield every so often: on a warm start
 * the listings and stats are in the kernel's cache, and promise round trips through the thread pool
 * cost more than the calls themselves.
 */
export async function walkProject(root: string, opts: WalkOptions): Promise<WalkResult> {
  const out: WalkedFile[] = [];
  const limit = opts.maxFiles ?? Infinity;
  let truncated = false;
  let sinceYield = 0;
  const pause = async (cost: number): Promise<void> => {
    sinceYield += cost;
    if (sinceYield < STAT_BATCH) return;
    sinceYield = 0;
    await new Promise<void>((resolve) => setImmediate(resolve));
  };
  // Depth first with an explicit stack, subdirectories in name order: a walk cut short by maxFiles
  // covers the same part of the project on every machine.
  const stack: { rel: string; abs: string; rules: readonly Rules[] }[] = [{ rel: '', abs: root, rules: [] }];
  while (stack.length > 0) {
    if (out.length >= limit) {
      truncated = true;
      break;
    }
    const { rel, abs, rules: inherited } = stack.pop()!;
    let entries: Dirent[];
    try {
      entries = readdirSync(abs, { withFileTypes: true });
    } catch {
      continue; // a folder gone or closed to us since it was listed: skipped
    }
    await pause(1 + entries.length / 8);
    // Only a directory that lists a .gitignore pays for reading one.
    const own = entries.some((e) => e.name === '.gitignore') ? await readIgnore(abs) : undefined;
    const rules = own ? [...inherited, { base: rel, rules: own }] : inherited;
    const prefix = rel ? `${rel}/` : '';
    const subdirs: { rel: string; abs: string; rules: readonly Rules[] }[] = [];
    for (const entry of entries) {
      const name = entry.name;
      const childRel = prefix + name;
      // Symbolic links are not followed: they can loop or lead outside the project.
      if (entry.isDirectory()) {
        if (SKIPPED_DIRS.has(name) || (rules.length > 0 && ignored(rules, childRel, true))) continue;
        subdirs.push({ rel: childRel, abs: abs + sep + name, rules });
      } else if (entry.isFile()) {
        if (!opts.extensions.has(extensionOf(name)) || MINIFIED_NAME.test(name) || (rules.length > 0 && ignored(rules, childRel, false))) continue;
        const childAbs = abs + sep + name;
        let st;
        try {
          st = statSync(childAbs, { throwIfNoEntry: false });
        } catch {
          continue; // a name that vanished or cannot be stat-ed: skipped
        }
        if (st?.isFile() && st.size <= opts.maxFileBytes) out.push({ rel: childRel, abs: childAbs, size: st.size, mtimeMs: st.mtimeMs });
      }
    }
    opts.onProgress?.(out.length);
    await pause(entries.length);
    subdirs.sort((a, b) => (a.rel < b.rel ? 1 : a.rel > b.rel ? -1 : 0));
    for (const d of subdirs) stack.push(d);
  }
  const files = out.sort((a, b) => (a.rel < b.rel ? -1 : a.rel > b.rel ? 1 : 0));
  if (files.length > limit) truncated = true;
  return { files: files.slice(0, limit), truncated };
}
