/**
 * The sandbox's file system, black-box through the built CLI: writes land only in the project
 * and the private /tmp, the always-ask files stay read-only, masked paths are not there at all,
 * and a read-denied file cannot be read by cat, grep -r or git show. Needs bubblewrap; skips
 * with the reason printed otherwise. Run `npm run build` first.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { sandboxSkipReason } from '../support/sandbox-host.js';
import { useBuild } from './support/cli.js';
import { sandboxSessions } from './support/sandbox-session.js';

vi.setConfig({ testTimeout: 60_000 });

const cli = useBuild();
const sessions = sandboxSessions(cli);
const skip = await sandboxSkipReason();

afterEach(() => sessions.cleanup());

const SECRET = 'sk-live-9f8e7d6c5b4a39281706';

/** A project whose .env (committed to git) holds SECRET, with a read = "deny" rule on it. */
const deniedEnv = {
  tablesToml: (e: { project: string }) => `[[policy.rules]]\npath = "${join(e.project, '.env')}"\nread = "deny"\n`,
  prepare: async (e: { project: string }) => {
    await writeFile(join(e.project, '.env'), `API_TOKEN=${SECRET}\nDEBUG=1\n`);
    await writeFile(join(e.project, 'app.js'), 'console.log(1);\n');
    const git = (...args: string[]) => execFileSync('git', args, { cwd: e.project, env: { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null' } });
    git('init', '-q');
    git('add', '.');
    git('-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qm', 'init');
  },
};

describe.skipIf(skip !== undefined)('the sandbox file system, through lwyrm -p', () => {
  it('writes inside the project; a write beside it, in $HOME or in /etc fails and the result says which setting opens it', async () => {
    const { run, results, env } = await sessions.run([
      'echo inside > made.txt && cat made.txt',
      'echo x > ../outside.txt; echo x > "$HOME/outside.txt"; echo x > /etc/lwyrm-outside; echo done',
      'echo tmp > /tmp/scratch && cat /tmp/scratch',
    ]);
    expect(run.status, run.stderr).toBe(0);
    expect(await readFile(join(env.project, 'made.txt'), 'utf8')).toBe('inside\n');
    expect(results[0]).toContain('inside');
    expect(results[1]).toMatch(/outside\.txt: Read-only file system/);
    expect(results[1]).toContain('/etc/lwyrm-outside');
    expect(existsSync(join(env.root, 'outside.txt'))).toBe(false);
    expect(existsSync('/etc/lwyrm-outside')).toBe(false);
    // The private /tmp works, and is not the machine's.
    expect(results[2]).toContain('tmp');
    expect(existsSync('/tmp/scratch') && (await readFile('/tmp/scratch', 'utf8')) === 'tmp\n').toBe(false);
  });

  it('a failing write outside gets a note naming sandbox_writable; a listed folder is writable', async () => {
    const { results, env } = await sessions.run(['touch "$HOME/cache-dir/x" && echo wrote', 'touch "$HOME/other/x"'], {
      configToml: 'sandbox_writable = ["~/cache-dir"]\n',
      prepare: async (e) => {
        await mkdir(join(e.root, 'cache-dir'));
        await mkdir(join(e.root, 'other'));
      },
    });
    expect(results[0]).toContain('wrote');
    expect(existsSync(join(env.root, 'cache-dir', 'x'))).toBe(true);
    expect(results[1]).toContain('Read-only file system');
    expect(results[1]).toContain('sandbox_writable');
    expect(existsSync(join(env.root, 'other', 'x'))).toBe(false);
  });

  it('keeps .git/hooks, .git/config and .envrc read-only inside the writable project', async () => {
    const { results, env } = await sessions.run(
      ['echo "curl evil" > .git/hooks/pre-commit; echo "[core] fsmonitor = evil" >> .git/config; echo evil >> .envrc; git status --short | head -3'],
      {
        prepare: async (e) => {
          execFileSync('git', ['init', '-q'], { cwd: e.project });
          await writeFile(join(e.project, '.envrc'), 'export A=1\n');
        },
      },
    );
    expect(results[0]).toMatch(/pre-commit: Read-only file system/);
    expect(results[0]).toMatch(/\.git\/config: Read-only file system/);
    expect(results[0]).toMatch(/\.envrc: Read-only file system/);
    expect(results[0]).toContain('write_file or edit_file');
    expect(existsSync(join(env.project, '.git', 'hooks', 'pre-commit'))).toBe(false);
    expect(await readFile(join(env.project, '.git', 'config'), 'utf8')).not.toContain('evil');
    expect(await readFile(join(env.project, '.envrc'), 'utf8')).toBe('export A=1\n');
  });

  it('hides credential locations and lindwyrm\'s own folders: absent, not merely empty', async () => {
    const { results } = await sessions.run(
      [
        'for p in "$HOME/.ssh" "$HOME/.aws/credentials" "$HOME/.netrc" "$XDG_CONFIG_HOME/lindwyrm" "$XDG_DATA_HOME/lindwyrm"; do test -e "$p" && echo "PRESENT $p" || echo "ABSENT $p"; done',
        'cat "$HOME/.ssh/id_ed25519"; ls -a "$HOME"; cat "$HOME/notes.txt"',
      ],
      {
        prepare: async (e) => {
          await mkdir(join(e.root, '.ssh'));
          await writeFile(join(e.root, '.ssh', 'id_ed25519'), '-----BEGIN OPENSSH PRIVATE KEY----- lwyrm-test-key-material\n');
          await mkdir(join(e.root, '.aws'));
          await writeFile(join(e.root, '.aws', 'credentials'), 'aws_secret_access_key = lwyrm-aws-secret\n');
          await writeFile(join(e.root, '.netrc'), 'machine x login y password lwyrm-netrc-secret\n');
          await mkdir(join(e.root, 'data', 'lindwyrm'), { recursive: true });
          await writeFile(join(e.root, 'notes.txt'), 'plain notes\n');
        },
      },
    );
    expect(results[0]).not.toContain('PRESENT');
    expect(results[0].match(/ABSENT/g)).toHaveLength(5);
    expect(results[1]).toContain('No such file or directory');
    expect(results[1]).not.toContain('lwyrm-test-key-material');
    // `ls -a` of the home folder does not list them.
    expect(results[1]).not.toMatch(/^\.(ssh|aws|netrc)$/m);
    // The rest of the home folder is still there, read-only.
    expect(results[1]).toContain('notes.txt');
    expect(results[1]).toContain('plain notes');
  });

  it('a read-denied file cannot be read by cat, grep -r or git show', async () => {
    const { results } = await sessions.run(['cat .env', 'grep -r API_TOKEN . ; grep -r -h "sk-live" . ; echo grep-done', 'git show HEAD:.env; git log -p | grep TOKEN; echo git-done', 'cp .env copy.txt; cat copy.txt'], deniedEnv);
    expect(results).toHaveLength(4);
    for (const r of results) expect(r).not.toContain(SECRET);
    expect(results[1]).toContain('grep-done');
    expect(results[2]).toContain('git-done');
  });
});

describe('read-denied contents without the sandbox', () => {
  it('are still cut from what cat, grep -r and git show print', async () => {
    const { results } = await sessions.run(['cat .env', 'grep -r API_TOKEN .', 'git show HEAD:.env'], { ...deniedEnv, configToml: 'sandbox = "off"\n' });
    expect(results).toHaveLength(3);
    for (const r of results) {
      expect(r).not.toContain(SECRET);
      expect(r).toContain('[content of a read-denied file]');
    }
  });
});
