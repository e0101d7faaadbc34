/**
 * An allowlisted git command runs without a prompt, so a cloned repository's own .git/config must
 * not be able to make it run programs (core.fsmonitor, a pager, an external diff, hooks, filter
 * drivers …). Overrides go through GIT_CONFIG_COUNT/KEY/VALUE, which outrank every config file.
 */
import { execFile } from 'node:child_process';

/** Keys that are safe to override whether or not the repository sets them. */
const STATIC_OVERRIDES: ReadonlyArray<readonly [string, string]> = [
  ['core.fsmonitor', 'false'],
  ['core.hooksPath', '/dev/null'],
  ['core.pager', 'cat'],
  ['core.sshCommand', 'ssh'],
  ['core.editor', 'false'],
  ['sequence.editor', 'false'],
  ['credential.helper', ''], // an empty value resets the helper list
  ['gpg.program', 'gpg'],
  ['gpg.ssh.program', 'ssh-keygen'],
  ['gpg.x509.program', 'gpgsm'],
  ['protocol.ext.allow', 'never'],
  ['uploadpack.packObjectsHook', ''],
];

/**
 * Keys that name a program but must only be overridden when present: an empty diff.external, for
 * one, makes every `git diff` fail. Driver names are chosen by the repository, hence a pattern.
 */
const DYNAMIC_KEYS =
  '^(diff\\.external|core\\.(gitproxy|askpass|alternaterefscommand)|interactive\\.difffilter|(man|browser)\\..+\\.(cmd|path)|(filter|diff|merge)\\..+\\.(clean|smudge|process|command|textconv|driver)|remote\\..+\\.(uploadpack|receivepack|proxy|vcs)|pager\\..+|alias\\..+)$';

/** Names of program-running keys the repository's local config sets (includes followed). */
async function localProgramKeys(cwd: string): Promise<string[]> {
  return new Promise((resolve) => {
    execFile(
      'git',
      ['config', '--local', '--includes', '--name-only', '--get-regexp', DYNAMIC_KEYS],
      { cwd, timeout: 5000, env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1' } },
      (error, stdout) => {
        // Exit 1 means "no such keys"; outside a repository it fails too. Either way: none.
        if (error !== null && stdout === '') return resolve([]);
        resolve(stdout.split('\n').map((l) => l.trim()).filter((l) => l !== ''));
      },
    );
  });
}

export function configEnv(pairs: ReadonlyArray<readonly [string, string]>): Record<string, string> {
  const env: Record<string, string> = { GIT_CONFIG_COUNT: String(pairs.length) };
  pairs.forEach(([key, value], i) => {
    env[`GIT_CONFIG_KEY_${i}`] = key;
    env[`GIT_CONFIG_VALUE_${i}`] = value;
  });
  return env;
}

/** Environment additions for running an allowlisted git command in `cwd`. */
export async function neutralGitEnv(cwd: string): Promise<Record<string, string>> {
  const dynamic = await localProgramKeys(cwd);
  const pairs: Array<readonly [string, string]> = [...STATIC_OVERRIDES];
  for (const key of dynamic) {
    // A pager.<cmd> of "false" turns paging off; everything else becomes an empty (inert) program.
    pairs.push([key, key.startsWith('pager.') ? 'false' : '']);
  }
  return {
    ...configEnv(pairs),
    GIT_PAGER: 'cat',
    GIT_TERMINAL_PROMPT: '0',
    GIT_ASKPASS: '',
    SSH_ASKPASS: '',
  };
}
