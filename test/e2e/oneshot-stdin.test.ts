/**
 * `git diff | lwyrm -p -`: the built CLI reads the task from a real pipe. Run `npm run build` first.
 */
import { spawn } from 'node:child_process';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startFakeProvider, type FakeFormat, type FakeProvider } from '../support/fake-provider.js';
import type { Sandbox } from '../support/sandbox.js';
import { makeEnv, useBuild } from './support/cli.js';

vi.setConfig({ testTimeout: 60_000 });

const cli = useBuild();

function runWithStdin(e: Sandbox, args: readonly string[], input: string): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [cli(), ...args], { cwd: e.project, env: e.env, stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  child.stdin.end(input);
  return new Promise((res) => child.on('close', (status) => res({ status, stdout, stderr })));
}

describe.each<FakeFormat>(['anthropic', 'openai'])('lwyrm -p - over %s', (format) => {
  let fake: FakeProvider | undefined;
  let e: Sandbox | undefined;

  afterEach(async () => {
    await fake?.close();
    await e?.cleanup();
    fake = e = undefined;
  });

  it('takes the task from a pipe', async () => {
    fake = await startFakeProvider({ format, replies: [{ text: 'Looks fine.' }] });
    e = await makeEnv(format, fake.baseUrl);
    const diff = 'review this diff\n--- a/prices.py\n+++ b/prices.py\n';
    const result = await runWithStdin(e, ['-p', '-', '--no-save'], diff);
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toBe('Looks fine.\n');
    expect(fake.requests[0]?.raw).toContain(JSON.stringify('review this diff\n--- a/prices.py\n+++ b/prices.py').slice(1, -1));
  });
});
