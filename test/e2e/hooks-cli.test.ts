/**
 * Hooks and the trust gate through the built CLI (`node dist/cli.js -p …`): a cloned project's
 * hooks must not run before, or without, the user's trust; the user's own hooks do.
 */
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startFakeProvider, type FakeProvider, type ScriptedReply } from '../support/fake-provider.js';
import type { Sandbox } from '../support/sandbox.js';
import { readRequest } from '../agent/support/harness.js';
import { makeEnv, start, useBuild } from './support/cli.js';

vi.setConfig({ testTimeout: 60_000 });

const cli = useBuild();

let fake: FakeProvider | undefined;
let env: Sandbox | undefined;

afterEach(async () => {
  await fake?.close();
  await env?.cleanup();
  fake = undefined;
  env = undefined;
});

async function setup(replies: ScriptedReply[]): Promise<Sandbox> {
  fake = await startFakeProvider({ format: 'anthropic', replies });
  env = await makeEnv('anthropic', fake.baseUrl);
  return env;
}

const EVENTS = ['SessionStart', 'UserPromptSubmit', 'PreToolUse', 'PostToolUse', 'Stop', 'PreCompact'];
const projectHooks = EVENTS.map((event) => `[[hooks.${event}]]\ncommand = "touch ran-${event}"\n`).join('\n');

describe('lwyrm -p with hooks', () => {
  it("an untrusted project's hooks never run; the startup warning names them", async () => {
    const e = await setup([{ toolCalls: [{ name: 'bash', input: { command: 'echo hello' } }] }, { text: 'Said hello.' }]);
    await writeFile(join(e.project, '.lindwyrm.toml'), projectHooks);
    const r = await start(cli(), e, ['-p', 'say hello', '--allow', 'bash']).done;
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('Said hello.');
    expect(EVENTS.filter((event) => existsSync(join(e.project, `ran-${event}`)))).toEqual([]);
    expect(r.stderr).toContain('hooks (SessionStart: touch ran-SessionStart, UserPromptSubmit: touch ran-UserPromptSubmit');
    expect(r.stderr).toContain('not in trusted_projects');
  });

  it('once the user trusts the project, the same hooks run', async () => {
    const e = await setup([{ toolCalls: [{ name: 'bash', input: { command: 'echo hello' } }] }, { text: 'Said hello.' }]);
    await writeFile(join(e.project, '.lindwyrm.toml'), projectHooks);
    const user = join(e.env['XDG_CONFIG_HOME']!, 'lindwyrm', 'config.toml');
    await writeFile(user, `trusted_projects = [${JSON.stringify(e.project)}]\n${await readFile(user, 'utf8')}`);
    const r = await start(cli(), e, ['-p', 'say hello', '--allow', 'bash']).done;
    expect(r.status).toBe(0);
    expect(EVENTS.filter((event) => existsSync(join(e.project, `ran-${event}`)))).toEqual(EVENTS.filter((event) => event !== 'PreCompact'));
  });

  it("the user's PreToolUse hook refuses a command; the answer still comes, and the run counts it as denied (exit 3)", async () => {
    const e = await setup([{ toolCalls: [{ name: 'bash', input: { command: 'rm -rf build' } }] }, { text: 'I will not delete it.' }]);
    const user = join(e.env['XDG_CONFIG_HOME']!, 'lindwyrm', 'config.toml');
    const hook = `[[hooks.PreToolUse]]\nmatcher = "Bash"\ncommand = ${JSON.stringify(`grep -q 'rm -rf' && { echo 'no rm -rf, please' >&2; exit 2; }; exit 0`)}\n`;
    await writeFile(user, `${await readFile(user, 'utf8')}\n${hook}`);
    const r = await start(cli(), e, ['-p', 'clean up', '--allow', 'bash']).done;
    expect(r.status).toBe(3);
    expect(r.stderr).toContain('denied: blocked by a PreToolUse hook');
    expect(r.stdout).toContain('I will not delete it.');
    const results = readRequest('anthropic', fake!.requests[1]!).messages.flatMap((m) => m.toolResults.map((t) => t.content));
    expect(results.join('')).toMatch(/a PreToolUse hook refused this call: [^]*no rm -rf, please/);
  });
});

describe('lwyrm -p with a custom command', () => {
  it('"/NAME args" sends the command file\'s prompt with the arguments substituted', async () => {
    const e = await setup([{ text: 'Released.' }]);
    const commands = join(e.env['XDG_CONFIG_HOME']!, 'lindwyrm', 'commands');
    await mkdir(commands, { recursive: true });
    await writeFile(join(commands, 'release.md'), '---\ndescription: Cut a release\n---\nRelease $1, then tag it v$1.\n');
    const r = await start(cli(), e, ['-p', '/release 2.1']).done;
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('Released.');
    expect(readRequest('anthropic', fake!.requests[0]!).messages[0]!.text).toBe('Release 2.1, then tag it v2.1.');
  });
});
