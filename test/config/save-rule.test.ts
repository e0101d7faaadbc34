/**
 * [s]ave: a grant appended to the user config as a TOML block, read back by the real loader, and
 * in force in the next session; the user's file is otherwise untouched.
 */
import { lstat, readFile, readlink, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load-config.js';
import { appendUserRule, bashRuleBlock, pathRuleBlock } from '../../src/config/save-rule.js';
import { bashTool } from '../../src/tools/bash.js';
import type { CommandRunner } from '../../src/tools/types.js';
import { makeContext } from '../tools/make-context.js';
import { makeTempEnv, type TempEnv } from './temp-env.js';

let t: TempEnv;
beforeEach(async () => {
  t = await makeTempEnv();
});
afterEach(async () => {
  await t.cleanup();
});

const MINE = `# my settings, keep these comments
default_preset = "pro"   # the big one

[policy]
write = "confirm"
bash_allowlist = [ "git status",   "ls" ]

[[policy.rules]]
path = "~/scratch"
write = "allow"
`;

describe('saving a rule in the user config', () => {
  it('appends a block, keeps every byte that was there, and the loader reads the rule back', async () => {
    await t.writeUser(MINE);
    const block = bashRuleBlock([{ words: ['npm', 'test'], match: 'prefix' }, { words: ['rm', '-rf', './tmp'], match: 'exact' }], new Date('2026-12-03T10:00:00Z'));
    await appendUserRule(t.userFile, block, t.project);
    const text = await readFile(t.userFile, 'utf8');
    expect(text.startsWith(MINE)).toBe(true);
    expect(text.slice(MINE.length)).toBe(`\n${block}`);
    expect(block).toBe(
      '# Saved by lindwyrm on 2026-12-03 from an approval.\n[[policy.bash_rules]]\nprefix = ["npm", "test"]\n[[policy.bash_rules]]\nexact = ["rm", "-rf", "./tmp"]\n',
    );
    const config = await loadConfig({ cwd: t.project, env: t.env });
    expect(config.warnings).toEqual([]);
    expect(config.policy.bashRules).toEqual([
      { words: ['npm', 'test'], match: 'prefix' },
      { words: ['rm', '-rf', './tmp'], match: 'exact' },
    ]);
    expect(config.policy.bashAllowlist).toEqual(['git status', 'ls']);
    expect(config.defaultPreset).toBe('pro');

    // The next session: the saved rule covers npm test with plain arguments, per part.
    const ran: string[] = [];
    const commands: CommandRunner = { run: async (o) => (ran.push(o.command), { exitCode: 0, exitSignal: null, timedOut: false, interrupted: false }) };
    const ctx = Object.assign(makeContext(t.project, { config, answer: 'no' }), { commands });
    await bashTool.run({ command: 'npm test -- -u' }, ctx);
    await bashTool.run({ command: 'npm test && rm -rf ./tmp' }, ctx);
    expect(ctx.asked).toHaveLength(0);
    await bashTool.run({ command: 'npm test && rm -rf ./src' }, ctx);
    expect(ctx.asked).toHaveLength(1);
    expect(ran).toEqual(['npm test -- -u', 'npm test && rm -rf ./tmp']);
  });

  it('creates the file when there is none, and a path rule round-trips too', async () => {
    const block = pathRuleBlock(t.project, 'write');
    await appendUserRule(t.userFile, block, t.project);
    expect(await readFile(t.userFile, 'utf8')).toBe(block);
    const config = await loadConfig({ cwd: t.project, env: t.env });
    expect(config.policy.rules).toEqual([{ path: t.project, write: 'allow' }]);
  });

  it('writes through a linked config (a dotfiles repo) and leaves the link a link', async () => {
    const real = join(t.home, 'dotfiles-config.toml');
    await writeFile(real, MINE);
    await symlink(real, t.userFile);
    await appendUserRule(t.userFile, bashRuleBlock([{ words: ['pytest'], match: 'prefix' }]), t.project);
    expect((await lstat(t.userFile)).isSymbolicLink()).toBe(true);
    expect(await readlink(t.userFile)).toBe(real);
    expect(await readFile(real, 'utf8')).toContain('prefix = ["pytest"]');
  });

  it('refuses the project file, a config that does not load, and an inline [policy], writing nothing', async () => {
    await expect(appendUserRule(t.projectFile, bashRuleBlock([{ words: ['ls'], match: 'prefix' }]), t.project)).rejects.toThrow(/project's own \.lindwyrm\.toml/);
    const broken = 'default_preset = \n';
    await t.writeUser(broken);
    await expect(appendUserRule(t.userFile, bashRuleBlock([{ words: ['ls'], match: 'prefix' }]), t.project)).rejects.toThrow(/does not load as it is.*nothing was written/);
    expect(await readFile(t.userFile, 'utf8')).toBe(broken);
    const inline = 'policy = { write = "confirm" }\n';
    await t.writeUser(inline);
    await expect(appendUserRule(t.userFile, bashRuleBlock([{ words: ['ls'], match: 'prefix' }]), t.project)).rejects.toThrow(/inline table.*nothing was written/);
    expect(await readFile(t.userFile, 'utf8')).toBe(inline);
  });

  it('reads rules written by hand, inline or as strings, and names a bad one', async () => {
    await t.writeUser('[policy]\nbash_rules = [{ prefix = "cargo build" }, { exact = ["make", "deploy"] }]\n');
    const config = await loadConfig({ cwd: t.project, env: t.env });
    expect(config.policy.bashRules).toEqual([
      { words: ['cargo', 'build'], match: 'prefix' },
      { words: ['make', 'deploy'], match: 'exact' },
    ]);
    await t.writeUser('[[policy.bash_rules]]\nprefix = ["a"]\nexact = ["b"]\n');
    await expect(loadConfig({ cwd: t.project, env: t.env })).rejects.toThrow(/exactly one of prefix or exact/);
  });

  it("an untrusted project's rules do not apply, and the warning names them", async () => {
    await t.writeProject('[[policy.bash_rules]]\nprefix = ["curl"]\n');
    const config = await loadConfig({ cwd: t.project, env: t.env });
    expect(config.warnings.join('\n')).toMatch(/policy\.bash_rules \(curl\)/);
    const ctx = makeContext(t.project, { config, answer: 'no' });
    await bashTool.run({ command: 'curl https://example.invalid' }, ctx);
    expect(ctx.asked).toHaveLength(1);
  });
});
