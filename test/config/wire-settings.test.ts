/**
 * Config keys for the wire: prompt_cache and cache_ttl per preset, max_reply_bytes globally (a
 * project may only lower it unless trusted), and base_url with user info refused at load.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/config/errors.js';
import { loadConfig } from '../../src/config/load-config.js';
import { makeTempEnv, type TempEnv } from './temp-env.js';

let t: TempEnv;
beforeEach(async () => {
  t = await makeTempEnv();
});
afterEach(async () => {
  await t.cleanup();
});

const load = () => loadConfig({ cwd: t.project, env: t.env });

async function configError(): Promise<ConfigError> {
  const error = await load().then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ConfigError);
  return error as ConfigError;
}

const claude = (extra: string) => `[[presets]]
name = "claude"
format = "anthropic"
base_url = "https://api.anthropic.com"
model = "claude-sonnet-4-5"
api_key_env = ["ANTHROPIC_API_KEY"]
${extra}
`;

describe('prompt_cache and cache_ttl', () => {
  it('are read per preset; absent means auto (decided by model and endpoint) and 5 minutes', async () => {
    await t.writeUser(`${claude('prompt_cache = false\ncache_ttl = "1h"')}\n[[presets]]\nname = "flash"\nthinking = false\n`);
    const c = await load();
    expect(c.presets.find((p) => p.name === 'claude')).toMatchObject({ promptCache: false, cacheTtl: '1h' });
    const flash = c.presets.find((p) => p.name === 'flash');
    expect(flash?.promptCache).toBeUndefined();
    expect(flash?.cacheTtl).toBeUndefined();
  });

  it('reject values they do not know, naming the key', async () => {
    await t.writeUser(claude('cache_ttl = "10m"'));
    expect((await configError()).message).toMatch(/presets\[0\]\.cache_ttl/);
    await t.writeUser(claude('prompt_cache = "yes"'));
    expect((await configError()).message).toMatch(/presets\[0\]\.prompt_cache": expected true or false/);
  });

  it('prompt_cache = true on an OpenAI-format preset is an error saying why', async () => {
    await t.writeUser('[[presets]]\nname = "o"\nformat = "openai"\nbase_url = "https://x.example/v1"\nprompt_cache = true\n');
    expect((await configError()).message).toMatch(/prompt_cache.*format = "anthropic"/);
  });
});

describe('max_reply_bytes', () => {
  it('defaults to 8 MiB and takes a user value', async () => {
    expect((await load()).maxReplyBytes).toBe(8 * 1024 * 1024);
    await t.writeUser('max_reply_bytes = 1048576\n');
    expect((await load()).maxReplyBytes).toBe(1_048_576);
  });

  it('an untrusted project may lower it but not raise it', async () => {
    await t.writeUser('max_reply_bytes = 1048576\n');
    await t.writeProject('max_reply_bytes = 65536\n');
    expect((await load()).maxReplyBytes).toBe(65_536);
    await t.writeProject('max_reply_bytes = 1073741824\n');
    const c = await load();
    expect(c.maxReplyBytes).toBe(1_048_576);
    expect(c.warnings.join('\n')).toMatch(/max_reply_bytes above your own/);
  });

  it('refuses a cap too small to hold an answer', async () => {
    await t.writeUser('max_reply_bytes = 10\n');
    expect((await configError()).message).toMatch(/max_reply_bytes/);
  });
});

describe('base_url with user info', () => {
  it.each([
    ['https://sk-live-1234567890@api.example.com/v1', 'api.example.com'],
    ['https://user:sk-secret-0987654321@gateway.example/anthropic', 'gateway.example'],
    ['http://api.anthropic.com@evil.example/', 'evil.example'],
  ])('%s is refused at load, naming the key and the host it would go to, without quoting the secret', async (url, host) => {
    await t.writeUser(claude('').replace('https://api.anthropic.com', url));
    const err = await configError();
    expect(err.message).toMatch(/key "presets\[0\]\.base_url"/);
    expect(err.message).toContain(host);
    expect(err.message).not.toMatch(/sk-live|sk-secret/);
  });

  it('a plain URL, and a proxy URL with credentials, are fine', async () => {
    await t.writeUser(`proxy = "http://me:pw@proxy.internal:3128"\n${claude('')}`);
    const c = await load();
    expect(c.presets.find((p) => p.name === 'claude')?.baseUrl).toBe('https://api.anthropic.com');
  });
});
