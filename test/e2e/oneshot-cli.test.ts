/**
 * The built CLI (`node dist/cli.js -p …`) as a child process, against the fake provider over real
 * HTTP, in a temp project with a temp HOME and XDG dirs. Run `npm run build` first (CI does).
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startFakeProvider, type FakeFormat, type FakeProvider, type ScriptedReply } from '../support/fake-provider.js';
import type { Sandbox } from '../support/sandbox.js';
import { assertValidHistory, readRequest } from '../agent/support/harness.js';
import { makeEnv, start as startCli, useBuild, waitFor, type Env, type Run } from './support/cli.js';

// Each test starts the CLI once or twice; on a loaded 2-core machine one start can take seconds.
vi.setConfig({ testTimeout: 60_000 });

const cli = useBuild();

const start = (e: Env, args: readonly string[]) => startCli(cli(), e, args);
const run = (e: Env, args: readonly string[]): Promise<Run> => start(e, args).done;

describe.each<FakeFormat>(['anthropic', 'openai'])('lwyrm -p over %s', (format) => {
  let fake: FakeProvider | undefined;
  let e: Sandbox | undefined;

  afterEach(async () => {
    await fake?.close();
    await e?.cleanup();
    fake = undefined;
    e = undefined;
  });

  async function setup(replies: ScriptedReply[]): Promise<Sandbox> {
    fake = await startFakeProvider({ format, replies });
    e = await makeEnv(format, fake.baseUrl);
    return e;
  }

  const results = (i: number) =>
    readRequest(format, fake!.requests[i]!).messages.flatMap((m) => m.toolResults.map((r) => r.content.replace(/^Error: /, '')));

  it('reads, edits and runs a command; the answer alone goes to stdout (exit 0)', async () => {
    const env = await setup([
      { toolCalls: [{ name: 'read_file', input: { path: 'prices.py' } }] },
      {
        toolCalls: [
          {
            name: 'edit_file',
            input: {
              path: 'prices.py',
              old_string: '    result = 0\n    for item in items:\n        result = result + item["price"]\n    return result\n',
              new_string: '    return sum(item["price"] for item in items)\n',
            },
          },
        ],
      },
      { toolCalls: [{ name: 'bash', input: { command: 'cat prices.py' } }] },
      { text: 'Rewrote total() as a sum().' },
    ]);
    const r = await run(env, ['-p', 'rewrite total() with sum()', '--allow', 'write', '--allow', 'bash']);
    expect(r.stderr).toContain('→ edit_file prices.py');
    expect(r.status).toBe(0);
    expect(r.stdout).toBe('Rewrote total() as a sum().\n');
    expect(await readFile(join(env.project, 'prices.py'), 'utf8')).toBe('def total(items):\n    return sum(item["price"] for item in items)\n');
    expect(results(1).join('')).toContain('result = 0');
    expect(results(3).at(-1)).toContain('return sum(item["price"] for item in items)');
    assertValidHistory(readRequest(format, fake!.requests[3]!));
  });

  it('--json prints only the contract object; --out writes the answer', async () => {
    const env = await setup([{ text: 'Forty-two.', usage: { input: 12, output: 4 } }, { text: 'Saved answer.' }]);
    const r = await run(env, ['-p', 'what is it', '--json']);
    expect(r.status).toBe(0);
    const obj = JSON.parse(r.stdout) as Record<string, unknown>;
    expect(Object.keys(obj).sort()).toEqual(['cost', 'denied', 'denied_calls', 'model', 'preset', 'result', 'session_id', 'status', 'steps', 'usage']);
    expect(obj).toMatchObject({ status: 'finished', result: 'Forty-two.', preset: 'fake', model: 'fake-model', steps: 0, cost: null, denied: 0, denied_calls: [] });
    expect(obj['usage']).toMatchObject({ input: 12, output: 4 });
    // The built CLI names itself to the server (CDN-fronted gateways refuse requests without it).
    const pkg = JSON.parse(await readFile(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
    expect(fake!.requests[0]?.headers['user-agent']).toBe(`lindwyrm/${pkg.version}`);
    const out = join(env.root, 'answer.txt');
    const r2 = await run(env, ['-p', 'again', '--out', out]);
    expect(r2.status).toBe(0);
    expect(r2.stdout).toBe('');
    expect(await readFile(out, 'utf8')).toBe('Saved answer.\n');
    // Nothing on stdout, so stderr says where the answer went.
    expect(r2.stderr).toContain(`wrote the answer to ${out} (1 line)`);
  });

  it('denies a write when stdin is not a terminal, says which flag would allow it, and ends incomplete', async () => {
    const env = await setup([
      { toolCalls: [{ name: 'write_file', input: { path: 'new.txt', content: 'hello\n' } }] },
      { text: 'I could not write the file.' },
    ]);
    const r = await run(env, ['-p', 'create new.txt']);
    // The model stopped politely, but the only change it tried was denied: not "finished".
    expect(r.status).toBe(3);
    expect(r.stderr).toMatch(/denied .*--allow write/);
    expect(r.stderr).toMatch(/incomplete: Every change the model tried was denied \(1 call: write_file new\.txt\)/);
    expect(existsSync(join(env.project, 'new.txt'))).toBe(false);
    expect(results(1).join('')).toMatch(/non-interactively/);
  });

  it('exit 1 on an API error, 3 at max_tokens, 2 for an unknown session', async () => {
    const env = await setup([
      { fault: { kind: 'status', status: 400, body: { error: { type: 'invalid_request_error', message: 'broken request' } } } },
      { text: 'cut off mid', stop: 'max_tokens' },
    ]);
    const api = await run(env, ['-p', 'hello']);
    expect(api.status).toBe(1);
    expect(api.stderr).toMatch(/broken request|400/);
    const cut = await run(env, ['-p', 'write a lot', '--json']);
    expect(cut.status).toBe(3);
    expect(JSON.parse(cut.stdout)).toMatchObject({ status: 'incomplete', result: 'cut off mid', error: 'The reply was cut off at max_tokens.' });
    const usage = await run(env, ['-p', 'hi', '--resume', 'zzzzzz']);
    expect(usage.status).toBe(2);
    expect(usage.stderr).toMatch(/no session 'zzzzzz'/);
  });

  it('SIGINT while a tool runs exits 130; `-c -p` continues with valid history', async () => {
    const env = await setup([{ toolCalls: [{ name: 'bash', input: { command: 'sleep 30' } }] }, { text: 'Continuing.' }]);
    const p = start(env, ['-p', 'wait a while', '--allow', 'bash']);
    await waitFor(p.stderr, /→ bash/, p.child);
    p.child.kill('SIGINT');
    const r = await p.done;
    expect(r.status).toBe(130);
    const next = await run(env, ['-c', '-p', 'carry on']);
    expect(next.status).toBe(0);
    expect(next.stdout).toBe('Continuing.\n');
    const req = readRequest(format, fake!.requests[1]!);
    assertValidHistory(req);
    expect(results(1)[0]).toMatch(/interrupted/i);
    expect(req.messages.at(-1)!.text).toBe('carry on');
  });

  it('SIGINT while the model streams exits 130; `-c -p` continues with valid history', async () => {
    const env = await setup([{ text: 'token '.repeat(2000), chunkDelayMs: 10 }, { text: 'Second.' }]);
    const p = start(env, ['-p', 'talk a lot']);
    await waitFor(p.stdout, /token/, p.child);
    p.child.kill('SIGINT');
    const r = await p.done;
    expect(r.status).toBe(130);
    const next = await run(env, ['-c', '-p', 'shorter please']);
    expect(next.status).toBe(0);
    const req = readRequest(format, fake!.requests[1]!);
    assertValidHistory(req);
    expect(req.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(req.messages[1]!.text).toMatch(/^token/);
  });
});

describe('lwyrm without -p', () => {
  let fake: FakeProvider | undefined;
  let e: Sandbox | undefined;

  afterEach(async () => {
    await fake?.close();
    await e?.cleanup();
  });

  it('with a prompt and stdout not a terminal runs one-shot; -v logs requests, usage, timing and tool calls', async () => {
    fake = await startFakeProvider({
      format: 'anthropic',
      replies: [{ toolCalls: [{ name: 'read_file', input: { path: 'prices.py' } }], usage: { input: 321, output: 9 } }, { text: 'It sums prices.' }],
    });
    e = await makeEnv('anthropic', fake.baseUrl);
    const configFile = e.configPath;
    await writeFile(configFile, `bogus_key = 1\n${await readFile(configFile, 'utf8')}`);
    const r = await run(e, ['-v', 'what', 'does', 'total', 'do?']);
    // A config warning is shown once, not again by the session.
    expect(r.stderr.match(/bogus_key/g), r.stderr).toHaveLength(1);
    expect(r.status).toBe(0);
    expect(r.stdout).toBe('It sums prices.\n');
    expect(r.stderr).toMatch(/request: 1 messages, [\d.]+ KB/);
    expect(r.stderr).toMatch(/response: tool_use, in 321 .* out 9, \d+ ms/);
    expect(r.stderr).toMatch(/tool read_file prices\.py → ok/);
    const body = fake.requests[0]!.body as { messages: { content: unknown }[] };
    expect(JSON.stringify(body.messages[0])).toContain('what does total do?');
  });
});

describe('lwyrm -p on a terminal', () => {
  let fake: FakeProvider | undefined;
  let e: Sandbox | undefined;

  afterEach(async () => {
    await fake?.close();
    await e?.cleanup();
  });

  // util-linux `script` (BSD's takes other flags), so Linux only.
  const hasScript = process.platform === 'linux' && existsSync('/usr/bin/script');
  it.skipIf(!hasScript)('asks y/n/a/q on the terminal with the diff shown, and does the write on y', async () => {
    fake = await startFakeProvider({
      format: 'anthropic',
      replies: [
        { toolCalls: [{ name: 'write_file', input: { path: 'notes.txt', content: 'first line\n' } }] },
        { toolCalls: [{ name: 'write_file', input: { path: 'other.txt', content: 'nope\n' } }] },
        { text: 'Wrote one, skipped one.' },
      ],
    });
    e = await makeEnv('anthropic', fake.baseUrl);
    // util-linux `script` gives the child a real pseudo-terminal on stdin and stdout.
    const command = `'${process.execPath}' '${cli()}' -p 'write notes'`;
    const child = spawn('script', ['-qfec', command, '/dev/null'], { cwd: e.project, env: { ...e.env, TERM: 'dumb' }, stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    const done = new Promise<number | null>((res) => child.on('close', res));
    const read = (): string => out;
    await waitFor(read, /Allow\? \[y\]es \/ \[n\]o \/ \[a\]lways \(write\) \/ \[q\]uit/, child);
    expect(out).toContain('notes.txt');
    expect(out).toContain('+first line');
    child.stdin.write('y\n');
    await waitFor(read, /other\.txt[\s\S]*Allow\?/, child);
    child.stdin.write('n\n');
    const status = await done;
    expect(status).toBe(0);
    expect(await readFile(join(e.project, 'notes.txt'), 'utf8')).toBe('first line\n');
    expect(existsSync(join(e.project, 'other.txt'))).toBe(false);
    expect(out).toContain('Wrote one, skipped one.');
  });
});

describe('lwyrm -p on a terminal, typed ahead', () => {
  let fake: FakeProvider | undefined;
  let e: Sandbox | undefined;
  afterEach(async () => {
    await fake?.close();
    await e?.cleanup();
  });

  const hasScript = process.platform === 'linux' && existsSync('/usr/bin/script');
  it.skipIf(!hasScript)('keys typed while the model works never answer the prompt that opens later', async () => {
    fake = await startFakeProvider({
      format: 'anthropic',
      replies: [
        // Long enough to type ahead in: the question does not exist yet.
        { delayMs: 1500, toolCalls: [{ name: 'write_file', input: { path: 'notes.txt', content: 'first line\n' } }] },
        { text: 'Left it.' },
      ],
    });
    e = await makeEnv('anthropic', fake.baseUrl);
    const command = `'${process.execPath}' '${cli()}' -p 'write notes'`;
    const child = spawn('script', ['-qfec', command, '/dev/null'], { cwd: e.project, env: { ...e.env, TERM: 'dumb' }, stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    const done = new Promise<number | null>((res) => child.on('close', res));
    await new Promise((r) => setTimeout(r, 500));
    // A whole line and a half-typed one, both before the prompt.
    child.stdin.write('y\n');
    child.stdin.write('a');
    await waitFor(() => out, /Allow\? \[y\]es \/ \[n\]o \/ \[a\]lways \(write\) \/ \[q\]uit: $/, child);
    await new Promise((r) => setTimeout(r, 300));
    expect(existsSync(join(e.project, 'notes.txt'))).toBe(false);
    child.stdin.write('n\n');
    // 3: the turn's only change was denied, so it is incomplete.
    expect(await done).toBe(3);
    expect(existsSync(join(e.project, 'notes.txt'))).toBe(false);
    expect(out).toContain('Left it.');
  });
});

describe('lwyrm with neither prompt nor terminal', () => {
  it('says how to use it and exits 2', async () => {
    const root = await mkdtemp(join(tmpdir(), 'lw-e2e-'));
    try {
      const r = await run({ root, project: root, env: { PATH: process.env['PATH'], HOME: root } }, []);
      expect(r.status).toBe(2);
      expect(r.stderr).toMatch(/lwyrm -p/);
      expect(r.stdout).toBe('');
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
});
