import { createServer } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/config/errors.js';
import { loadConfig } from '../../src/config/load-config.js';
import { openPreset } from '../../src/config/local-preset.js';
import { LocalServerError } from '../../src/config/local-models.js';
import { startFakeOllama } from '../support/fake-ollama.js';
import { startFakeLmStudio } from '../support/fake-lmstudio.js';
import { startFakeLlamaCpp } from '../support/fake-llamacpp.js';
import type { FakeServer } from '../support/fake-local-common.js';
import { makeTempEnv, type TempEnv } from './temp-env.js';

let t: TempEnv;
let server: FakeServer | undefined;
beforeEach(async () => {
  t = await makeTempEnv();
});
afterEach(async () => {
  await server?.close();
  server = undefined;
  await t.cleanup();
});

const load = () => loadConfig({ cwd: t.project, env: t.env });
const preset = async (name: string, lines: string) => t.writeUser(`[[presets]]\nname = "${name}"\n${lines}\n`);

async function closedPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  const address = s.address();
  await new Promise<void>((resolve) => s.close(() => resolve()));
  return typeof address === 'object' && address ? address.port : 1;
}

describe('Ollama: the window from /api/show and /api/ps', () => {
  it('native format: context_window within the model maximum, small profile under 32K, and says where it came from', async () => {
    server = await startFakeOllama({ models: [{ name: 'qwen3:8b', contextLength: 8192, arch: 'qwen3', loadedContext: 4096, capabilities: ['completion', 'tools', 'thinking'] }], replies: [] });
    await preset('ollama', `base_url = "${server.baseUrl}"`);
    const opened = await openPreset(await load(), 'ollama:qwen3:8b');
    expect(opened.preset).toMatchObject({ format: 'ollama', contextWindow: 8192, maxTokens: 2048, toolProfile: 'small' });
    expect(opened.local).toMatchObject({ kind: 'ollama', modelMax: 8192, loaded: 4096, canThink: true, canUseTools: true });
    expect(opened.log[0]).toBe(
      'context window 8192 tokens: context_window 32768 of preset "ollama", the model allows 8192 (/api/show qwen3.context_length); loaded now with 4096 (/api/ps); num_ctx is set per request',
    );
    expect(opened.guard?.fix).toBe("The model's maximum is 8192 tokens: use a model with a longer context");
  });

  it('native format: a model larger than context_window keeps context_window, full profile at 32K', async () => {
    server = await startFakeOllama({ models: [{ name: 'qwen3:8b', contextLength: 40_960 }], replies: [] });
    await preset('ollama', `base_url = "${server.baseUrl}/v1"`); // a round-1 config pointing at /v1 still works
    const opened = await openPreset(await load(), 'ollama:qwen3:8b');
    expect(opened.preset).toMatchObject({ contextWindow: 32_768, maxTokens: 8192, toolProfile: 'full' });
    expect(opened.guard?.fix).toBe('Raise context_window of preset "ollama" (now 32768; the model allows 40960)');
  });

  it('format = "openai" against Ollama: the loaded window, and a note that num_ctx cannot be set that way', async () => {
    server = await startFakeOllama({ models: [{ name: 'qwen3:8b', contextLength: 40_960, loadedContext: 4096 }], replies: [] });
    await preset('ollama', `format = "openai"\nbase_url = "${server.baseUrl}/v1"`);
    const opened = await openPreset(await load(), 'ollama:qwen3:8b');
    expect(opened.local?.kind).toBe('ollama');
    expect(opened.preset.contextWindow).toBe(4096);
    expect(opened.notices[0]).toMatch(/OpenAI-compatible route, which cannot set num_ctx: the window is 4096 tokens \(loaded with 4096 \(\/api\/ps\)\)/);
    expect(opened.guard?.fix).toContain('OLLAMA_CONTEXT_LENGTH=32768 ollama serve');
  });

  it('format = "openai", model not loaded: Ollama\'s 4096 default is assumed unless the Modelfile sets num_ctx', async () => {
    server = await startFakeOllama({ models: [{ name: 'a:1', parameters: 'num_ctx                        16384\nstop "<|im_end|>"' }, { name: 'b:1' }], replies: [] });
    await preset('ollama', `format = "openai"\nbase_url = "${server.baseUrl}/v1"`);
    expect((await openPreset(await load(), 'ollama:a:1')).preset.contextWindow).toBe(16_384);
    expect((await openPreset(await load(), 'ollama:b:1')).log[0]).toMatch(/^context window 4096 tokens: assumed 4096, Ollama's default/);
  });

  it('-m ollama picks the loaded model, else the only one, and lists them when there are several', async () => {
    server = await startFakeOllama({ models: [{ name: 'qwen3:8b' }, { name: 'llama3.2:3b', loadedContext: 8192 }], replies: [] });
    await preset('ollama', `base_url = "${server.baseUrl}"`);
    expect((await openPreset(await load(), 'ollama')).preset.model).toBe('llama3.2:3b');
    await server.close();
    server = await startFakeOllama({ models: [{ name: 'qwen3:8b' }], replies: [] });
    await preset('ollama', `base_url = "${server.baseUrl}"`);
    expect((await openPreset(await load(), 'ollama')).preset.model).toBe('qwen3:8b');
    await server.close();
    server = await startFakeOllama({ models: [{ name: 'qwen3:8b' }, { name: 'gemma3:4b' }], replies: [] });
    await preset('ollama', `base_url = "${server.baseUrl}"`);
    const error = await openPreset(await load(), 'ollama').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toBe(`Ollama at ${server.baseUrl} has several models and none is loaded; choose one:\n  -m ollama:qwen3:8b\n  -m ollama:gemma3:4b`);
  });

  it('names a server that is not running, and how to start it', async () => {
    const port = await closedPort();
    await preset('ollama', `base_url = "http://127.0.0.1:${port}"`);
    const noModel = await openPreset(await load(), 'ollama').catch((e: unknown) => e);
    expect(noModel).toBeInstanceOf(LocalServerError);
    expect((noModel as Error).message).toBe(
      `cannot reach http://127.0.0.1:${port}/api/ps for preset "ollama": is Ollama running? Start it with \`ollama serve\` (or open the Ollama app), then try again; or name the model with -m ollama:MODEL`,
    );
    const withModel = await openPreset(await load(), 'ollama:qwen3').catch((e: unknown) => e);
    expect((withModel as Error).message).toMatch(/^cannot reach .*\/api\/show for preset "ollama": is Ollama running\? Start it with `ollama serve`/);
  });

  it('a server without /api/show or /api/ps still opens, on context_window', async () => {
    server = await startFakeOllama({ models: [{ name: 'qwen3:8b' }], replies: [], without: ['/api/show', '/api/ps'] });
    await preset('ollama', `base_url = "${server.baseUrl}"\ncontext_window = 16384`);
    const opened = await openPreset(await load(), 'ollama:qwen3:8b');
    expect(opened.preset).toMatchObject({ contextWindow: 16_384, toolProfile: 'small' });
    expect(opened.log[0]).toMatch(/\/api\/show gave no context length/);
  });

  it('a model the server does not have: how to pull it, and what it has', async () => {
    server = await startFakeOllama({ models: [{ name: 'qwen3:8b' }], replies: [] });
    await preset('ollama', `base_url = "${server.baseUrl}"`);
    const error = await openPreset(await load(), 'ollama:mistral').catch((e: unknown) => e);
    expect((error as Error).message).toBe(`Ollama at ${server.baseUrl} has no model "mistral": pull it with \`ollama pull mistral\`, or use one it has: qwen3:8b`);
  });
});

describe('LM Studio: the loaded context from its model API', () => {
  it('reads loaded_context_length from /api/v0/models and picks the loaded model', async () => {
    server = await startFakeLmStudio({
      models: [{ id: 'qwen3-8b', maxContext: 131_072, loadedContext: 16_384 }, { id: 'gemma-3-4b', maxContext: 32_768 }, { id: 'nomic-embed', type: 'embeddings', maxContext: 2048 }],
      replies: [],
    });
    await preset('lmstudio', `base_url = "${server.baseUrl}/v1"`);
    const opened = await openPreset(await load(), 'lmstudio');
    expect(opened.preset).toMatchObject({ model: 'qwen3-8b', contextWindow: 16_384, toolProfile: 'small' });
    expect(opened.log).toContain('context window 16384 tokens: loaded_context_length (/api/v0/models), the model allows 131072');
  });

  it('falls back to /api/v1/models loaded_instances on servers without v0', async () => {
    server = await startFakeLmStudio({ models: [{ id: 'qwen3-8b', maxContext: 131_072, loadedContext: 65_536 }], replies: [], v0: false });
    await preset('lmstudio', `base_url = "${server.baseUrl}/v1"`);
    const opened = await openPreset(await load(), 'lmstudio:qwen3-8b');
    expect(opened.preset).toMatchObject({ contextWindow: 65_536, toolProfile: 'full' });
  });

  it('a model not loaded yet: assumes the 4096 load default and says how to load it with more', async () => {
    server = await startFakeLmStudio({ models: [{ id: 'qwen3-8b', maxContext: 131_072 }], replies: [] });
    await preset('lmstudio', `base_url = "${server.baseUrl}/v1"`);
    const opened = await openPreset(await load(), 'lmstudio:qwen3-8b');
    expect(opened.preset.contextWindow).toBe(4096);
    expect(opened.notices[0]).toContain('lms load qwen3-8b --context-length 32768');
  });

  it('context_window in the config caps what the server reports', async () => {
    server = await startFakeLmStudio({ models: [{ id: 'qwen3-8b', maxContext: 131_072, loadedContext: 65_536 }], replies: [] });
    await preset('lmstudio', `base_url = "${server.baseUrl}/v1"\ncontext_window = 20000`);
    expect((await openPreset(await load(), 'lmstudio:qwen3-8b')).preset.contextWindow).toBe(20_000);
  });

  it('several downloaded and none loaded: lists the chat models', async () => {
    server = await startFakeLmStudio({ models: [{ id: 'a', maxContext: 8192 }, { id: 'b', maxContext: 8192 }, { id: 'e', type: 'embeddings', maxContext: 512 }], replies: [] });
    await preset('lmstudio', `base_url = "${server.baseUrl}/v1"`);
    const error = await openPreset(await load(), 'lmstudio').catch((e: unknown) => e);
    expect((error as Error).message).toBe(`LM Studio at ${server.baseUrl} has several models and none is loaded; choose one:\n  -m lmstudio:a\n  -m lmstudio:b`);
  });

  it('not running: named with how to start it', async () => {
    const port = await closedPort();
    await preset('lmstudio', `base_url = "http://127.0.0.1:${port}/v1"`);
    const error = await openPreset(await load(), 'lmstudio').catch((e: unknown) => e);
    expect((error as Error).message).toContain('is LM Studio running? Start it with `lms server start`');
  });
});

describe('llama.cpp server: n_ctx from /props', () => {
  it('reads default_generation_settings.n_ctx, for a custom preset without a key', async () => {
    server = await startFakeLlamaCpp({ nCtx: 8192, replies: [] });
    await preset('llamacpp', `format = "openai"\nbase_url = "${server.baseUrl}/v1"`);
    const opened = await openPreset(await load(), 'llamacpp');
    expect(opened.preset).toMatchObject({ model: 'qwen2.5-coder-7b-instruct-q4_k_m.gguf', contextWindow: 8192, toolProfile: 'small' });
    expect(opened.log).toContain('context window 8192 tokens: default_generation_settings.n_ctx (/props)');
    expect(opened.guard?.fix).toBe('Restart llama-server with a larger context (-c 32768)');
  });

  it('a preset named local… is asked too, and one with another name is left alone', async () => {
    server = await startFakeLlamaCpp({ nCtx: 6144, replies: [] });
    await t.writeUser(`[[presets]]\nname = "local-coder"\nformat = "openai"\nbase_url = "${server.baseUrl}/v1"\n[[presets]]\nname = "box"\nformat = "openai"\nbase_url = "${server.baseUrl}/v1"\nmodel = "m"\n`);
    expect((await openPreset(await load(), 'local-coder')).preset.contextWindow).toBe(6144);
    const asked = server.requests.length;
    expect((await openPreset(await load(), 'box')).preset.contextWindow).toBe(128_000);
    expect(server.requests.length).toBe(asked);
  });

  it('router mode: asks /props?model= when the bare route is a placeholder', async () => {
    server = await startFakeLlamaCpp({ nCtx: 12_288, routerMode: true, model: 'm.gguf', replies: [] });
    await preset('llamacpp', `format = "openai"\nbase_url = "${server.baseUrl}/v1"\nmodel = "m.gguf"`);
    expect((await openPreset(await load(), 'llamacpp')).preset.contextWindow).toBe(12_288);
  });
});

describe('hosted presets and tool_profile', () => {
  it('asks nothing of a hosted preset, and tool_profile in the config wins over the window rule', async () => {
    await t.writeUser('tool_profile = "small"\n[[presets]]\nname = "h"\nformat = "openai"\nbase_url = "https://api.example.test/v1"\nmodel = "m"\napi_key_env = ["K"]\n');
    const opened = await openPreset(await load(), 'h');
    expect(opened.preset.toolProfile).toBe('small');
    expect(opened.log).toEqual([]);
    expect((await openPreset(await load(), 'flash')).preset.toolProfile).toBe('small');
    await t.writeUser('[[presets]]\nname = "flash"\ntool_profile = "full"\n');
    expect((await openPreset(await load(), 'flash')).preset.toolProfile).toBe('full');
  });
});
