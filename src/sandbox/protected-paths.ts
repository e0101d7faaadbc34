/**
 * Paths inside the writable project that stay read-only in the sandbox: git's hooks and config
 * (of the repository, a worktree's common folder and submodules) and the other always-ask files
 * (src/policy/exec-sensitive.ts) at the top of the project. Also the git folders outside the
 * project that a worktree needs writable to commit.
 */
import { mkdir, readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { isExecSensitive } from '../policy/exec-sensitive.js';
import { absent, ignoreError, noEntries } from '../diagnostics/ignore-error.js';

export interface ProjectGitLayout {
  /** Read-only binds, existing paths only. */
  readonly readOnly: readonly string[];
  /** Folders outside the project a linked worktree writes to (its git dir, the common dir). */
  readonly writable: readonly string[];
}

const exists = (p: string): Promise<boolean> => stat(p).then(() => true, () => false);

/**
 * hooks/ and config of one git directory. A repository's own hooks/ is created when missing, so
 * it can be bound read-only (an empty hooks folder is what `git init` makes); a linked
 * worktree's git dir has none of its own, git runs the common dir's.
 */
async function gitDirProtections(gitDir: string, into: string[], ownHooks = true): Promise<void> {
  const hooks = path.join(gitDir, 'hooks');
  if (ownHooks) await mkdir(hooks, { recursive: true }).catch(ignoreError('create .git/hooks to keep it read-only'));
  for (const p of [hooks, path.join(gitDir, 'config'), path.join(gitDir, 'config.worktree')]) {
    if (await exists(p)) into.push(p);
  }
  // Submodules keep their own git directories under modules/, each with hooks and config.
  const modules = path.join(gitDir, 'modules');
  const walk = async (dir: string, depth: number): Promise<void> => {
    if (depth > 3) return;
    for (const entry of await readdir(dir, { withFileTypes: true }).catch(noEntries)) {
      if (!entry.isDirectory()) continue;
      const sub = path.join(dir, entry.name);
      if (await exists(path.join(sub, 'HEAD'))) {
        for (const p of [path.join(sub, 'hooks'), path.join(sub, 'config')]) if (await exists(p)) into.push(p);
        await walk(path.join(sub, 'modules'), depth + 1);
      } else await walk(sub, depth + 1);
    }
  };
  await walk(modules, 0);
}

/** `.git` as a file ("gitdir: …"): a linked worktree or a submodule checkout. */
async function linkedGitDirs(dotGit: string): Promise<{ gitDir: string; commonDir: string } | undefined> {
  const text = (await readFile(dotGit, 'utf8').catch(absent)) ?? '';
  const target = /^gitdir:\s*(.+)$/m.exec(text)?.[1]?.trim();
  if (!target) return undefined;
  const gitDir = path.resolve(path.dirname(dotGit), target);
  const common = ((await readFile(path.join(gitDir, 'commondir'), 'utf8').catch(absent)) ?? '').trim();
  return { gitDir, commonDir: common ? path.resolve(gitDir, common) : gitDir };
}

export async function projectProtections(projectRoot: string): Promise<ProjectGitLayout> {
  const readOnly: string[] = [];
  const writable: string[] = [];
  const dotGit = path.join(projectRoot, '.git');
  const st = await stat(dotGit).catch(absent);
  if (st?.isDirectory()) await gitDirProtections(dotGit, readOnly);
  else if (st?.isFile()) {
    const linked = await linkedGitDirs(dotGit);
    if (linked) {
      for (const dir of new Set([linked.gitDir, linked.commonDir])) {
        if (!dir.startsWith(projectRoot + path.sep) && (await exists(dir))) writable.push(dir);
        await gitDirProtections(dir, readOnly, dir === linked.commonDir);
      }
    }
  }
  const hiddenDirs: string[] = [];
  for (const entry of await readdir(projectRoot, { withFileTypes: true }).catch(noEntries)) {
    if (entry.name === '.git') continue;
    const full = path.join(projectRoot, entry.name);
    if (isExecSensitive(full, projectRoot)) readOnly.push(full);
    // Two-level names (.github/workflows, .cargo/config.toml) sit in hidden folders.
    else if (entry.isDirectory() && entry.name.startsWith('.')) hiddenDirs.push(full);
  }
  const children = await Promise.all(hiddenDirs.map((dir) => readdir(dir).catch(noEntries)));
  hiddenDirs.forEach((dir, i) => {
    for (const child of children[i] ?? []) if (isExecSensitive(path.join(dir, child), projectRoot)) readOnly.push(path.join(dir, child));
  });
  return { readOnly, writable };
}
