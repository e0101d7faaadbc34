import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
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

describe('sandbox config keys', () => {
  it('defaults: on where it can start, no extra writable paths, no network, commands still ask', async () => {
    const config = await load();
    expect(config.sandbox).toEqual({ mode: 'auto', writable: [], network: [], bashInSandbox: 'confirm' });
  });

  it('reads every key; paths from the home folder with ~ expanded, hosts normalised', async () => {
    await mkdir(join(t.home, '.npm'));
    await t.writeUser(
      'sandbox = "required"\nsandbox_writable = ["~/.npm", "cache"]\nsandbox_network = ["Registry.NPMJS.org", "*.github.com", "10.0.0.0/8", "[::1]"]\nbash_in_sandbox = "allow"\n',
    );
    const config = await load();
    expect(config.sandbox).toEqual({
      mode: 'required',
      writable: [join(t.home, '.npm'), join(t.home, 'cache')],
      network: ['registry.npmjs.org', '.github.com', '10.0.0.0/8', '::1'],
      bashInSandbox: 'allow',
    });
    expect(config.warnings).toEqual([]);
  });

  it.each([
    ['sandbox = "maybe"', /key "sandbox": expected one of "auto", "required", "off"|key "sandbox": expected/],
    ['bash_in_sandbox = "yes"', /key "bash_in_sandbox"/],
    ['sandbox_network = ["https://github.com"]', /key "sandbox_network": expected a host name such as "github.com", not a URL, got the string "https:\/\/github.com"/],
    ['sandbox_network = ["github.com:443"]', /key "sandbox_network": expected a host without a port/],
    ['sandbox_network = ["exa mple.com"]', /key "sandbox_network": expected a host name/],
    ['sandbox_writable = [""]', /key "sandbox_writable": expected folder or file paths, none of them empty/],
  ])('refuses %s with the key and what was expected', async (line, message) => {
    await t.writeUser(`${line}\n`);
    await expect(load()).rejects.toThrow(message);
  });

  it('an untrusted project may tighten the sandbox but not open it; what it tried is listed', async () => {
    await t.writeUser('sandbox_network = ["registry.npmjs.org"]\nsandbox_writable = ["~/.npm"]\n');
    await t.writeProject(
      'sandbox = "off"\nbash_in_sandbox = "allow"\nsandbox_network = ["evil.example", "registry.npmjs.org"]\nsandbox_writable = ["~/.ssh", "build"]\n',
    );
    const config = await load();
    expect(config.sandbox).toEqual({ mode: 'auto', writable: [join(t.home, '.npm')], network: ['registry.npmjs.org'], bashInSandbox: 'confirm' });
    const warning = config.warnings[0] ?? '';
    expect(warning).toContain('sandbox = "off"');
    expect(warning).toContain('bash_in_sandbox = "allow"');
    expect(warning).toContain('sandbox_network (evil.example)');
    expect(warning).toContain(`sandbox_writable (${join(t.home, '.ssh')})`);
    // A path inside the project is writable anyway: not listed as refused.
    expect(warning).not.toContain(join(t.project, 'build'));
  });

  it('an untrusted project can make it stricter', async () => {
    await t.writeUser('bash_in_sandbox = "allow"\n');
    await t.writeProject('sandbox = "required"\nbash_in_sandbox = "confirm"\n');
    const config = await load();
    expect(config.sandbox.mode).toBe('required');
    expect(config.sandbox.bashInSandbox).toBe('confirm');
    expect(config.warnings).toEqual([]);
  });

  it('a trusted project adds its hosts and paths to yours and may turn it off', async () => {
    await t.writeUser(`trusted_projects = ["${t.project}"]\nsandbox_network = ["registry.npmjs.org"]\n`);
    await t.writeProject('sandbox = "off"\nsandbox_network = ["pypi.org"]\nsandbox_writable = ["/opt/cache"]\n');
    const config = await load();
    expect(config.sandbox.mode).toBe('off');
    expect(config.sandbox.network).toEqual(['registry.npmjs.org', 'pypi.org']);
    expect(config.sandbox.writable).toEqual(['/opt/cache']);
  });
});
