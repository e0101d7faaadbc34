import { existsSync } from 'node:fs';
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
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

describe('loadConfig: defaults and merging', () => {
  it('gives the documented defaults with no config files, frozen', async () => {
    const c = await load();
    expect(c.projectRoot).toBe(t.project);
    expect(c.defaultPreset).toBe('flash');
    expect(c.presets.map((p) => p.name)).toEqual(['flash', 'pro', 'ollama', 'lmstudio']);
    expect(c.policy).toMatchObject({ read: 'allow', write: 'confirm', delete: 'confirm', bash: 'confirm', readOutside: 'confirm' });
    expect(c).toMatchObject({ sessionRetentionDays: 30, maxToolSteps: 50, maxRetries: 4, maxFileSizeBytes: 1_000_000 });
    expect(c).toMatchObject({ maxToolOutputChars: 30_000, bashTimeoutMs: 120_000, loopDetectionWindow: 6, markdown: true, proxy: false });
    expect(c.policyFloor).toBeUndefined();
    expect(c.secretEnvNames).toEqual(['DEEPSEEK_API_KEY']);
    expect(c.warnings).toEqual([]);
    expect(Object.isFrozen(c)).toBe(true);
    expect(Object.isFrozen(c.presets[0])).toBe(true);
    expect(Object.isFrozen(c.policy.rules)).toBe(true);
  });

  it('puts project values over user values, and user values over defaults', async () => {
    await t.writeUser('max_tool_steps = 80\nmax_retries = 2\nmarkdown = false\n[policy]\nwrite = "allow"\nbash_denylist = ["sudo"]\n');
    // An untrusted project may only lower a limit (issue 18): 40 under the user's 80 applies.
    await t.writeProject('max_tool_steps = 40\n[policy]\nwrite = "deny"\nbash_denylist = ["curl"]\n');
    const c = await load();
    expect(c.maxToolSteps).toBe(40);
    expect(c.maxRetries).toBe(2);
    expect(c.markdown).toBe(false);
    expect(c.policy.write).toBe('deny');
    expect(c.policy.bashDenylist).toEqual(['sudo', 'curl']);
  });

  it('lets a user preset with a built-in name change only the fields it sets', async () => {
    await t.writeUser('[[presets]]\nname = "flash"\nprice_input = 0.3\nprice_output = 1.2\nprice_cache_read = 0.006\n');
    const flash = (await load()).presets.find((p) => p.name === 'flash');
    expect(flash).toMatchObject({ format: 'anthropic', baseUrl: 'https://api.deepseek.com/anthropic', model: 'deepseek-v4-flash' });
    expect(flash?.prices).toEqual({ input: 0.3, output: 1.2, cacheRead: 0.006 });
  });

  it('adds custom presets, accepts api_key_env as a string, and collects every key variable', async () => {
    await t.writeUser(
      'default_preset = "kimi"\n[[presets]]\nname = "kimi"\nformat = "openai"\nbase_url = "https://example.test/v1/"\nmodel = "k3"\napi_key_env = "KIMI_KEY"\n',
    );
    const c = await load();
    expect(c.defaultPreset).toBe('kimi');
    const kimi = c.presets.find((p) => p.name === 'kimi');
    expect(kimi).toMatchObject({ baseUrl: 'https://example.test/v1', apiKeyEnv: ['KIMI_KEY'], keyOptional: false, contextWindow: 128_000 });
    expect(c.secretEnvNames).toEqual(['DEEPSEEK_API_KEY', 'KIMI_KEY']);
  });

  it('resolves rule paths: ~ and relative to home in the user file, relative to the project in the project file, symlinks followed', async () => {
    await mkdir(join(t.project, 'real'));
    await symlink(join(t.project, 'real'), join(t.project, 'link'));
    await t.writeUser('[[policy.rules]]\npath = "~/.ssh"\nread = "deny"\n[[policy.rules]]\npath = "notes"\nwrite = "allow"\n');
    await t.writeProject('[[policy.rules]]\npath = "link/sub"\nwrite = "deny"\n');
    const rules = (await load()).policy.rules.map((r) => r.path);
    expect(rules).toEqual([join(t.home, '.ssh'), join(t.home, 'notes'), join(t.project, 'real', 'sub')]);
  });

  it('reads code_map as false, true or a table', async () => {
    await t.writeUser('code_map = false\n');
    expect((await load()).codeMap).toEqual({ enabled: false });
    await t.writeUser('[code_map]\nbudget_tokens = 3000\n');
    expect((await load()).codeMap).toEqual({ enabled: true, budgetTokens: 3000 });
  });

  it('reads a file saved with a UTF-8 byte-order mark and CRLF line ends', async () => {
    await t.writeUser('\uFEFFmax_tool_steps = 7\r\nmarkdown = false\r\n');
    expect(await load()).toMatchObject({ maxToolSteps: 7, markdown: false });
  });

  it('never reads a project .env file', async () => {
    await writeFile(join(t.project, '.env'), 'DEEPSEEK_API_KEY=sk-from-dotenv\nmax_tool_steps = 3\n');
    const c = await load();
    expect(JSON.stringify(c)).not.toContain('sk-from-dotenv');
    expect(c.maxToolSteps).toBe(50);
  });
});

