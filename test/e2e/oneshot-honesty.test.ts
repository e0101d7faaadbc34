/**
 * One-shot mode says what happened: --json lists the calls that were denied or failed and counts
 * the denials, and a turn whose every change was denied is not "finished"; a prompt whose request
 * failed is not merged into the next run's; a task piped into plain `lwyrm` is pointed at `-p -`.
 * The built CLI against the fake provider. Run `npm run build` first.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { readRequest } from '../agent/support/harness.js';
import { run, useBuild, useFakeEnv } from './support/cli.js';

vi.setConfig({ testTimeout: 60_000 });

const cli = useBuild();

describe('one-shot honesty', () => {
  const { setup, fake } = useFakeEnv('anthropic');

  it('--json lists denied and failed calls, counts the denials, and a turn whose every change was denied is incomplete', async () => {
    const env = await setup([
      {
        toolCalls: [
          { name: 'read_file', input: { path: 'missing.py' } },
          { name: 'write_file', input: { path: 'notes.txt', content: 'x\n' } },
          { name: 'bash', input: { command: 'rm prices.py' } },
        ],
      },
      { text: 'I could not make the changes.' },
    ]);
    const r = await run(cli(), env, ['-p', 'tidy up', '--json']);
    expect(r.status, r.stderr).toBe(3);
    const obj = JSON.parse(r.stdout) as Record<string, unknown>;
    expect(obj).toMatchObject({ status: 'incomplete', result: 'I could not make the changes.', denied: 2 });
    const calls = obj['denied_calls'] as { tool: string; status: string; message: string }[];
    expect(calls.map((c) => [c.tool, c.status])).toEqual([
      ['read_file', 'error'],
      ['write_file', 'denied'],
      ['bash', 'denied'],
    ]);
    expect(calls[0]!.message).toMatch(/missing\.py/);
    expect(existsSync(join(env.project, 'notes.txt'))).toBe(false);
    expect(existsSync(join(env.project, 'prices.py'))).toBe(true);
  });

  it('a turn where some change went through is finished, with the denial still counted', async () => {
    const env = await setup([
      {
        toolCalls: [
          { name: 'write_file', input: { path: 'notes.txt', content: 'x\n' } },
          { name: 'bash', input: { command: 'rm prices.py' } },
        ],
      },
      { text: 'Wrote the notes; the delete was refused.' },
    ]);
    const r = await run(cli(), env, ['-p', 'tidy up', '--json', '--allow', 'write']);
    expect(r.status, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ status: 'finished', denied: 1 });
    expect(await readFile(join(env.project, 'notes.txt'), 'utf8')).toBe('x\n');
  });

  it('a prompt whose request failed is not merged into the next run\'s prompt', async () => {
    const env = await setup([
      { fault: { kind: 'status', status: 401, body: { type: 'error', error: { type: 'authentication_error', message: 'invalid x-api-key' } } } },
      { text: 'Hello.' },
    ]);
    const first = await run(cli(), env, ['-p', 'first try']);
    expect(first.status).toBe(1);
    expect(first.stderr).toMatch(/invalid x-api-key|401/);
    const second = await run(cli(), env, ['-c', '-p', 'second try']);
    expect(second.status, second.stderr).toBe(0);
    const sent = readRequest('anthropic', fake().requests[1]!);
    expect(sent.messages.map((m) => m.text)).toEqual(['second try']);
  });

  it('a task piped into plain lwyrm is pointed at -p -', async () => {
    const env = await setup([]);
    const child = spawn(process.execPath, [cli()], { cwd: env.project, env: env.env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.stdin.end('fix the tests\n');
    const status = await new Promise<number | null>((res) => child.on('close', res));
    expect(status).toBe(2);
    expect(stderr).toContain('lwyrm -p -');
    expect(stderr).not.toMatch(/-p "…"/);
  });
});
