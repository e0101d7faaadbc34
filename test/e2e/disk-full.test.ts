/**
 * A one-shot run whose session cannot be written (ENOSPC on a real, full file system) says so:
 * `--json` carries "saved": false and the exit status is 4, not 0. The data dir is a tiny tmpfs
 * mounted in a private user and mount namespace; where that cannot be made the test is skipped.
 * Run `npm run build` first.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startFakeProvider, type FakeProvider } from '../support/fake-provider.js';
import { makeSandbox, type Sandbox } from '../support/sandbox.js';
import { useBuild, type Run } from './support/cli.js';

vi.setConfig({ testTimeout: 60_000 });

const cli = useBuild();

/** Whether this machine lets an unprivileged user mount a tmpfs of its own (user namespaces). */
function canMountTmpfs(): boolean {
  if (process.platform !== 'linux') return false;
  const probe = spawnSync('unshare', ['--user', '--map-root-user', '--mount', 'sh', '-c', 'd=$(mktemp -d) && mount -t tmpfs -o size=64k tmpfs "$d" && umount "$d" && rmdir "$d"'], { encoding: 'utf8' });
  return probe.status === 0;
}

const mountable = canMountTmpfs();

/** The CLI with its data dir on a 1 MB tmpfs, in a namespace of its own. */
function runOnTinyDisk(e: Sandbox, args: readonly string[]): Promise<Run> {
  const script = 'mount -t tmpfs -o size=1m tmpfs "$XDG_DATA_HOME" && exec "$0" "$@"';
  const child = spawn('unshare', ['--user', '--map-root-user', '--mount', 'sh', '-c', script, process.execPath, cli(), ...args], {
    cwd: e.project,
    env: e.env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  return new Promise((res) => child.on('close', (status, signal) => res({ status, signal, stdout, stderr })));
}

describe.skipIf(!mountable)('a session that cannot be saved (a full disk)', () => {
  let fake: FakeProvider | undefined;
  let e: Sandbox | undefined;
  let data: string | undefined;
  afterEach(async () => {
    await fake?.close();
    await e?.cleanup();
    if (data) await rm(data, { recursive: true, force: true });
    fake = e = data = undefined;
  });

  it('exits 4 with "saved": false in --json, and says why on stderr', async () => {
    fake = await startFakeProvider({
      format: 'anthropic',
      // The turn's own command fills the disk the session is written to.
      replies: [{ toolCalls: [{ name: 'bash', input: { command: 'head -c 4000000 /dev/zero > "$XDG_DATA_HOME/fill"; echo filled' } }] }, { text: 'All done.' }],
    });
    // Outside the command sandbox, whose read-only view of the data dir would stop the fill.
    e = await makeSandbox({ format: 'anthropic', baseUrl: fake.baseUrl, configToml: 'max_retries = 0\nsandbox = "off"\n' });
    data = await mkdtemp(join(tmpdir(), 'lw-full-'));
    e.env['XDG_DATA_HOME'] = data;
    const r = await runOnTinyDisk(e, ['-p', 'do it', '--json', '--allow', 'bash']);
    expect(r.status, r.stderr).toBe(4);
    const json = JSON.parse(r.stdout.trim().split('\n').pop()!) as Record<string, unknown>;
    expect(json).toMatchObject({ status: 'finished', result: 'All done.', saved: false });
    expect(r.stderr).toMatch(/Could not save the session: .*(ENOSPC|no space left)/i);
  });

  it('a run that saved exits 0 with the contract object as before (no "saved" key)', async () => {
    fake = await startFakeProvider({ format: 'anthropic', replies: [{ text: 'Fine.' }] });
    e = await makeSandbox({ format: 'anthropic', baseUrl: fake.baseUrl, configToml: 'max_retries = 0\n' });
    data = await mkdtemp(join(tmpdir(), 'lw-full-'));
    e.env['XDG_DATA_HOME'] = data;
    const r = await runOnTinyDisk(e, ['-p', 'hi', '--json']);
    expect(r.status, r.stderr).toBe(0);
    const json = JSON.parse(r.stdout.trim().split('\n').pop()!) as Record<string, unknown>;
    expect(json).toMatchObject({ status: 'finished' });
    expect(json).not.toHaveProperty('saved');
  });
});

describe.skipIf(mountable)('a session that cannot be saved (a full disk)', () => {
  it.skip('needs a tmpfs in a user namespace (unshare --user --map-root-user --mount) to fill a real disk', () => undefined);
});
