/**
 * Files that make other programs run code without anyone typing a command: git hooks and config,
 * lindwyrm's own config, direnv, editor task runners, other agents' hook settings, package-manager
 * rc files that can swap the binary they run. A write or delete there is always asked about.
 *
 * Deliberately not listed: package.json, Makefile, test files. They are run too, but only when
 * somebody runs a command, and that command goes through the bash policy; listing them would turn
 * every ordinary edit into a prompt without closing anything.
 */
import path from 'node:path';
import { foldCase } from './case-fold.js';

/** Any path component with one of these names puts the file in scope (nested repos included). */
const SENSITIVE_DIRS = new Set([
  '.git', // hooks, config (fsmonitor, pager, filters), and the `.git` file of worktrees/submodules
  '.lindwyrm', // our own plugins and project settings
  '.husky', // git hooks installed from the tree
  '.githooks',
  '.vscode', // tasks.json can run on folder open; settings.json sets terminal env
  '.idea', // run configurations
  '.devcontainer', // postCreateCommand and friends
  '.claude', // other agents' settings, which define hooks that run commands
  '.cursor',
  '.gemini',
  '.codex',
  '.ssh', // authorized_keys lets others in; config's ProxyCommand runs on every ssh
]);

const SENSITIVE_FILES = new Set([
  '.lindwyrm.toml',
  '.envrc', // direnv runs it on cd
  '.npmrc', // script-shell, node-options
  '.yarnrc',
  '.yarnrc.yml', // yarnPath runs an arbitrary script on every yarn command
  '.pnpmfile.cjs',
  '.pnpmfile.mjs',
  '.pre-commit-config.yaml',
  '.gitconfig',
  // Shell start-up files run on every new shell (outside the project, reached through a path rule).
  '.bashrc',
  '.bash_profile',
  '.bash_login',
  '.bash_logout',
  '.profile',
  '.zshrc',
  '.zshenv',
  '.zprofile',
  '.zlogin',
]);

/** Paths inside these two-level folders (relative names) are in scope. */
const SENSITIVE_SUBDIRS: readonly string[] = [
  '.github/workflows', '.cargo/config', '.cargo/config.toml',
  // lindwyrm's own user config and plugins, git's global config, shells' and the desktop's autostart.
  '.config/lindwyrm', '.config/git', '.config/fish', '.config/autostart', '.config/systemd',
];

/** `realPath` is absolute and real; `projectRoot` real. Judged on the part below the root when inside. */
export function isExecSensitive(realPath: string, projectRoot: string): boolean {
  const rel = realPath === projectRoot || realPath.startsWith(projectRoot + path.sep)
    ? path.relative(projectRoot, realPath)
    : realPath;
  // Case-folded: on macOS and Windows file systems `.GIT/hooks` is the same folder as `.git/hooks`,
  // and `.vſcode` (long s) the same as `.vscode`.
  const parts = foldCase(rel).split(path.sep).filter((p) => p !== '');
  if (parts.length === 0) return false;
  for (const part of parts.slice(0, -1)) if (SENSITIVE_DIRS.has(part)) return true;
  const last = parts[parts.length - 1] as string;
  if (SENSITIVE_DIRS.has(last) || SENSITIVE_FILES.has(last)) return true;
  const joined = parts.join('/');
  return SENSITIVE_SUBDIRS.some((dir) => joined === dir || joined.startsWith(dir + '/') || joined.includes('/' + dir + '/') || joined.endsWith('/' + dir));
}