describe('loadConfig: errors name the file, the key and what was expected', () => {
  it('reports broken TOML with file, line and column', async () => {
    await t.writeUser('max_tool_steps = 5\n[policy\nread = "allow"\n');
    const e = await configError();
    expect(e.exitCode).toBe(2);
    expect(e.message).toContain(t.userFile);
    expect(e.message).toMatch(/:2:\d+: invalid TOML/);
  });

  it.each([
    ['max_tool_steps = "fifty"', 'max_tool_steps', 'a whole number >= 1'],
    ['markdown = "yes"', 'markdown', 'true or false'],
    ['[policy]\nwrite = "sometimes"', 'policy.write', 'one of "allow", "confirm", "deny"'],
    ['[[presets]]\nname = "x"\nformat = "openai"\nbase_url = "https://h"\ncontext_window = -5', 'presets[0].context_window', 'a whole number'],
    ['[[presets]]\nname = "x"\nformat = "grpc"', 'presets[0].format', '"anthropic", "openai"'],
    ['[[presets]]\nname = "x"\nformat = "openai"', 'presets[0].base_url', 'the endpoint URL'],
    ['proxy = "ftp://h"', 'proxy', 'a proxy URL'],
    ['no_proxy = [1, 2]', 'no_proxy', 'a string or a list of strings'],
    ['default_preset = "missing"', 'default_preset', 'the name of a preset'],
    ['[[policy.rules]]\nwrite = "allow"', 'policy.rules[0].path', 'a path'],
    ['[[policy.rules]]\npath = 3', 'policy.rules[0].path', 'a string, got the number 3'],
    ['policy = ["deny"]', 'policy', 'a table, got a list'],
    ['code_map = [1]', 'code_map', 'true, false or a table ([code_map]), got a list'],
    ['[presets]\nname = "x"', 'presets', 'a list of tables ([[presets]])'],
    [
      '[[presets]]\nname = "x"\nformat = "openai"\nbase_url = "https://a"\n[[presets]]\nname = "x"\nformat = "openai"\nbase_url = "https://b"',
      'presets[1].name',
      'a name no other [[presets]] entry in this file uses (presets[0] is "x")',
    ],
  ])('%s', async (toml, key, expected) => {
    await t.writeUser(toml);
    const e = await configError();
    expect(e.exitCode).toBe(2);
    expect(e.message).toContain(t.userFile);
    expect(e.message).toContain(`"${key}"`);
    expect(e.message).toContain(expected);
    expect(e.message).not.toMatch(/\n\s+at /);
  });

  it.each(['api_key = "sk-123"', 'token = "abc"', '[[presets]]\nname = "flash"\nkey = "sk-123"'])(
    'refuses a key written into the config: %s',
    async (toml) => {
      await t.writeUser(toml);
      const e = await configError();
      expect(e.message).toContain(t.userFile);
      expect(e.message).toMatch(/never read from a config file/);
      expect(e.message).toContain('api_key_env');
    },
  );

  it.skipIf(!existsSync('/dev/zero'))('refuses a project file that links to a device instead of reading it forever', async () => {
    await symlink('/dev/zero', t.projectFile);
    const e = await configError();
    expect(e.message).toBe(`${t.projectFile}: cannot read the config file (it is not a regular file)`);
  });

  it('refuses a config file over 1 MiB', async () => {
    await t.writeProject(`# ${'x'.repeat(1024 * 1024)}\n`);
    const e = await configError();
    expect(e.message).toContain(`${t.projectFile}: cannot read the config file (1048579 bytes`);
  });

  it('refuses a key pasted into api_key_env', async () => {
    await t.writeUser('[[presets]]\nname = "flash"\napi_key_env = ["sk-abc123-def"]\n');
    const e = await configError();
    expect(e.message).toContain('presets[0].api_key_env');
    expect(e.message).toContain('not the key itself');
  });
});

describe('loadConfig: unknown keys', () => {
  it('names the project file when the project file is the broken one', async () => {
    await t.writeProject('max_retries = -1\n');
    const e = await configError();
    expect(e.message).toBe(`${t.projectFile}: key "max_retries": expected a whole number >= 0, got the number -1`);
  });

  it('warns about each unknown key by name, with a suggestion for a typo', async () => {
    await t.writeUser('max_tool_step = 10\ncolour = "red"\n[[presets]]\nname = "flash"\nmodle = "x"\n[policy]\nwirte = "allow"\n');
    const c = await load();
    expect(c.warnings).toHaveLength(4);
    expect(c.warnings.join('\n')).toContain('unknown key "max_tool_step" ignored (did you mean "max_tool_steps"?)');
    expect(c.warnings.join('\n')).toContain('"colour"');
    expect(c.warnings.join('\n')).toContain('"presets[0].modle" ignored (did you mean "presets[0].model"?)');
    expect(c.warnings.join('\n')).toContain('"policy.wirte"');
    expect(c.maxToolSteps).toBe(50);
  });
});
