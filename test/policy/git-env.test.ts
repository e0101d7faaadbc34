import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { neutralGitEnv } from '../../src/policy/git-env.js';
import { bashTool } from '../../src/tools/bash.js';
import { makePolicy } from '../tools/make-config.js';
import { makeContext } from '../tools/make-context.js';
import { makeTempDir } from '../tools/make-context.js';

const run = promisify(execFile);
let repo: string;
let marker: string;

async function git(args: string[], env: Record<string, string> = {}) {
  return run('git', args, { cwd: repo, env: { ...process.env, ...env, GIT_CONFIG_NOSYSTEM: '1', HOME: repo } });
}

beforeAll(async () => {
  repo = await makeTempDir('lwyrm-git-');
  marker = path.join(repo, 'PWNED');
  await git(['init', '-q']);
  await writeFile(path.join(repo, 'f.txt'), 'one\n');
  await git(['add', 'f.txt']);
  await git(['-c', 'user.email=t@example.invalid', '-c', 'user.name=t', 'commit', '-qm', 'init']);
  const evil = path.join(repo, 'evil.sh');
  await writeFile(evil, `#!/bin/sh\ntouch "${marker}"\ncat\n`);
  await chmod(evil, 0o755);
  // What a hostile clone's .git/config could carry.
  const hook = path.join(repo, 'hook.sh');
  await writeFile(hook, `#!/bin/sh\ntouch "${marker}"\nexit 0\n`);
  await chmod(hook, 0o755);
  await git(['config', 'core.fsmonitor', hook]);
  await git(['config', 'core.pager', evil]);
  await git(['config', 'pager.log', evil]);
  await git(['config', 'diff.external', evil]);
  await git(['config', 'filter.x.clean', evil]);
  await writeFile(path.join(repo, '.gitattributes'), '*.txt filter=x\n');
  await writeFile(path.join(repo, 'f.txt'), 'two\n');
});

describe('neutralGitEnv', () => {
  it('keeps a hostile repository config from running programs during status, diff and log', async () => {
    const env = await neutralGitEnv(repo);
    const status = await git(['status', '--short'], env);
    expect(status.stdout).toContain('f.txt');
    await git(['diff'], env).catch(() => undefined); // an inert external diff may fail; it must not run
    await git(['log', '-p', '--ext-diff'], env).catch(() => undefined);
    expect(existsSync(marker)).toBe(false);
  });

  it('the bash tool runs an allowlisted git command with the overrides, without asking', async () => {
    const ctx = makeContext(repo, { config: { policy: makePolicy({ bashAllowlist: ['git status'] }) } });
    const r = await bashTool.run({ command: 'git status --short' }, ctx);
    expect(r.content).toContain('f.txt');
    expect(ctx.asked).toHaveLength(0);
    expect(existsSync(marker)).toBe(false);
  });

  it('the same repository without the overrides does run the program (the test can fail)', async () => {
    await git(['status', '--short']).catch(() => undefined);
    expect(existsSync(marker)).toBe(true);
  });

  it('also blanks interactive.diffFilter, core.alternateRefsCommand and man/browser commands a repository sets', async () => {
    const dir = await makeTempDir('lwyrm-git-keys-');
    const opts = { cwd: dir, env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1', HOME: dir } };
    await run('git', ['init', '-q'], opts);
    for (const key of ['interactive.diffFilter', 'core.alternateRefsCommand', 'man.evil.cmd', 'browser.evil.path']) {
      await run('git', ['config', key, './evil.sh'], opts);
    }
    const env = await neutralGitEnv(dir);
    const overrides = new Map<string, string | undefined>();
    for (let i = 0; i < Number(env['GIT_CONFIG_COUNT']); i++) overrides.set(env[`GIT_CONFIG_KEY_${i}`] as string, env[`GIT_CONFIG_VALUE_${i}`]);
    for (const key of ['interactive.difffilter', 'core.alternaterefscommand', 'man.evil.cmd', 'browser.evil.path']) {
      expect(overrides.get(key)).toBe('');
    }
  });

  it('leaves git diff working in a repository that sets nothing', async () => {
    const clean = await makeTempDir('lwyrm-git-clean-');
    const opts = { cwd: clean, env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1', HOME: clean } };
    await run('git', ['init', '-q'], opts);
    await writeFile(path.join(clean, 'a'), '1\n');
    await run('git', ['add', 'a'], opts);
    await writeFile(path.join(clean, 'a'), '2\n');
    const env = await neutralGitEnv(clean);
    const out = await run('git', ['diff'], { ...opts, env: { ...opts.env, ...env } });
    expect(out.stdout).toContain('+2');
  });
});
