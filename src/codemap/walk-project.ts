/** Lists the project's source files: .gitignore honoured, dependencies, vendored and build output skipped. */
import { readFile, readdir, stat } from 'node:fs/promises';
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
    const own = await readIgnore(abs);
    const rules = own ? [...stack, { base: rel, rules: own }] : stack;
    const subdirs: Promise<void>[] = [];
    const stats: Promise<void>[] = [];
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
        stats.push(stat(childAbs).then((st) => {
          if (st.size <= opts.maxFileBytes) out.push({ rel: childRel, abs: childAbs, size: st.size, mtimeMs: st.mtimeMs });
        }, () => undefined));
      }
    }
    await Promise.all([...stats, ...subdirs]);
  };
  await visit('', []);
  const files = out.sort((a, b) => (a.rel < b.rel ? -1 : a.rel > b.rel ? 1 : 0));
  if (files.length > limit) truncated = true;
  return { files: files.slice(0, limit), truncated };
}
