/** Lists the project's source files: .gitignore honoured, dependencies, vendored and build output skipped. */
import { statSync } from 'node:fs';
import { readFile, readdir } from 'node:fs/promises';
import { extname, join } from 'node:path';
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
 * Stats run synchronously in batches of this many between yields: thousands of promise-based stats
 * cost a warm start hundreds of ms in thread-pool round trips, while a batch of cached stats takes a
 * few ms, so the event loop (typing) still gets a turn often.
 */
const STAT_BATCH = 200;

const MINIFIED_NAME = /[.-]min\.[cm]?js$|\.bundle\.[cm]?js$|\.chunk\.[cm]?js$/i;

async function readIgnore(dir: string): Promise<Ignore | undefined> {
  try {
    return ignore().add(await readFile(join(dir, '.gitignore'), 'utf8'));
  } catch {
    return undefined;
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

/** Walks `root` and returns its indexable files, sorted by path so every run sees the same order. */
export async function walkProject(root: string, opts: WalkOptions): Promise<WalkResult> {
  const out: WalkedFile[] = [];
  const limit = opts.maxFiles ?? Infinity;
  let truncated = false;
  let sinceYield = 0;
  const statFile = async (rel: string, abs: string): Promise<void> => {
    if (++sinceYield >= STAT_BATCH) {
      sinceYield = 0;
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
    let st;
    try {
      st = statSync(abs, { throwIfNoEntry: false });
    } catch {
      return;
    }
    if (st?.isFile() && st.size <= opts.maxFileBytes) out.push({ rel, abs, size: st.size, mtimeMs: st.mtimeMs });
  };
  const visit = async (rel: string, stack: readonly Rules[]): Promise<void> => {
    if (out.length >= limit) {
      truncated = true;
      return;
    }
    const abs = rel ? join(root, rel) : root;
    let entries;
    try {
      entries = await readdir(abs, { withFileTypes: true });
    } catch {
      return;
    }
    // Only a directory that lists a .gitignore pays for reading one.
    const own = entries.some((e) => e.name === '.gitignore') ? await readIgnore(abs) : undefined;
    const rules = own ? [...stack, { base: rel, rules: own }] : stack;
    const subdirs: Promise<void>[] = [];
    const found: [string, string][] = [];
    for (const entry of entries) {
      const childRel = rel ? `${rel}/${entry.name}` : entry.name;
      // Symbolic links are not followed: they can loop or lead outside the project.
      if (entry.isDirectory()) {
        if (SKIPPED_DIRS.has(entry.name) || ignored(rules, childRel, true)) continue;
        subdirs.push(visit(childRel, rules));
      } else if (entry.isFile()) {
        const ext = extname(entry.name).toLowerCase();
        if (!opts.extensions.has(ext) || MINIFIED_NAME.test(entry.name) || ignored(rules, childRel, false)) continue;
        const childAbs = join(abs, entry.name);
        found.push([childRel, childAbs]);
      }
    }
    for (const [childRel, childAbs] of found) await statFile(childRel, childAbs);
    await Promise.all(subdirs);
  };
  await visit('', []);
  const files = out.sort((a, b) => (a.rel < b.rel ? -1 : a.rel > b.rel ? 1 : 0));
  if (files.length > limit) truncated = true;
  return { files: files.slice(0, limit), truncated };
}
