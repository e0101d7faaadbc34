/**
 * git's config files hold credentials in two places people forget: a remote URL with a token in
 * it (`https://user:ghp_…@github.com/…`, as CI checkouts and some tutorials leave it), and
 * `http.extraHeader = AUTHORIZATION: basic …` (actions/checkout's persisted token). The model may
 * read the config (remotes and branches are useful); those values reach it redacted.
 */
import path from 'node:path';
import { foldCase } from './case-fold.js';

/** The config of a repository, a linked worktree, or a submodule's git directory. */
export function isGitConfig(realPath: string): boolean {
  const parts = realPath.split(path.sep).filter((p) => p !== '').map(foldCase);
  const name = parts.at(-1);
  if (name !== 'config' && name !== 'config.worktree') return false;
  // .git/config, .git/worktrees/x/config, .git/modules/a/b/config: a .git folder above it.
  return parts.slice(0, -1).includes('.git');
}

/** `scheme://userinfo@` → `scheme://[credentials redacted]@`; a URL without userinfo is left alone. */
const URL_CREDENTIALS = /([a-z][a-z0-9+.-]*:\/\/)[^\s/@"']+@/gi;
/** `extraheader = …` (any case, with or without spaces), the whole value. */
const EXTRA_HEADER = /^(\s*extraheader\s*=\s*).*$/gim;

export function redactGitConfig(text: string): { text: string; redacted: number } {
  let redacted = 0;
  const out = text
    .replace(URL_CREDENTIALS, (whole: string, scheme: string) => {
      // ssh's conventional user name is no secret, and the model needs it to tell the remote.
      if (whole.slice(scheme.length, -1) === 'git') return whole;
      redacted++;
      return `${scheme}[credentials redacted]@`;
    })
    .replace(EXTRA_HEADER, (_whole, key: string) => {
      redacted++;
      return `${key}[redacted]`;
    });
  return { text: out, redacted };
}
