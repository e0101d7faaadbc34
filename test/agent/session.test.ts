import { readdir, symlink, writeFile, mkdir, utimes } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeProvider, type FakeProvider } from '../support/fake-provider.js';
import type { LindwyrmEngine } from '../../src/agent/engine.js';
import { makeSandbox, noteTool, readRequest, startEngine, type Sandbox } from './support/harness.js';

let fake: FakeProvider | undefined;
let sandbox: Sandbox | undefined;
let engines: LindwyrmEngine[] = [];

afterEach(async () => {
  for (const e of engines) await e.dispose();
  engines = [];
  await fake?.close();
  await sandbox?.cleanup();
});

async function open(replies: Parameters<typeof startFakeProvider>[0]['replies'], toml = '') {
  fake = await startFakeProvider({ format: 'anthropic', replies });
  sandbox = await makeSandbox('anthropic', fake.baseUrl, toml);
  return { sandbox, fake };
}

async function engineFor(cli = {}): Promise<LindwyrmEngine> {
  const e = await startEngine(sandbox!, [noteTool], cli);
  engines.push(e);
  return e;
}

describe('session assembly', () => {
  it('puts project instructions in the system prompt as reference material, and skips a link out', async () => {
    await open([{ text: 'ok' }]);
    await writeFile(join(sandbox!.project, 'AGENTS.md'), 'Run the tests with: make check\n');
    await writeFile(join(sandbox!.root, 'outside.md'), 'SECRET OUTSIDE\n');
    await symlink(join(sandbox!.root, 'outside.md'), join(sandbox!.project, 'LINDWYRM.md'));
    await writeFile(join(sandbox!.root, 'config', 'lindwyrm', 'AGENTS.md'), 'I like short answers.\n');
    const engine = await engineFor();
    const notices = engine.store.current().blocks.filter((b) => b.kind === 'notice');
    expect(notices.map((b) => b.kind === 'notice' && b.text).join('\n')).toMatch(/LINDWYRM\.md points outside the project/);
    await engine.submit('hi');
    const system = readRequest('anthropic', fake!.requests[0]!).system;
    expect(system).toContain('Run the tests with: make check');
    expect(system).toContain('I like short answers.');
    expect(system).not.toContain('SECRET OUTSIDE');
    expect(system).toContain(engine.runtime.marker);
  });

  it('--no-save leaves nothing on disk', async () => {
    await open([{ toolCalls: [{ name: 'note', input: { text: 'x' } }] }, { text: 'done' }]);
    const engine = await engineFor({ save: false });
    await engine.submit('go');
    await engine.dispose();
    engines = [];
    const data = await readdir(join(sandbox!.root, 'data')).catch(() => []);
    const files = data.length ? await readdir(join(sandbox!.root, 'data'), { recursive: true }) : [];
    expect(files.filter((f) => !String(f).endsWith('offload'))).toEqual([]);
  });

  it('sweeps week-old offloads of unsaved sessions once the first request is out, never a saved session\'s', async () => {
    await open([{ text: 'saved turn' }, { text: 'second run' }]);
    const first = await engineFor();
    await first.submit('keep me');
    const savedId = first.runtime.session.id;
    await first.dispose();
    engines = [];
    const offloadDir = join(sandbox!.root, 'data', 'lindwyrm', 'offload');
    const old = new Date(Date.now() - 8 * 86_400_000);
    for (const id of [savedId, 'orphan-1']) {
      await mkdir(join(offloadDir, id), { recursive: true });
      await writeFile(join(offloadDir, id, 'off_0001.txt'), 'snapshot');
      await utimes(join(offloadDir, id, 'off_0001.txt'), old, old);
      await utimes(join(offloadDir, id), old, old);
    }
    const second = await engineFor();
    // Not before the request: the sweep would stand between the start and it.
    expect(existsSync(join(offloadDir, 'orphan-1'))).toBe(true);
    await second.submit('go on');
    await second.dispose();
    engines = [];
    expect(existsSync(join(offloadDir, 'orphan-1'))).toBe(false);
    expect(existsSync(join(offloadDir, savedId, 'off_0001.txt'))).toBe(true);
  });

  it('--continue with no saved session starts a new one and says so', async () => {
    await open([{ text: 'ok' }]);
    const engine = await engineFor({ continueLast: true });
    const text = engine.store.current().blocks.map((b) => (b.kind === 'notice' ? b.text : '')).join('');
    expect(text).toMatch(/No saved session/);
  });
});

