/**
 * The sandbox's processes, black-box through the built CLI and the host's /proc: a setsid child
 * is gone when the command times out (or just ends), a fork bomb stops at the process limit and
 * leaves nothing behind, and no command can read lindwyrm's key from /proc/$PPID/environ — in
 * the sandbox (its own PID namespace) or without it (the start-up environment is overwritten).
 */
import { mkdir, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { hostProcessCount, hostProcessesWith, sandboxSkipReason } from '../support/sandbox-host.js';
import { fileAppears, makeEnv, start, useBuild } from './support/cli.js';
import { sandboxSessions } from './support/sandbox-session.js';
import { startFakeProvider, type FakeProvider } from '../support/fake-provider.js';
import type { Sandbox } from '../support/sandbox.js';
import { SANDBOX_PROCESS_LIMIT } from '../../src/sandbox/process-limit.js';

vi.setConfig({ testTimeout: 90_000 });

const cli = useBuild();
const sessions = sandboxSessions(cli);
const skip = await sandboxSkipReason();

afterEach(() => sessions.cleanup());

/** A key with a shape no other variable has, so finding it anywhere means it leaked. */
const KEY = 'sk-lwyrm-proc-environ-5a1c9e77';

const environProbe = [
  // The parent's start-up environment, and every process this command can see.
  'tr "\\0" "\\n" < /proc/$PPID/environ; echo; echo parent=$PPID',
  'cat /proc/[0-9]*/environ 2>/dev/null | tr "\\0" "\\n" | grep -c . ; ls /proc | grep -c "^[0-9]"',
];

describe.skipIf(skip !== undefined)('sandboxed processes, through lwyrm -p', () => {
  it('a setsid survivor is gone after the timeout, and after a command that simply ends', async () => {
    const { results } = await sessions.run([
      { command: 'setsid sleep 71.31 & echo started; sleep 60', timeout_ms: 1500 },
      '(setsid sleep 71.32 &); nohup sleep 71.33 >/dev/null 2>&1 & echo left-running',
    ]);
    expect(results[0]).toContain('started');
    expect(results[0]).toMatch(/timed out after 1500 ms/);
    expect(results[1]).toContain('left-running');
    for (const marker of ['71.31', '71.32', '71.33']) expect(await hostProcessesWith(`sleep\0${marker}`)).toEqual([]);
  });

  it('contains a fork bomb: the machine never sees more than the limit, and nothing survives', async () => {
    const before = await hostProcessCount();
    let peak = before;
    const sampler = setInterval(() => void hostProcessCount().then((n) => (peak = Math.max(peak, n))), 25);
    try {
      const { run, results } = await sessions.run([{ command: 'lwbomb() { lwbomb | lwbomb & }; lwbomb; sleep 3; echo after-bomb', timeout_ms: 6000 }, 'echo still-works']);
      expect(run.status, run.stderr).toBe(0);
      expect(results[1]).toContain('still-works');
    } finally {
      clearInterval(sampler);
    }
    // Other tests run beside this one: the margin covers them, not a bomb (which would pass 10,000s).
    expect(peak - before).toBeLessThan(SANDBOX_PROCESS_LIMIT + 400);
    expect(await hostProcessesWith('lwbomb')).toEqual([]);
  });

  it('/proc/$PPID/environ holds no key: its parent is the sandbox\'s own, and only its processes are visible', async () => {
    const { results } = await sessions.run(environProbe, { env: { FAKE_API_KEY: KEY } });
    expect(results).toHaveLength(2);
    for (const r of results) expect(r).not.toContain(KEY);
    expect(results[0]).toContain('parent=1');
    // A few processes (bwrap, the shell, the pipeline), not the machine's hundreds.
    const count = Number(/\n(\d+)\n\[exit/.exec(results[1] ?? '')?.[1]);
    expect(count).toBeLessThan(10);
  });

  it('stops the whole sandbox on SIGTERM to lwyrm', async () => {
    let fake: FakeProvider | undefined;
    let e: Sandbox | undefined;
    try {
      fake = await startFakeProvider({ format: 'anthropic', replies: [{ toolCalls: [{ name: 'bash', input: { command: 'setsid sleep 71.34 & echo up > up.txt; sleep 60' } }] }] });
      e = await makeEnv('anthropic', fake.baseUrl);
      // Its own temp folder, to see that the session's private /tmp does not outlive the signal.
      const tmp = join(e.root, 'tmp');
      await mkdir(tmp);
      const p = start(cli(), { ...e, env: { ...e.env, TMPDIR: tmp } }, ['-p', 'wait', '--allow', 'bash', '--json']);
      await fileAppears(e.project, 'up.txt');
      expect((await readdir(tmp)).filter((n) => n.startsWith('lindwyrm-sandbox-'))).toHaveLength(1);
      p.child.kill('SIGTERM');
      const r = await p.done;
      expect(r.status, r.stderr).toBe(143);
      expect(await hostProcessesWith('sleep\u000071.34')).toEqual([]);
      expect(await readdir(tmp)).toEqual([]);
    } finally {
      await fake?.close();
      await e?.cleanup();
    }
  });
});

describe('without the sandbox', () => {
  it('/proc/$PPID/environ (lindwyrm itself) holds no key either', async () => {
    const { results } = await sessions.run(environProbe.slice(0, 1), { configToml: 'sandbox = "off"\n', env: { FAKE_API_KEY: KEY } });
    expect(results[0]).toContain('FAKE_API_KEY=');
    expect(results[0]).not.toContain(KEY);
  });
});
