/** Path handling for config values: `~` expansion, a base directory, and symlinks resolved. */
import { realpathSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, resolve } from 'node:path';

export function expandHome(path: string, home: string): string {
  if (path === '~') return home;
  if (path.startsWith('~/')) return join(home, path.slice(2));
  return path;
}

/**
 * The real location of `path`: symlinks resolved for the longest prefix that exists, the rest
 * appended. A rule for a path that does not exist yet must still match once it is created, and a
 * link must not let a path dodge a rule.
 */
export function realPathLoose(path: string): string {
  const missing: string[] = [];
  let current = resolve(path);
  for (;;) {
    try {
      const real = realpathSync(current);
      return missing.length === 0 ? real : join(real, ...missing.reverse());
    } catch {
      const parent = dirname(current);
      if (parent === current) return resolve(path);
      missing.push(basename(current));
      current = parent;
    }
  }
}

/** `~` expanded, relative paths taken from `baseDir`, symlinks resolved where they exist. */
export function resolveConfigPath(path: string, baseDir: string, home: string): string {
  const expanded = expandHome(path, home);
  return realPathLoose(isAbsolute(expanded) ? expanded : resolve(baseDir, expanded));
}

/** True when `path` is `root` or lies under it (both already real, absolute paths). */
export function isInside(path: string, root: string): boolean {
  if (path === root) return true;
  const prefix = root.endsWith('/') ? root : `${root}/`;
  return path.startsWith(prefix);
}
