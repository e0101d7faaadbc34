/**
 * How wire outcomes reach a one-shot user: a refusal exits 1 with the explanation on stderr,
 * every non-finished --json object carries the stderr message as `error`, a stream without usage
 * has cost null ("usage not reported", never $0.00), and a runaway reply is cut off with the
 * session still saved.
 */
import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { assembleSession } from '../../src/agent/assemble-session.js';
import type { CliOptions } from '../../src/cli/options.js';
import { loadConfig } from '../../src/config/load-config.js';
import { runOneShotWith } from '../../src/headless/oneshot-run.js';
import { startFakeProvider, type FakeFormat, type FakeProvider, type ScriptedReply } from '../support/fake-provider.js';
import { cliOptions, makeSandbox, noteTool, toolRunner, type Sandbox } from './support/harness.js';
import { memoryIo } from './support/memory-io.js';

describe.each<FakeFormat>(['anthropic', 'openai'])('one-shot wire outcomes over %s', (format) => {
  let fake: FakeProvider | undefined;
  let sandbox: Sandbox | undefined;

  afterEach(async () => {
    await fake?.close();
    await sandbox?.cleanup();
  });

  async function run(replies: ScriptedReply[], cli: Partial<CliOptions> = {}, toml = '') {
    fake = await startFakeProvider({ format, replies });
    sandbox = await makeSandbox(format, fake.baseUrl, toml, 'price_input = 1.0\nprice_output = 2.0');
    const config = await loadConfig({ cwd: sandbox.project, env: sandbox.env });
    const options = cliOptions(config.projectRoot, { prompt: 'do the task', ...cli });
    const io = memoryIo();
    const status = await runOneShotWith(
      options,
      (hooks) =>
        assembleSession(options, config, {
          createTools: () => toolRunner([noteTool]),
          describe: (name) => name,
          env: sandbox!.env,
          clientOptions: { retryBaseMs: 1, maxRetries: 0 },
          ...hooks,
        }),
      io.io,
    );
    const json = cli.json ? (JSON.parse(io.stdout()) as Record<string, unknown>) : undefined;
    return { status, stdout: io.stdout(), stderr: io.stderr(), json };
  }

  it('a refusal ends the turn as refused: the explanation on stderr, exit 1', async () => {
    const r = await run([{ refusal: 'That request asks for malware.' }]);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/lwyrm: error: The model refused to answer: That request asks for malware\./);
  });

  it('--json: a refused turn carries the message stderr showed as `error`', async () => {
    const r = await run([{ refusal: 'That request asks for malware.' }], { json: true });
    expect(r.status).toBe(1);
    expect(r.json).toMatchObject({ status: 'error', error: 'The model refused to answer: That request asks for malware.' });
  });

  it('--json: a 401 carries the key advice as `error` (not just "result": "")', async () => {
    const r = await run([{ fault: { kind: 'status', status: 401 } }], { json: true });
    expect(r.status).toBe(1);
    expect(r.json?.['status']).toBe('error');
    expect(String(r.json?.['error'])).toMatch(/refused the API key \(HTTP 401\).*FAKE_API_KEY/);
    expect(r.stderr).toContain(String(r.json?.['error']));
  });

  it('--json: incomplete and finished runs — `error` is the step-ceiling advice; a finished run has none', async () => {
    const call = { toolCalls: [{ name: 'note', input: { text: 'x' } }] };
    const r = await run([call, call], { json: true }, 'max_tool_steps = 1');
    expect(r.status).toBe(3);
    expect(r.json).toMatchObject({ status: 'incomplete' });
    expect(String(r.json?.['error'])).toMatch(/max_tool_steps.*lwyrm -c -p continue/);
    await fake?.close();
    await sandbox?.cleanup();
    const ok = await run([{ text: 'fine' }], { json: true });
    expect(ok.json).toMatchObject({ status: 'finished', result: 'fine' });
    expect(ok.json).not.toHaveProperty('error');
  });

  it('a server that never reports usage: cost null and usage_reported false, never $0.00', async () => {
    const r = await run([{ text: 'answer', omitUsage: true }], { json: true });
    expect(r.status).toBe(0);
    expect(r.json).toMatchObject({ status: 'finished', cost: null, usage_reported: false });
    const v = await (async () => {
      await fake?.close();
      await sandbox?.cleanup();
      return run([{ text: 'answer', omitUsage: true }], { verbose: true });
    })();
    expect(v.stderr).toMatch(/usage not reported/);
    expect(v.stderr).not.toMatch(/\$0\.0000/);
  });

  it('a runaway reply is cut at max_reply_bytes: clear message, exit 1, the session saved with what arrived', async () => {
    const r = await run([{ text: 'Beginning. ', fault: { kind: 'endless', afterEvents: 3 } }], { json: true }, 'max_reply_bytes = 131072');
    expect(r.status).toBe(1);
    expect(String(r.json?.['error'])).toMatch(/max_reply_bytes \(128 KiB/);
    const dir = join(sandbox!.root, 'data', 'lindwyrm', 'sessions');
    const files = await readdir(dir, { recursive: true });
    const history = files.find((f) => String(f).endsWith('.jsonl') || String(f).includes('history'));
    expect(history).toBeDefined();
    const saved = await readFile(join(dir, String(history)), 'utf8');
    // The prompt and the reply up to the cut are saved, and nothing like an unbounded stream.
    expect(saved.includes('"text":"do the task"')).toBe(true);
    expect(saved.includes('"text":"Beg')).toBe(true);
    expect(Buffer.byteLength(saved)).toBeLessThan(256 * 1024);
  });
});
