/**
 * The startup probe through the built CLI, on machines where the sandbox cannot start — made by
 * a PATH without bwrap, or with a bwrap that fails the way the known failures do: one line says
 * why and what fixes it, "auto" then runs commands unsandboxed, "required" refuses them.
 */
import { existsSync } from 'node:fs';
import { chmod, mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { findOnPath } from '../../src/tools/find-on-path.js';
import type { Sandbox } from '../support/sandbox.js';
import { useBuild } from './support/cli.js';
import { sandboxSessions } from './support/sandbox-session.js';

vi.setConfig({ testTimeout: 60_000 });

const cli = useBuild();
const sessions = sandboxSessions(cli);
afterEach(() => sessions.cleanup());

/** A PATH holding bash and, when given, a bwrap that prints `says` and fails. */
async function fakePath(e: Sandbox, says?: string): Promise<string> {
  const bin = join(e.root, 'bin');
  await mkdir(bin, { recursive: true });
  await symlink((await findOnPath('bash')) ?? '/bin/bash', join(bin, 'bash'));
  if (says !== undefined) {
    await writeFile(join(bin, 'bwrap'), `#!/bin/sh\necho '${says}' >&2\nexit 1\n`);
    await chmod(join(bin, 'bwrap'), 0o755);
  }
  return bin;
}

async function runWith(says: string | undefined, configToml = '') {
  let bin = '';
  const out = await sessions.run(['echo ran > ran.txt; echo ran'], {
    configToml,
    prepare: async (e) => {
      bin = await fakePath(e, says);
      e.env['PATH'] = bin;
    },
  });
  return { ...out, ranFile: existsSync(join(out.env.project, 'ran.txt')) };
}

describe('the sandbox probe, when the sandbox cannot start', () => {
  it('no bwrap: one line names the cause and the fix, and "auto" runs the command unsandboxed', async () => {
    const { run, results, ranFile } = await runWith(undefined);
    expect(run.status, run.stderr).toBe(0);
    const lines = run.stderr.split('\n').filter((l) => l.includes('sandbox'));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('bubblewrap (bwrap) is not installed');
    expect(lines[0]).toContain('sudo apt install bubblewrap');
    expect(lines[0]).toContain('commands run without it');
    expect(results[0]).toContain('ran');
    expect(ranFile).toBe(true);
  });

  it('sandbox = "required": the command is refused before anything runs, with the cause and the fix', async () => {
    const { run, results, ranFile } = await runWith(undefined, 'sandbox = "required"\n');
    expect(run.stderr).toContain('commands will be refused');
    expect(results[0]).toMatch(/^Not run: sandbox = "required", but the sandbox cannot start here: bubblewrap \(bwrap\) is not installed/);
    expect(results[0]).toContain('apt install bubblewrap');
    expect(ranFile).toBe(false);
  });

  it('Ubuntu\'s AppArmor restriction ("loopback: Failed RTM_NEWADDR") is named, with the profile that fixes it', async () => {
    const { run } = await runWith('bwrap: loopback: Failed RTM_NEWADDR: Operation not permitted');
    expect(run.stderr).toContain('AppArmor does not let bwrap create user namespaces');
    expect(run.stderr).toContain('apparmor_restrict_unprivileged_userns');
    expect(run.stderr).toContain('/etc/apparmor.d/bwrap');
  });

  it('a container without CAP_SYS_ADMIN ("Failed to make / slave") is named, with the container options', async () => {
    const { run } = await runWith('bwrap: Failed to make / slave: Operation not permitted');
    expect(run.stderr).toContain('bwrap said: bwrap: Failed to make / slave');
    expect(run.stderr).toContain('--cap-add SYS_ADMIN');
  });

  it('sandbox = "off" says nothing and runs the command', async () => {
    const { run, ranFile } = await runWith(undefined, 'sandbox = "off"\n');
    expect(run.stderr).not.toContain('sandbox');
    expect(ranFile).toBe(true);
  });
});
