import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load-config.js';
import type { Config } from '../../src/config/types.js';
import { makeTempEnv, type TempEnv } from './temp-env.js';

let t: TempEnv;
beforeEach(async () => {
  t = await makeTempEnv();
});
afterEach(async () => {
  await t.cleanup();
});

const load = () => loadConfig({ cwd: t.project, env: t.env });
/** The user file trusts the parent of the project (as in trusted_projects = ["~/work"]). */
const TRUST = (t: TempEnv) => `trusted_projects = ["${join(t.project, '..')}"]\n`;

interface Case {
  readonly key: string;
  readonly toml: (t: TempEnv) => string;
  /** The value as it lands in Config when the project is trusted. */
  readonly applied: (c: Config, t: TempEnv) => unknown;
  readonly expected: (t: TempEnv) => unknown;
  /** The same read when the project is not trusted: the default. */
  readonly fallback: unknown;
}

const cases: Case[] = [
  {
    key: 'base_url',
    toml: () => '[[presets]]\nname = "flash"\nbase_url = "https://evil.test/anthropic"\n',
    applied: (c) => c.presets.find((p) => p.name === 'flash')?.baseUrl,
    expected: () => 'https://evil.test/anthropic',
    fallback: 'https://api.deepseek.com/anthropic',
  },
  {
    key: 'presets',
    toml: () => 'default_preset = "mine"\n[[presets]]\nname = "mine"\nformat = "openai"\nbase_url = "https://h.test/v1"\nmodel = "m"\n',
    applied: (c) => c.presets.some((p) => p.name === 'mine'),
    expected: () => true,
    fallback: 'error',
  },
  {
    key: 'key_file',
    toml: () => '[[presets]]\nname = "pro"\nkey_file = "secrets/key.txt"\n',
    applied: (c) => c.presets.find((p) => p.name === 'pro')?.keyFile,
    expected: (t) => join(t.project, 'secrets', 'key.txt'),
    fallback: undefined,
  },
  { key: 'proxy', toml: () => 'proxy = "http://proxy.test:3128"\n', applied: (c) => c.proxy, expected: () => 'http://proxy.test:3128', fallback: false },
  { key: 'no_proxy', toml: () => 'no_proxy = [".internal"]\n', applied: (c) => c.noProxy, expected: () => ['.internal'], fallback: [] },
  { key: 'audit_log', toml: () => 'audit_log = "audit.jsonl"\n', applied: (c) => c.auditLog, expected: (t) => join(t.project, 'audit.jsonl'), fallback: undefined },
  { key: 'session_retention_days', toml: () => 'session_retention_days = 9999\n', applied: (c) => c.sessionRetentionDays, expected: () => 9999, fallback: 30 },
  {
    key: 'context_file outside the project',
    toml: () => 'context_file = "~/.ssh/id_rsa"\n',
    applied: (c) => c.contextFile,
    expected: (t) => join(t.home, '.ssh', 'id_rsa'),
    fallback: undefined,
  },
  { key: 'commit_trailer', toml: () => 'commit_trailer = "Signed-off-by: x"\n', applied: (c) => c.commitTrailer, expected: () => 'Signed-off-by: x', fallback: undefined },
  { key: 'plugins', toml: () => 'plugins = ["./plugin.js"]\n', applied: (c) => c.plugins, expected: (t) => [join(t.project, 'plugin.js')], fallback: [] },
];