describe('slash commands', () => {
  it('change settings in the store, and /perm adds a rule to the policy in force', async () => {
    await open([]);
    const engine = await engineFor();
    expect((await engine.runSlash('/help')).output).toMatch(/\/compact \[instructions\]/);
    await engine.runSlash('/thinking on');
    expect(engine.store.current().thinking).toBe(true);
    await engine.runSlash('/think high');
    expect(engine.store.current().thinkingEffort).toBe('high');
    expect((await engine.runSlash('/think loud')).output).toMatch(/Usage/);
    const markdown = engine.store.current().markdown;
    await engine.runSlash('/markdown');
    expect(engine.store.current().markdown).toBe(!markdown);
    await mkdir(join(sandbox!.project, 'gen'));
    const perm = await engine.runSlash('/perm gen write=allow delete=confirm');
    expect(perm.output).toMatch(/gen write=allow/);
    const rule = engine.runtime.config.policy.rules.at(-1)!;
    expect(rule).toMatchObject({ path: join(engine.runtime.config.projectRoot, 'gen'), write: 'allow', delete: 'confirm' });
    const policy = (await engine.runSlash('/policy')).output;
    expect(policy).toMatch(/rule .*gen: write=allow delete=confirm/);
    // The default lists a rule would have to override are shown too.
    expect(policy).toMatch(/secret-shaped files \(read=confirm unless a rule names them\): \.env\*, \*\.pem/);
    expect(policy).toMatch(/instruction files \(writes always asked\): agents\.md/);
    expect((await engine.runSlash('/perm gen write=maybe')).output).toMatch(/Not a rule/);
    expect((await engine.runSlash('/exit')).exit).toBe(true);
    expect((await engine.runSlash('/nope')).output).toMatch(/Unknown command/);
  });

  it('/model switches preset (or says why not), /presets lists them, /proxy and /init work', async () => {
    await open([{ text: 'after switch' }]);
    const engine = await engineFor();
    expect((await engine.runSlash('/model nosuch')).output).toMatch(/unknown preset "nosuch"/);
    expect((await engine.runSlash('/model fake:other-model')).output).toMatch(/Switched to fake \(anthropic, other-model\)/);
    expect(engine.store.current().preset.model).toBe('other-model');
    await engine.submit('hello');
    expect((fake!.requests[0]!.body as { model: string }).model).toBe('other-model');
    expect((await engine.runSlash('/presets')).output).toMatch(/\* fake/);
    expect((await engine.runSlash('/proxy')).output).toMatch(/direct \(no proxy\)/);
    expect((await engine.runSlash('/init')).output).toMatch(/Wrote .*AGENTS\.md/);
    expect(existsSync(join(sandbox!.project, 'AGENTS.md'))).toBe(true);
    expect((await engine.runSlash('/init')).output).not.toMatch(/Wrote/);
  });

  it('/context shows the meter; /sessions lists saved sessions; /clear starts a new one', async () => {
    await open([{ text: 'first answer', usage: { input: 50, output: 5 } }]);
    const engine = await engineFor();
    await engine.submit('the first prompt');
    expect((await engine.runSlash('/context')).output).toMatch(/compaction at \d+%/);
    const listed = await engine.runSlash('/sessions');
    expect(listed.panel).toBe('sessions');
    expect(listed.sessions?.map((s) => s.id)).toEqual([engine.runtime.session.id]);
    const oldId = engine.runtime.session.id;
    await engine.runSlash('/clear');
    expect(engine.runtime.session.id).not.toBe(oldId);
    expect(engine.runtime.session.history).toEqual([]);
    expect(engine.store.current().blocks).toEqual([]);
    const back = await engine.runSlash(`/sessions resume ${oldId.slice(0, 6)}`);
    expect(back.output).toMatch(/Resumed/);
    expect(engine.runtime.session.history).toHaveLength(2);
    // The resumed conversation is shown again, not an empty screen.
    expect(engine.store.current().blocks.map((b) => b.kind)).toEqual(['user', 'assistant']);
    expect(engine.store.current().blocks[0]).toMatchObject({ text: 'the first prompt' });
  });
});
