/**
 * Turns the path a model typed into the real destination, the way the kernel would see it:
 * `~` expanded, relative paths taken from the project root, `..` and symlinks resolved component
 * by component (so `link/..` goes where the kernel goes, not where string normalising would),
 * and for a file that does not exist yet, the nearest existing parent's real path plus the rest.
 * Every permission check runs on the result, so a link cannot dodge a rule.
 */
import { realpathSync } from 'node:fs';
import { lstat, readlink, realpath, stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import path from 'node:path';
import { isCaseInsensitive, isCaseInsensitiveAt, withRootSpelling } from './case-fold.js';
import { escapePath, fsPath } from '../io/byte-names.js';

export interface ResolvedPath {
  /** What was asked for, verbatim. */
  readonly requested: string;
  /** Absolute real path: the destination an operation would touch. */
  readonly realPath: string;
  readonly exists: boolean;
  /** Inside the (real) project root. */
  readonly inside: boolean;
  /** A regular file with more than one hard link: its other names may be anywhere. */
  readonly multiLinked: boolean;
  readonly isDirectory: boolean;
  /** The final component is itself a symlink (only reported when `followFinal` is false). */
  readonly isSymlink: boolean;
  /**
   * It exists but is neither a regular file nor a folder (a FIFO, socket or device): opening it
   * can block forever or never reach end-of-file, so tools refuse it before touching it.
   */
  readonly isSpecial: boolean;
  /** Real path of the project root it was judged against. */
  readonly root: string;
  /**
   * The root's file system ignores case (case-fold.ts), so rules and names compare folded. The
   * part of `realPath` naming the root is then spelled as `root` is, whatever case was typed.
   */
  readonly caseInsensitive?: boolean;
}

export interface ResolveOptions {
  /** Resolve a symlink in the last component (true) or treat the link itself as the target. */
  readonly followFinal?: boolean;
  readonly home?: string;
}

export class PathResolveError extends Error {}

const MAX_LINKS = 40;

export function expandHome(input: string, home: string = homedir()): string {
  if (input === '~') return home;
  if (input.startsWith('~/')) return home + input.slice(1);
  return input;
}

function isErrno(error: unknown, code: string): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === code;
}

/** Real path of the project root, cached: config gives it real already, but be sure. */
const rootCache = new Map<string, string>();
async function realRoot(root: string): Promise<string> {
  const cached = rootCache.get(root);
  if (cached !== undefined) return cached;
  let real = path.resolve(root);
  try {
    real = await realpath(real);
  } catch {
    // A missing root still gets a lexical answer; every operation under it fails later anyway.
  }
  rootCache.set(root, real);
  return real;
}

/**
 * A rule's path as a real path, so it is compared like with like: a rule naming a symlinked folder
 * (a dotfile manager's ~/.ssh, a linked home) must still match the real paths of what is inside.
 * The part that does not exist yet is kept as written.
 */
export function realRulePath(rulePath: string, projectRoot: string, home?: string): string {
  const absolute = path.resolve(projectRoot, expandHome(rulePath, home));
  const rest: string[] = [];
  for (let existing = absolute; ; existing = path.dirname(existing)) {
    try {
      return path.join(realpathSync.native(existing), ...rest);
    } catch {
      if (path.dirname(existing) === existing) return absolute;
      rest.unshift(path.basename(existing));
    }
  }
}

export function isWithin(child: string, parent: string): boolean {
  if (child === parent) return true;
  const prefix = parent.endsWith(path.sep) ? parent : parent + path.sep;
  return child.startsWith(prefix);
}

/** Walks components like the kernel: returns the real path and whether it exists. */
async function walk(absolute: string, followFinal: boolean): Promise<{ real: string; exists: boolean }> {
  const pending = absolute.split('/').filter((c) => c !== '' && c !== '.');
  let current = '/';
  let links = 0;
  while (pending.length > 0) {
    const name = pending.shift() as string;
    if (name === '..') {
      current = path.dirname(current);
      continue;
    }
    const next = current === '/' ? `/${name}` : `${current}/${name}`;
    let info;
    try {
      info = await lstat(fsPath(next));
    } catch (error) {
      if (isErrno(error, 'ENOENT') || isErrno(error, 'ENOTDIR')) {
        // Nothing exists from here on: the rest is taken literally (normalised).
        return { real: path.resolve(next, ...pending), exists: false };
      }
      throw error;
    }
    const isLast = pending.length === 0;
    if (info.isSymbolicLink() && (!isLast || followFinal)) {
      if (++links > MAX_LINKS) throw new PathResolveError(`too many levels of symbolic links at ${next}`);
      const target = escapePath(await readlink(fsPath(next), { encoding: 'buffer' }));
      const parts = target.split('/').filter((c) => c !== '' && c !== '.');
      if (target.startsWith('/')) current = '/';
      pending.unshift(...parts);
      continue;
    }
    current = next;
  }
  return { real: current, exists: true };
}

export async function resolvePath(
  input: string,
  projectRoot: string,
  options: ResolveOptions = {},
): Promise<ResolvedPath> {
  const root = await realRoot(projectRoot);
  const expanded = expandHome(input, options.home);
  // Joined, not normalised: `..` must be applied after the links before it are followed.
  const absolute = expanded.startsWith('/') ? expanded : `${root}/${expanded}`;
  const walked = await walk(absolute, options.followFinal ?? true);
  const { exists } = walked;
  const rootFolds = isCaseInsensitive(root);
  const real = rootFolds ? withRootSpelling(walked.real, root) : walked.real;
  const inside = isWithin(real, root);
  // Outside the project the path's own file system decides too (it may be another one).
  const caseInsensitive = rootFolds || (!inside && isCaseInsensitiveAt(real));
  let multiLinked = false;
  let isDirectory = false;
  let isSymlink = false;
  let isSpecial = false;
  if (exists) {
    const info = await lstat(fsPath(real));
    isSymlink = info.isSymbolicLink();
    const target = isSymlink ? await stat(fsPath(real)).catch(() => info) : info;
    isDirectory = target.isDirectory();
    multiLinked = target.isFile() && target.nlink > 1;
    isSpecial = !target.isFile() && !isDirectory && !target.isSymbolicLink();
  }
  return { requested: input, realPath: real, exists, inside, multiLinked, isDirectory, isSymlink, isSpecial, root, caseInsensitive };
}
