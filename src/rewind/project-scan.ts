/**
 * One pass over the project for the before/after comparison around a command: every tracked path
 * with its lstat (size, mtime, ctime, inode, mode), handed to a visitor as it is found so nothing is
 * copied per scan. What is left out, and why:
 *   - paths a .gitignore (nested ones too, and .git/info/exclude) ignores, as git would;
 *   - vendored and dependency folders (node_modules, .venv …): someone else's code, reinstallable;
 *   - the inside of .git, except the few files a person or a planted script edits (config, hooks/,
 *     info/): objects, refs and the index are git's own state and never rewound;
 *   - files over the size cap (seen, listed, their contents not kept).
 * Listings and stats are synchronous, in slices with a yield between them: for thousands of small
 * files the promise API costs more in thread-pool round trips than the calls themselves.
 */
import { lstatSync, readdirSync, readFileSync, type Dirent, type Stats } from 'node:fs';
import ignore, { type Ignore } from 'ignore';
import { VENDORED_DIRS } from '../tools/walk-files.js';

/** Inside .git, only these are tracked: what a person or a planted script would edit. */
const GIT_KEPT: ReadonlySet<string> = new Set(['config', 'description', 'hooks', 'info']);

/** Folders never scanned, beyond VENDORED_DIRS (which already has .git, handled apart). */
const ALSO_SKIPPED: ReadonlySet<string> = new Set(['.lindwyrm']);

const IGNORE_FILES = ['.gitignore', '.ignore'];
const SLICE_MS = 12;

export type SkipReason = 'vendored' | 'ignored' | 'large';

export interface ScanVisitor {
  /** A tracked path (project-relative, '/' separators) and its lstat. */
  entry(rel: string, info: Stats): void;
  /**
   * A path left out: a folder (with its trailing '/', and its mtime, which moves when entries are
   * added or removed directly inside it) or a large file (with its size).
   */
  skip(rel: string, why: SkipReason, detail: { readonly size?: number; readonly mtimeMs?: number }): void;
}

/**
 * Parsed ignore files by folder, kept from scan to scan: the ignore package remembers each path's
 * answer inside its rules object, so reusing the object makes every later scan's checks lookups.
 */
export type RulesCache = Map<string, { readonly stamp: string; readonly rules: Ignore | undefined }>;

export interface ScanOptions {
  readonly root: string;
  readonly rulesCache?: RulesCache;
  /** Files above this are listed as large, not visited. */
  readonly maxFileBytes: number;
  /** Stop after this many paths (a session started in ~ must not walk the whole disk). */
  readonly maxPaths: number;
}

export interface ScanOutcome {
  readonly paths: number;
  /** True when maxPaths cut it short: the result cannot say what was deleted. */
  readonly truncated: boolean;
  /** Ignored files (not folders), counted rather than listed. */
  readonly ignoredFiles: number;
}

interface Layer {
  /** Project-relative folder the rules sit in ('' for the root). */
  readonly base: string;
  readonly rules: Ignore;
}

function cachedRules(abs: string, names: readonly string[], cache: RulesCache | undefined): Ignore | undefined {
  if (!cache) return readRules(abs, names);
  let stamp = '';
  for (const name of names) {
    const info = lstatQuiet(`${abs}/${name}`);
    stamp += info ? `${info.size}:${info.mtimeMs}:${info.ino};` : '-;';
  }
  const hit = cache.get(abs);
  if (hit?.stamp === stamp) return hit.rules;
  const rules = readRules(abs, names);
  cache.set(abs, { stamp, rules });
  return rules;
}

function readRules(abs: string, names: readonly string[]): Ignore | undefined {
  let rules: Ignore | undefined;
  for (const name of names) {
    let text: string;
    try {
      text = readFileSync(`${abs}/${name}`, 'utf8');
    } catch {
      continue;
    }
    rules ??= ignore();
    rules.add(text);
  }
  return rules;
}

function ignoredBy(layers: readonly Layer[], rel: string, isDir: boolean): boolean {
  for (const { base, rules } of layers) {
    const sub = base === '' ? rel : rel.slice(base.length + 1);
    if (sub !== '' && rules.ignores(isDir ? `${sub}/` : sub)) return true;
  }
  return false;
}

