/**
 * `timeout 60 lwyrm -p …` sends SIGTERM, a closed terminal SIGHUP: the built CLI must stop the turn
 * as Ctrl+C does — kill the running command's process group instead of leaving it orphaned,
 * still print the --json object — and exit with the signal's status. Run `npm run build` first.
 */
import { readFile } from 'node:fs/promises';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startFakeProvider, type FakeFormat, type FakeProvider } from '../support/fake-provider.js';
import type { Sandbox } from '../support/sandbox.js';
import { fileAppears, makeEnv, start, useBuild } from './support/cli.js';

vi.setConfig({ testTimeout: 60_000 });

const cli = useBuild();

/** Alive and not a zombie waiting to be reaped. */
async function running(pid: number): Promise<boolean> {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '');
  return !/\) Z /.test(stat);
}

describe.each<[FakeFormat, 'SIGTERM' | 'SIGHUP', number]>([
  ['anthropic', 'SIGTERM', 143],
  ['openai', 'SIGHUP', 129],
])('one-shot over %s stopped by %s', (format, signal, status) => {
  let fake: FakeProvider | undefined;
  let e: Sandbox | undefined;
  let sleeper: number | undefined;

  afterEach(async () => {
    if (sleeper) {
      try {
        process.kill(sleeper, 'SIGKILL');
      } catch {
        // Already gone, as it should be.
      }
    }
    await fake?.close();
    await e?.cleanup();
    fake = e = sleeper = undefined;
  });

  it('kills the running command, prints the JSON object and exits with the signal status', async () => {
    fake = await startFakeProvider({
      format,
      replies: [{ toolCalls: [{ name: 'bash', input: { command: 'echo $$ > sleeper.pid; exec sleep 30' } }] }],
    });
    // The process group is what this is about: unsandboxed, so $$ is a PID of this machine
    // (in the sandbox it is the PID namespace's; test/e2e/sandbox-processes.test.ts covers that).
    e = await makeEnv(format, fake.baseUrl, { configToml: 'sandbox = "off"\n' });
    const p = start(cli(), e, ['-p', 'wait a while', '--allow', 'bash', '--json']);
    sleeper = Number(await fileAppears(e.project, 'sleeper.pid'));
    p.child.kill(signal);
    const result = await p.done;

    expect(result.status, result.stderr).toBe(status);
    expect(JSON.parse(result.stdout)).toMatchObject({ status: 'interrupted' });
    // Not "Interrupted by the user": the signal that stopped it is named.
    expect(result.stderr).toContain(`interrupted: Stopped by ${signal}`);
    expect(result.stderr).not.toMatch(/by the user/);
    expect(await running(sleeper)).toBe(false);
  });
});
