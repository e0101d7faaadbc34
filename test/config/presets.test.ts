import { chmod, mkdir, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/config/errors.js';
import { loadConfig } from '../../src/config/load-config.js';
import { findPreset, LocalServerError, missingKeyMessage, resolveApiKey, resolvePreset } from '../../src/config/presets.js';
import { startFakeProvider } from '../support/fake-provider.js';
import { makeTempEnv, type TempEnv } from './temp-env.js';

let t: TempEnv;
beforeEach(async () => {
  t = await makeTempEnv();
});
afterEach(async () => {
  await t.cleanup();
});

const load = () => loadConfig({ cwd: t.project, env: t.env });

/** A port nothing listens on: bind, read the port, close. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return typeof address === 'object' && address ? address.port : 1;
}

describe('resolvePreset', () => {
  it('uses default_preset, or the name given', async () => {
    const config = await load();
    expect((await resolvePreset(config)).model).toBe('deepseek-v4-flash');
    expect((await resolvePreset(config, 'pro')).model).toBe('deepseek-v4-pro');
  });

  it('rejects an unknown preset with a usage error listing the known ones', async () => {
    const config = await load();
    const error = await resolvePreset(config, 'nope').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).exitCode).toBe(2);
    expect((error as ConfigError).message).toContain('flash, pro, ollama, lmstudio');
  });

  it('takes the model from -m ollama:MODEL without asking any server (model names may contain ":")', async () => {
    const preset = await resolvePreset(await load(), 'ollama:qwen3:8b');
    // Ollama's native API (it honours num_ctx); the OpenAI route was the round-1 default.
    expect(preset).toMatchObject({ name: 'ollama', format: 'ollama', model: 'qwen3:8b', baseUrl: 'http://127.0.0.1:11434', keyOptional: true });
  });

  it("asks a local OpenAI-compatible server's /models for the first model when none is given", async () => {
    const fake = await startFakeProvider({ format: 'openai', replies: [], models: ['llama-local', 'other'] });
    try {
      await t.writeUser(`[[presets]]\nname = "vllm"\nformat = "openai"\nbase_url = "${fake.baseUrl}"\n`);
      const preset = await resolvePreset(await load(), 'vllm');
      expect(preset.model).toBe('llama-local');
      expect(fake.requests.map((r) => `${r.method} ${r.path}`)).toContain('GET /models');
      expect(fake.requests[0]?.headers['user-agent']).toMatch(/^lindwyrm\/\d+\.\d+\.\d+/);
    } finally {
      await fake.close();
    }
  });

  it('says clearly, naming the URL, when the local server is not running', async () => {
    const port = await closedPort();
    await t.writeUser(`[[presets]]\nname = "lmstudio"\nbase_url = "http://127.0.0.1:${port}/v1"\n`);
    const error = await resolvePreset(await load(), 'lmstudio').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LocalServerError);
    expect((error as LocalServerError).exitCode).toBe(1);
    expect((error as Error).message).toContain(`http://127.0.0.1:${port}/v1/models`);
    expect((error as Error).message).toContain('-m lmstudio:MODEL');
  });

  it('accepts default_preset = "ollama:MODEL"', async () => {
    await t.writeUser('default_preset = "ollama:qwen3:8b"\n');
    expect(await resolvePreset(await load())).toMatchObject({ name: 'ollama', model: 'qwen3:8b' });
  });

  it('finds a preset without the network', async () => {
    expect(findPreset(await load(), 'lmstudio').model).toBe('');
  });
});

describe('resolveApiKey', () => {
  const preset = async (toml: string) => {
    await t.writeUser(`[[presets]]\nname = "p"\nformat = "openai"\nbase_url = "https://h.test/v1"\nmodel = "m"\n${toml}`);
    return findPreset(await load(), 'p');
  };

  it('takes the first variable in api_key_env that is set', async () => {
    const p = await preset('api_key_env = ["FIRST_KEY", "SECOND_KEY"]\n');
    expect(await resolveApiKey(p, { SECOND_KEY: 'two' })).toBe('two');
    expect(await resolveApiKey(p, { FIRST_KEY: 'one', SECOND_KEY: 'two' })).toBe('one');
    expect(await resolveApiKey(p, { FIRST_KEY: '  ', SECOND_KEY: 'two' })).toBe('two');
    expect(await resolveApiKey(p, {})).toBeUndefined();
  });

  it('falls back to key_file (trimmed) when no variable is set', async () => {
    const file = join(t.home, 'key.txt');
    await writeFile(file, 'sk-from-file\n');
    await chmod(file, 0o600);
    const p = await preset('api_key_env = ["MY_KEY"]\nkey_file = "~/key.txt"\n');
    expect(await resolveApiKey(p, {})).toBe('sk-from-file');
    expect(await resolveApiKey(p, { MY_KEY: 'env-wins' })).toBe('env-wins');
  });

  it('reports a key_file that cannot be read', async () => {
    await mkdir(join(t.home, 'keys'));
    const p = await preset('key_file = "~/keys"\n');
    await expect(resolveApiKey(p, {})).rejects.toThrow(/keys cannot be read \(EISDIR\)/);
  });

  it('takes a key_file that does not exist, or holds only whitespace, as no key: the message names the variable and the file', async () => {
    const p = await preset('api_key_env = ["MY_KEY"]\nkey_file = "~/missing.txt"\n');
    expect(await resolveApiKey(p, {})).toBeUndefined();
    await writeFile(join(t.home, 'missing.txt'), '\n\n');
    expect(await resolveApiKey(p, {})).toBeUndefined();
    expect(missingKeyMessage(p)).toBe(`no API key for preset "p": set MY_KEY or put the key in ${join(t.home, 'missing.txt')} (for example: export MY_KEY=...)`);
  });

  it('needs no key for the local presets', async () => {
    const config = await load();
    expect(findPreset(config, 'ollama').keyOptional).toBe(true);
    expect(findPreset(config, 'flash').keyOptional).toBe(false);
    expect(await resolveApiKey(findPreset(config, 'flash'), { DEEPSEEK_API_KEY: 'sk-x' })).toBe('sk-x');
  });

  it('names the variable to set when there is no key', async () => {
    expect(missingKeyMessage(findPreset(await load(), 'pro'))).toContain('set DEEPSEEK_API_KEY');
  });
});
