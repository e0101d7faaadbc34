/**
 * The whole path a user takes with `lwyrm -p`: argument parsing, config from a temp HOME, preset
 * and key resolution, then the engine against the fake provider over real HTTP.
 */
import { rmSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { main } from '../../src/cli/main.js';
import { makeTempEnv, type TempEnv } from '../config/temp-env.js';
import { startFakeProvider, type FakeProvider } from '../support/fake-provider.js';

let t: TempEnv;
let fake: FakeProvider | undefined;
beforeEach(async () => {
  t = await makeTempEnv();
});
afterEach(async () => {
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
  await fake?.close();
  fake = undefined;
  await t.cleanup();
});

async function run(argv: string[], env: Record<string, string | undefined>, stdin?: string) {
  // The engine reads process.env itself (keys, XDG dirs): point it at the temp HOME too.
  for (const [name, value] of Object.entries({ ...t.env, ...env })) vi.stubEnv(name, value);
  let stderr = '';
  // One-shot output goes to the real stdout; capture it without printing it.
  let stdout = '';
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    stdout += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString();
    return true;
  });
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
    stderr += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString();
    return true;
  });
  const code = await main(argv, {
    cwd: t.project,
    env: { ...t.env, ...env },
    interactive: false,
    version: '0.0.0',
    stdout: (s) => (stdout += s),
    stderr: (s) => (stderr += s),
    ...(stdin !== undefined ? { readStdin: () => Promise.resolve(stdin) } : {}),
  });
  vi.restoreAllMocks();
  return { code, stdout, stderr };
}