/** Whether a project-relative path is one the scan would track (for paths a file tool named). */
export function isScannedPath(rel: string): boolean {
  const parts = rel.split('/');
  const git = parts.indexOf('.git');
  if (git >= 0) return parts.length > git + 1 && GIT_KEPT.has(parts[git + 1] ?? '');
  return !parts.some((p) => VENDORED_DIRS.has(p) || ALSO_SKIPPED.has(p));
}

function mtimeOf(abs: string): number | undefined {
  try {
    return lstatSync(abs, { throwIfNoEntry: false })?.mtimeMs;
  } catch {
    return undefined;
  }
}

export async function scanProject(opts: ScanOptions, visit: ScanVisitor): Promise<ScanOutcome> {
  const rootRules = cachedRules(`${opts.root}/.git/info`, ['exclude'], opts.rulesCache);
  const stack: { rel: string; layers: readonly Layer[]; inGit: boolean }[] = [
    { rel: '', layers: rootRules ? [{ base: '', rules: rootRules }] : [], inGit: false },
  ];
  let paths = 0;
  let ignoredFiles = 0;
  let sliceStart = performance.now();
  while (stack.length > 0) {
    if (performance.now() - sliceStart > SLICE_MS) {
      await new Promise((resolve) => setImmediate(resolve));
      sliceStart = performance.now();
    }
    const { rel, layers: inherited, inGit } = stack.pop()!;
    const abs = rel === '' ? opts.root : `${opts.root}/${rel}`;
    let entries: Dirent[];
    try {
      entries = readdirSync(abs, { withFileTypes: true });
    } catch {
      continue; // unreadable or gone: nothing to compare inside
    }
    const own = !inGit && entries.some((e) => IGNORE_FILES.includes(e.name)) ? cachedRules(abs, IGNORE_FILES, opts.rulesCache) : undefined;
    const layers = own ? [...inherited, { base: rel, rules: own }] : inherited;
    const atGitTop = rel === '.git' || rel.endsWith('/.git');
    for (const entry of entries) {
      const name = entry.name;
      const childRel = rel === '' ? name : `${rel}/${name}`;
      if (atGitTop && !GIT_KEPT.has(name)) continue;
      const isDir = entry.isDirectory();
      if (isDir && name === '.git') {
        stack.push({ rel: childRel, layers: [], inGit: true });
        continue;
      }
      if (isDir && !inGit && (VENDORED_DIRS.has(name) || ALSO_SKIPPED.has(name))) {
        visit.skip(`${childRel}/`, 'vendored', { mtimeMs: mtimeOf(`${abs}/${name}`) });
        continue;
      }
      if (!inGit && layers.length > 0 && ignoredBy(layers, childRel, isDir)) {
        if (isDir) visit.skip(`${childRel}/`, 'ignored', { mtimeMs: mtimeOf(`${abs}/${name}`) });
        else ignoredFiles++;
        continue;
      }
      let info: Stats | undefined;
      try {
        info = lstatQuiet(`${abs}/${name}`);
      } catch {
        info = undefined;
      }
      if (!info) continue;
      if (!info.isFile() && !info.isDirectory() && !info.isSymbolicLink()) continue; // FIFOs, sockets, devices
      if (info.isFile() && info.size > opts.maxFileBytes) {
        visit.skip(childRel, 'large', { size: info.size });
      }
      if (++paths > opts.maxPaths) return { paths, truncated: true, ignoredFiles };
      visit.entry(childRel, info);
      if (info.isDirectory()) stack.push({ rel: childRel, layers, inGit });
    }
  }
  return { paths, truncated: false, ignoredFiles };
}

/**
 * lstat that answers undefined for a path that is not there, including one whose parent has become
 * a file since (ENOTDIR: a folder a command replaced with a file) — not a failure of the scan.
 */
export function lstatQuiet(abs: string): Stats | undefined {
  try {
    return lstatSync(abs, { throwIfNoEntry: false });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOTDIR') return undefined;
    throw error;
  }
}
