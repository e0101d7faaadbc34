/**
 * The built CLI against fake local servers: `-m ollama` without a model, a server that is not
 * running, and a one-shot run whose -v output says where the window came from.
 */
import { createServer } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startFakeOllama, type FakeOllama } from '../support/fake-ollama.js';
import { makeSandbox, type Sandbox } from '../support/sandbox.js';
import { run as runCli, useBuild } from './support/cli.js';

vi.setConfig({ testTimeout: 60_000 });
const cli = useBuild();

let fake: FakeOllama | undefined;
let e: Sandbox | undefined;
afterEach(async () => {
  await fake?.close();
  await e?.cleanup();
  fake = undefined;
  e = undefined;
});

async function sandboxFor(baseUrl: string): Promise<Sandbox> {
  e = await makeSandbox({ format: 'openai', baseUrl: 'http://127.0.0.1:1/unused', configToml: 'max_retries = 0\n', presetToml: `\n[[presets]]\nname = "ollama"\nbase_url = "${baseUrl}"\n` });
  return e;
}

describe('lwyrm -m ollama', () => {
  it('picks the loaded model, runs with its window, and -v says where the window came from', async () => {
    fake = await startFakeOllama({ models: [{ name: 'qwen3:8b', contextLength: 40_960, arch: 'qwen3' }, { name: 'gemma3:4b', contextLength: 8192, arch: 'gemma3', loadedContext: 4096 }], replies: [{ text: 'Hello from gemma.' }] });
    const r = await runCli(cli(), await sandboxFor(fake.baseUrl), ['-m', 'ollama', '-v', '--json', '-p', 'hi']);
    expect(r.status).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ status: 'finished', result: 'Hello from gemma.', preset: 'ollama', model: 'gemma3:4b' });
    expect(r.stderr).toContain('context window 8192 tokens: context_window 32768 of preset "ollama", the model allows 8192 (/api/show gemma3.context_length); loaded now with 4096 (/api/ps)');
    expect(r.stderr).toContain('tool profile small');
    const chat = fake.requests.find((q) => q.path === '/api/chat')?.body as { options: { num_ctx: number } };
    expect(chat.options.num_ctx).toBe(4096);
  });

  it('lists the models when there are several and none is loaded: a usage error, exit 2', async () => {
    fake = await startFakeOllama({ models: [{ name: 'qwen3:8b' }, { name: 'gemma3:4b' }], replies: [] });
    const r = await runCli(cli(), await sandboxFor(fake.baseUrl), ['-m', 'ollama', '-p', 'hi']);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('has several models and none is loaded; choose one:\n  -m ollama:qwen3:8b\n  -m ollama:gemma3:4b');
  });

  it('names a server that is not running and how to start it: exit 1', async () => {
    const s = createServer();
    await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
    const port = (s.address() as { port: number }).port;
    await new Promise<void>((resolve) => s.close(() => resolve()));
    const r = await runCli(cli(), await sandboxFor(`http://127.0.0.1:${port}`), ['-m', 'ollama:qwen3:8b', '-p', 'hi']);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('is Ollama running? Start it with `ollama serve`');
  });
});
