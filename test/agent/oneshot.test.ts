import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../../src/config/load-config.js';
import { assembleSession } from '../../src/agent/assemble-session.js';
import { runOneShotWith } from '../../src/headless/oneshot-run.js';
import type { CliOptions } from '../../src/cli/options.js';
import { startFakeProvider, type FakeFormat, type FakeProvider, type ScriptedReply } from '../support/fake-provider.js';
import { approvalTool, cliOptions, makeSandbox, noteTool, readRequest, toolRunner, waitTool, type Sandbox } from './support/harness.js';
import { memoryIo } from './support/memory-io.js';

describe.each<FakeFormat>(['anthropic', 'openai'])('one-shot over %s', (format) => {
  let fake: FakeProvider | undefined;
  let sandbox: Sandbox | undefined;

  afterEach(async () => {
    await fake?.close();
    await sandbox?.cleanup();
  });

  async function run(replies: ScriptedReply[], cli: Partial<CliOptions>, opts: { interruptOn?: 'tool'; presetToml?: string } = {}) {
    fake = await startFakeProvider({ format, replies });
    sandbox = await makeSandbox(format, fake.baseUrl, 'max_tool_steps = 1', opts.presetToml);
    const config = await loadConfig({ cwd: sandbox.project, env: sandbox.env });
    const options = cliOptions(config.projectRoot, { prompt: 'do the task', ...cli });
    const io = memoryIo();
    const status = await runOneShotWith(
      options,
      async (hooks) => {
        const engine = await assembleSession(options, config, {
          createTools: () => toolRunner([noteTool, approvalTool, waitTool]),
          describe: (name, input) => `${name} ${(input as { path?: string }).path ?? ''}`.trim(),
          env: sandbox!.env,
          clientOptions: { retryBaseMs: 1, maxRetries: 0 },
          ...hooks,
        });
        if (opts.interruptOn === 'tool') engine.store.onEvent((e) => e.type === 'tool.output' && io.interrupt());
        return engine;
      },
      io.io,
    );
    return { status, stdout: io.stdout(), stderr: io.stderr() };
  }

  it('streams the answer to stdout and tool activity to stderr; exit 0', async () => {
    const r = await run([{ text: 'Looking.', toolCalls: [{ name: 'note', input: { text: 'x' } }] }, { text: 'The answer.' }], {});
    expect(r.status).toBe(0);
    expect(r.stdout).toBe('Looking.\nThe answer.\n');
    expect(r.stderr).toContain('→ note');
    expect(r.stderr).toContain('  ok noted x');
  });

  it('-v logs each request to the run\'s stderr, each on its own line, and nothing to the process\'s', async () => {
    const leaked: string[] = [];
    const spy = vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => (leaked.push(String(chunk)), true));
    let r;
    try {
      r = await run([{ text: 'Looking.', toolCalls: [{ name: 'note', input: { text: 'x' } }] }, { text: 'The answer.' }], { verbose: true });
    } finally {
      spy.mockRestore();
    }
    expect(r.status).toBe(0);
    expect(r.stdout).toBe('Looking.\nThe answer.\n');
    const requests = r.stderr.split('\n').filter((l) => /^\[lwyrm\] request: \d+ messages/.test(l));
    expect(requests).toHaveLength(2);
    expect(r.stderr).toMatch(/^\[lwyrm\] response: /m);
    expect(leaked.filter((l) => l.includes('[lwyrm]'))).toEqual([]);
    // The code map is off in these sandboxes: nothing about it.
    expect(r.stderr).not.toContain('code map');
  });

  it('--json prints exactly the contract object on stdout and nothing else', async () => {
    const r = await run([{ text: 'Done it.', usage: { input: 10, output: 3, cacheRead: 7, cacheWrite: 1 } }], { json: true });
    expect(r.status).toBe(0);
    const lines = r.stdout.trim().split('\n');
    expect(lines).toHaveLength(1);
    const obj = JSON.parse(lines[0]!) as Record<string, unknown>;
    expect(Object.keys(obj).sort()).toEqual(['cost', 'denied', 'denied_calls', 'model', 'preset', 'result', 'session_id', 'status', 'steps', 'usage']);
    expect(obj).toMatchObject({
      status: 'finished',
      result: 'Done it.',
      preset: 'fake',
      model: 'fake-model',
      steps: 0,
      usage: { input: 10, cache_read: 7, cache_write: 1, output: 3 },
      cost: null,
      denied: 0,
      denied_calls: [],
    });
    expect(typeof obj['session_id']).toBe('string');
  });

  it('--json reports the cost when the preset has prices', async () => {
    const r = await run(
      [{ text: 'Priced.', usage: { input: 1_000_000, output: 500_000, cacheRead: 2_000_000, cacheWrite: 0 } }],
      { json: true },
      { presetToml: 'price_input = 0.3\nprice_cache_read = 0.006\nprice_output = 1.2' },
    );
    const obj = JSON.parse(r.stdout) as { cost: number };
    // 1M fresh input at 0.3 + 2M cached at 0.006 + 0.5M output at 1.2 (dollars per million).
    expect(obj.cost).toBeCloseTo(0.3 + 0.012 + 0.6, 10);
  });

  it('--json charges cache writes by the endpoint\'s rule when price_cache_write is unset', async () => {
    const r = await run(
      [{ text: 'Cached.', usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 1_000_000 } }],
      { json: true },
      { presetToml: 'price_input = 2\nprice_output = 10' },
    );
    const obj = JSON.parse(r.stdout) as { cost: number };
    // Anthropic bills a 5-minute cache write at 1.25x input; OpenAI-format servers charge input.
    expect(obj.cost).toBeCloseTo(format === 'anthropic' ? 2.5 : 2, 10);
  });

  it('--out writes the final answer to the file and keeps stdout quiet', async () => {
    const out = join(await import('node:os').then((os) => os.tmpdir()), `lw-out-${process.pid}-${format}.txt`);
    const r = await run([{ text: 'File answer.' }], { out });
    expect(r.status).toBe(0);
    expect(r.stdout).toBe('');
    expect(await readFile(out, 'utf8')).toBe('File answer.\n');
  });

  it('denies a confirm when stdin is not a terminal, tells the model and says what would allow it', async () => {
    const r = await run([{ toolCalls: [{ name: 'needs_ok', input: { path: 'a.txt' } }] }, { text: 'Could not write.' }], {});
    // A write tool's only call was denied: the turn did not do its job, whatever the model says (exit 3).
    expect(r.status).toBe(3);
    expect(r.stderr).toMatch(/incomplete: Every change the model tried was denied \(1 call: needs_ok a\.txt\)/);
    expect(r.stderr).toMatch(/denied write a\.txt .*stdin is not a terminal.*--allow write/);
    const body = readRequest(format, fake!.requests[1]!);
    const result = body.messages.flatMap((m) => m.toolResults.map((x) => x.content)).join('');
    expect(result).toMatch(/non-interactively/);
  });

  it('exit 3 at the step ceiling, with the reason on stderr', async () => {
    const r = await run(
      [{ toolCalls: [{ name: 'note', input: { text: '1' } }] }, { toolCalls: [{ name: 'note', input: { text: '2' } }] }],
      { json: true },
    );
    expect(r.status).toBe(3);
    expect(JSON.parse(r.stdout)).toMatchObject({ status: 'incomplete', steps: 1 });
    expect(r.stderr).toMatch(/max_tool_steps/);
  });

  it('exit 1 on a provider error', async () => {
    const r = await run([{ fault: { kind: 'status', status: 401, body: { error: { message: 'invalid key' } } } }], {});
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/error/);
  });

  it('exit 130 when interrupted while a tool runs', async () => {
    const r = await run([{ toolCalls: [{ name: 'wait_for_abort', input: {} }] }], { json: true }, { interruptOn: 'tool' });
    expect(r.status).toBe(130);
    expect(JSON.parse(r.stdout)).toMatchObject({ status: 'interrupted' });
  });

  it('exit 2 without a prompt', async () => {
    const r = await run([], { prompt: '  ' });
    expect(r.status).toBe(2);
  });
});
