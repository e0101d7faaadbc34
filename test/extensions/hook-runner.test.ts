/** The hook runner as real processes: what a hook gets (stdin, environment) and what comes back. */
import { existsSync } from 'node:fs';
import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHookRunner } from '../../src/extensions/hook-runner.js';
import { makeConfig } from '../tools/make-config.js';

let dir: string;
beforeEach(async () => {
  dir = await realpath(await mkdtemp(join(tmpdir(), 'lw-hookrun-')));
});
afterEach(async () => {
  delete process.env['LW_TEST_PROVIDER_KEY'];
  await rm(dir, { recursive: true, force: true });
});

const run = (command: string, over: { timeoutMs?: number; signal?: AbortSignal } = {}) =>
  createHookRunner({ config: makeConfig(dir, { secretEnvNames: ['LW_TEST_PROVIDER_KEY'] }) })({
    command,
    stdin: '{"hook_event_name":"Stop"}',
    timeoutMs: over.timeoutMs ?? 10_000,
    vars: { LINDWYRM_HOOK_EVENT: 'Stop' },
    ...(over.signal ? { signal: over.signal } : {}),
  });

describe('the hook runner', () => {
  it('gives the event on stdin, runs in the project root, keeps stdout and stderr apart', async () => {
    const out = await run('read -r line; echo "in: $line"; pwd; echo "to stderr" >&2; echo "$LINDWYRM_HOOK_EVENT"; exit 3');
    expect(out).toMatchObject({ exitCode: 3, timedOut: false, interrupted: false });
    expect(out.stdout).toBe(`in: {"hook_event_name":"Stop"}\n${dir}\nStop\n`);
    expect(out.stderr).toBe('to stderr\n');
  });

  it("gets the bash tool's environment: no provider key", async () => {
    process.env['LW_TEST_PROVIDER_KEY'] = 'sk-very-secret';
    const out = await run('echo "key=[${LW_TEST_PROVIDER_KEY:-}] no_color=$NO_COLOR"');
    expect(out.stdout).toBe('key=[] no_color=1\n');
  });

  it('escapes control sequences in what it prints', async () => {
    const out = await run("printf 'ok\\033[2J\\033]0;title\\007\\n' >&2; exit 2");
    expect(out.stderr).not.toContain('\u001b');
    expect(out.stderr).toContain('\\x1b[2J');
  });

  it('past its time limit the hook and what it started are killed', async () => {
    const started = Date.now();
    const out = await run(`(sleep 3; touch ${join(dir, 'late')}) & sleep 30`, { timeoutMs: 300 });
    expect(out).toMatchObject({ timedOut: true, exitCode: null });
    expect(Date.now() - started).toBeLessThan(10_000);
    await new Promise((r) => setTimeout(r, 3500));
    expect(existsSync(join(dir, 'late'))).toBe(false);
  });

  it('an interrupt stops it', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 200);
    const out = await run('sleep 30', { signal: controller.signal });
    expect(out).toMatchObject({ interrupted: true, exitCode: null });
  });

  it('goes through the sandbox seam when there is one: its argv, its redaction, its cleanup', async () => {
    let cleaned = false;
    let seen: readonly string[] = [];
    const runner = createHookRunner({
      config: makeConfig(dir),
      wrap: async (spec) => {
        seen = spec.argv;
        return {
          argv: ['/bin/sh', '-c', 'echo wrapped-secret; echo "$0 $1" >&2', ...spec.argv.slice(1)],
          env: spec.env,
          cwd: spec.cwd,
          redact: (text) => text.replaceAll('secret', '[masked]'),
          cleanup: async () => void (cleaned = true),
        };
      },
    });
    const out = await runner({ command: 'echo original', stdin: '{}', timeoutMs: 5000, vars: {} });
    expect(seen.slice(1)).toEqual(['-c', 'echo original']);
    expect(out.stdout).toBe('wrapped-[masked]\n');
    expect(out.stderr).toBe('-c echo original\n');
    expect(cleaned).toBe(true);
  });
});
