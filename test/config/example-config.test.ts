import { copyFile, readFile } from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load-config.js';
import { KNOWN_KEYS } from '../../src/config/read-layer.js';
import { makeTempEnv, type TempEnv } from './temp-env.js';

const EXAMPLE = new URL('../../examples/lindwyrm.example.toml', import.meta.url);

let t: TempEnv;
beforeEach(async () => {
  t = await makeTempEnv();
});
afterEach(async () => {
  await t.cleanup();
});

describe('examples/lindwyrm.example.toml', () => {
  it('loads as a user config with no warnings: every key in it is known', async () => {
    await copyFile(EXAMPLE, t.userFile);
    const config = await loadConfig({ cwd: t.project, env: t.env });
    expect(config.warnings).toEqual([]);
    expect(config.presets.map((p) => p.name)).toContain('kimi');
  });

  it('loads as a trusted project config too', async () => {
    await t.writeUser(`trusted_projects = ["${t.project}"]\n`);
    await copyFile(EXAMPLE, t.projectFile);
    const config = await loadConfig({ cwd: t.project, env: t.env });
    expect(config.warnings).toEqual([]);
  });

  it('mentions every option the config understands', async () => {
    const text = await readFile(EXAMPLE, 'utf8');
    const all = [...KNOWN_KEYS.top, ...KNOWN_KEYS.preset, ...KNOWN_KEYS.policy, ...KNOWN_KEYS.codeMap, ...KNOWN_KEYS.mcpServer, ...KNOWN_KEYS.hook];
    const missing = all.filter((key) => !['rules', 'code_map', 'presets', 'policy', 'mcp', 'hooks'].includes(key) && !new RegExp(`^#? ?${key} =`, 'm').test(text));
    expect(missing).toEqual([]);
    expect(text).toContain('[[policy.rules]]');
    expect(text).toContain('[code_map]');
    expect(text).toContain('[[mcp.servers]]');
    expect(text).toMatch(/^# \[\[hooks\.PostToolUse\]\]/m);
  });
});