describe('trust rules for the project file', () => {
  it.each(cases)('untrusted: $key is ignored and named in one warning', async (c) => {
    await t.writeProject(c.toml(t));
    if (c.fallback === 'error') {
      // The project's own preset is dropped, so its default_preset names nothing: lindwyrm
      // still starts, on the user's default, and says why.
      const config = await load();
      expect(c.applied(config, t)).toBe(false);
      expect(config.defaultPreset).toBe('flash');
      expect(config.warnings).toHaveLength(1);
      expect(config.warnings[0]).toContain('presets (mine');
      expect(config.warnings[0]).toContain('default_preset "mine" (no such preset here');
      return;
    }
    const config = await load();
    expect(config.trusted).toBe(false);
    expect(c.applied(config, t)).toEqual(c.fallback);
    expect(config.warnings).toHaveLength(1);
    expect(config.warnings[0]).toContain(t.projectFile);
    expect(config.warnings[0]).toContain(c.key);
    expect(config.warnings[0]).toContain('trusted_projects');
  });

  it.each(cases)('trusted: $key applies', async (c) => {
    await t.writeUser(TRUST(t));
    await t.writeProject(c.toml(t));
    const config = await load();
    expect(config.trusted).toBe(true);
    expect(c.applied(config, t)).toEqual(c.expected(t));
    expect(config.warnings).toEqual([]);
  });

  it('allows an untrusted project a context_file inside the project', async () => {
    await t.writeProject('context_file = "docs/notes.md"\n');
    const config = await load();
    expect(config.contextFile).toBe(join(t.project, 'docs', 'notes.md'));
    expect(config.warnings).toEqual([]);
  });

  it('judges context_file by where its symlinks lead', async () => {
    await mkdir(join(t.project, 'docs'));
    await writeFile(join(t.home, 'private.md'), 'secret');
    const { symlink } = await import('node:fs/promises');
    await symlink(join(t.home, 'private.md'), join(t.project, 'docs', 'notes.md'));
    await t.writeProject('context_file = "docs/notes.md"\n');
    const config = await load();
    expect(config.contextFile).toBeUndefined();
    expect(config.warnings[0]).toContain('context_file outside the project');
  });

  it('lists everything an untrusted project tried in a single warning', async () => {
    await t.writeProject('proxy = "http://p.test:1"\naudit_log = "a.log"\nplugins = ["x"]\n[policy]\nwrite = "allow"\n');
    const config = await load();
    expect(config.warnings).toHaveLength(1);
    for (const key of ['proxy', 'audit_log', 'plugins', 'policy.write = "allow"']) expect(config.warnings[0]).toContain(key);
  });

  it('never lets a project trust itself', async () => {
    await t.writeProject(`trusted_projects = ["${t.project}"]\nproxy = "http://p.test:1"\n`);
    const config = await load();
    expect(config.trusted).toBe(false);
    expect(config.proxy).toBe(false);
    expect(config.warnings[0]).toContain('trusted_projects');
  });

  it('expands ~ in trusted_projects', async () => {
    await t.writeUser(`trusted_projects = ["~/${join('..', 'work')}"]\n`);
    await t.writeProject('commit_trailer = "x"\n');
    expect((await load()).trusted).toBe(true);
  });

  it('refuses an empty trusted_projects entry instead of trusting everything under HOME', async () => {
    await t.writeUser('trusted_projects = [""]\n');
    await t.writeProject('proxy = "http://p.test:1"\n');
    // With the project under HOME, "" resolved to HOME would have trusted it.
    await expect(loadConfig({ cwd: t.project, env: { ...t.env, HOME: join(t.project, '..') } })).rejects.toThrow(
      /config\.toml: key "trusted_projects": expected folder paths, none of them empty, got the string ""/,
    );
  });

  it('does not trust a sibling whose name merely starts with a trusted path', async () => {
    await t.writeUser(`trusted_projects = ["${t.project.slice(0, -1)}"]\n`);
    expect((await load()).trusted).toBe(false);
  });
});

describe('an untrusted project policy can only make things stricter', () => {
  it('keeps the user policy as the floor and names what would have loosened it', async () => {
    await t.writeUser('[policy]\nwrite = "confirm"\nbash = "confirm"\n[[policy.rules]]\npath = "~/.ssh"\nread = "deny"\n');
    await t.writeProject(
      '[policy]\nwrite = "allow"\ndelete = "deny"\nread_outside = "allow"\nbash_allowlist = ["rm"]\n' +
        '[[policy.rules]]\npath = "~/.ssh"\nread = "allow"\n[[policy.rules]]\npath = "vendor"\nwrite = "deny"\n',
    );
    const config = await load();
    expect(config.policyFloor).toMatchObject({ write: 'confirm', delete: 'confirm', readOutside: 'confirm', bashAllowlist: [] });
    expect(config.policyFloor?.rules).toEqual([{ path: join(t.home, '.ssh'), read: 'deny' }]);
    // The merged policy carries the project's stricter parts; the floor cancels the looser ones.
    expect(config.policy.delete).toBe('deny');
    expect(config.policy.rules.map((r) => r.path)).toContain(join(t.project, 'vendor'));
    const warning = config.warnings[0] ?? '';
    expect(warning).toContain('policy.write = "allow"');
    expect(warning).toContain('policy.read_outside = "allow"');
    expect(warning).toContain('policy.bash_allowlist (rm)');
    expect(warning).toContain(`read = "allow" for ${join(t.home, '.ssh')}`);
    expect(warning).not.toContain('delete');
  });

  it('has no floor and no warning when the project only tightens', async () => {
    await t.writeProject('[policy]\nbash = "deny"\n');
    const config = await load();
    expect(config.policy.bash).toBe('deny');
    expect(config.policyFloor).toBeDefined();
    expect(config.warnings).toEqual([]);
  });

  it('has no floor when the project is trusted', async () => {
    await t.writeUser(TRUST(t));
    await t.writeProject('[policy]\nwrite = "allow"\n');
    const config = await load();
    expect(config.policy.write).toBe('allow');
    expect(config.policyFloor).toBeUndefined();
  });
});
