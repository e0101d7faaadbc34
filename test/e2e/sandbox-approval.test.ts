/**
 * bash_in_sandbox = "allow" through the built CLI: with no terminal to ask at, a command that
 * would be asked about is denied — unless it runs sandboxed and the user opted in. The denylist
 * and commands naming always-ask files are still not run, and a cloned project cannot opt in.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
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

const commands = ['echo ran > ran.txt; echo ran', 'cat .git/config', 'rm -f prices.py'];
const prepare = async (e: { project: string }) => void execFileSync('git', ['init', '-q'], { cwd: e.project });

describe.skipIf(skip !== undefined)('bash_in_sandbox, through lwyrm -p without a terminal', () => {
  it('"allow": a sandboxed command runs without asking; denylist and always-ask files still stop it', async () => {
    const { run, results, env } = await sessions.run(commands, {
      configToml: 'bash_in_sandbox = "allow"\n[policy]\nbash_denylist = ["rm"]\n',
      prepare,
      args: [],
    });
    expect(run.status, run.stderr).toBe(0);
    expect(results[0]).toContain('ran');
    expect(existsSync(join(env.project, 'ran.txt'))).toBe(true);
    expect(results[1]).not.toContain('[core]');
    expect(results[1]).toMatch(/not run|denied|declined/i);
    expect(results[2]).toMatch(/Denied by policy \(denylist: rm\)/);
    expect(existsSync(join(env.project, 'prices.py'))).toBe(true);
  });

  it('the default ("confirm") still asks, so nothing runs without a terminal; the startup hint offers "allow" with --verbose', async () => {
    const { run, results, env } = await sessions.run(commands.slice(0, 1), { prepare, args: ['--verbose'] });
    expect(results[0]).not.toMatch(/^ran/m);
    expect(existsSync(join(env.project, 'ran.txt'))).toBe(false);
    expect(run.stderr).toContain('set bash_in_sandbox = "allow" in your config');
  });

  it('an untrusted project cannot opt in for you', async () => {
    const { run, env } = await sessions.run(commands.slice(0, 1), {
      prepare: async (e) => {
        await prepare(e);
        await writeFile(join(e.project, '.lindwyrm.toml'), 'bash_in_sandbox = "allow"\n');
      },
      args: [],
    });
    expect(run.stderr).toContain('bash_in_sandbox = "allow"');
    expect(run.stderr).toContain('may not set these');
    expect(existsSync(join(env.project, 'ran.txt'))).toBe(false);
  });
});