describe.each(['anthropic', 'openai'] as const)('lwyrm -p through the CLI (%s)', (format) => {
  it('uses the key from api_key_env and the preset chosen with -m, and writes --out', async () => {
    fake = await startFakeProvider({ format, replies: [{ text: 'All done.' }] });
    await t.writeUser(
      `[[presets]]\nname = "fake"\nformat = "${format}"\nbase_url = "${fake.baseUrl}"\nmodel = "fake-model"\napi_key_env = ["FAKE_KEY_A", "FAKE_KEY_B"]\nthinking = false\n`,
    );
    const out = join(t.project, 'answer.md');
    const { code, stdout, stderr } = await run(['-m', 'fake', '-p', 'say done', '--json', '--out', out, '--no-save'], { FAKE_KEY_B: 'sk-second' });
    expect(code, stderr).toBe(0);
    expect(fake.requests).toHaveLength(1);
    const headers = JSON.stringify(fake.requests[0]?.headers);
    expect(headers).toContain('sk-second');
    const json = JSON.parse(stdout.trim().split('\n').pop() ?? '{}') as { status?: string; result?: string; preset?: string };
    expect(json).toMatchObject({ status: 'finished', preset: 'fake' });
    expect(await readFile(out, 'utf8')).toContain('All done.');
  });

  const userPreset = (baseUrl: string) =>
    `default_preset = "fake"\n[[presets]]\nname = "fake"\nformat = "${format}"\nbase_url = "${baseUrl}"\nmodel = "m"\n`;

  it('refuses an --out path it could not write before asking the model (exit 2)', async () => {
    fake = await startFakeProvider({ format, replies: [{ text: 'never asked' }] });
    await t.writeUser(userPreset(fake.baseUrl));
    const missing = await run(['-p', 'hi', '--no-save', '--out', join(t.project, 'no-such-dir', 'a.md')], {});
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/--out .*no-such-dir.*: no directory .*no-such-dir; create it first/);
    const directory = await run(['-p', 'hi', '--no-save', '--out', t.project], {});
    expect(directory.code).toBe(2);
    expect(directory.stderr).toMatch(/it is a directory/);
    expect(fake.requests).toHaveLength(0);
  });

  it('prints the answer on stdout when --out can no longer be written at the end', async () => {
    const dir = join(t.project, 'notes');
    await mkdir(dir);
    // The directory disappears while the model answers: the answer must not go with it.
    fake = await startFakeProvider({
      format,
      replies: () => {
        rmSync(dir, { recursive: true, force: true });
        return { text: 'The answer worth keeping.' };
      },
    });
    await t.writeUser(userPreset(fake.baseUrl));
    const { code, stdout, stderr } = await run(['-p', 'hi', '--no-save', '--out', join(dir, 'a.md')], {});
    expect(code).toBe(1);
    expect(stderr).toMatch(/could not write .*a\.md/);
    expect(stdout).toContain('The answer worth keeping.');
  });

  it('leaves the --out file as it was when the run fails midway, and prints the fragment instead', async () => {
    fake = await startFakeProvider({ format, replies: [{ text: 'A first half and a second half.', fault: { kind: 'reset', afterEvents: 3 } }] });
    await t.writeUser(userPreset(fake.baseUrl));
    const out = join(t.project, 'notes.md');
    await writeFile(out, 'the last good notes\n');
    const { code, stdout, stderr } = await run(['-p', 'hi', '--no-save', '--out', out], {});
    expect(code).toBe(1);
    expect(await readFile(out, 'utf8')).toBe('the last good notes\n');
    expect(stderr).toMatch(/notes\.md left as it was: the run failed\. The partial answer follows on stdout/);
    expect(stdout.length).toBeGreaterThan(0);
    expect('A first half and a second half.').toContain(stdout.trim());
  });

  it('at the step ceiling, tells how to go on from the shell, not to "send continue"', async () => {
    fake = await startFakeProvider({ format, replies: () => ({ toolCalls: [{ name: 'read_file', input: { path: 'a.txt' } }] }) });
    await t.writeUser(`max_tool_steps = 1\n${userPreset(fake.baseUrl)}`);
    await writeFile(join(t.project, 'a.txt'), 'hi\n');
    const { code, stderr } = await run(['-p', 'hi'], {});
    expect(code, stderr).toBe(3);
    expect(stderr).toMatch(/incomplete: Stopped after 1 tool steps \(max_tool_steps\)\. To pick up where it stopped: lwyrm -c -p continue/);
    expect(stderr).not.toMatch(/Send "continue"/);
  });

  it('escapes control characters of an unknown --resume id in the error (exit 2)', async () => {
    fake = await startFakeProvider({ format, replies: [{ text: 'never asked' }] });
    await t.writeUser(userPreset(fake.baseUrl));
    const { code, stderr } = await run(['--resume', 'ab\x1b[2Jcd', '-p', 'hi'], {});
    expect(code).toBe(2);
    expect(stderr).toMatch(/no session 'ab.*cd'/);
    expect(stderr.includes('\x1b')).toBe(false);
  });

  it('-p - reads the task from stdin; an empty stdin is a usage error that asks the model nothing', async () => {
    fake = await startFakeProvider({ format, replies: [{ text: 'Reviewed.' }] });
    await t.writeUser(userPreset(fake.baseUrl));
    const piped = await run(['-p', '-', '--no-save'], {}, 'review this diff:\n+ added line\n');
    expect(piped.code, piped.stderr).toBe(0);
    expect(piped.stdout).toContain('Reviewed.');
    expect(fake.requests[0]?.raw).toContain('review this diff:\\n+ added line');
    expect(fake.requests[0]?.raw).not.toMatch(/"-"/);

    const empty = await run(['-p', '-', '--no-save'], {}, ' \n');
    expect(empty.code).toBe(2);
    expect(empty.stderr).toMatch(/stdin was empty/);
    expect(fake.requests).toHaveLength(1);
  });

  it('shows each config warning exactly once', async () => {
    fake = await startFakeProvider({ format, replies: [{ text: 'ok' }] });
    await t.writeUser(`default_preset = "fake"\n[[presets]]\nname = "fake"\nformat = "${format}"\nbase_url = "${fake.baseUrl}"\nmodel = "m"\n`);
    await t.writeProject('colour = "blue"\nproxy = "http://p.test:1"\n');
    const { code, stderr } = await run(['-p', 'hi', '--no-save'], {});
    expect(code, stderr).toBe(0);
    expect(stderr.match(/unknown key "colour"/g)).toHaveLength(1);
    expect(stderr.match(/may not set these/g)).toHaveLength(1);
  });
});
