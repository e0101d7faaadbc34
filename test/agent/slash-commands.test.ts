/**
 * Slash commands through the real engine: they do what their help says (/markdown on|off,
 * /proxy URL|off), each operation swaps the runtime whole and publishes it, and commands
 * registered at runtime are listed where the view reads them.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { LindwyrmEngine } from '../../src/agent/engine.js';
import type { SlashCommand } from '../../src/slash/types.js';
import { createToolRegistry } from '../../src/tools/registry.js';
import { startConnectProxy, type TestProxy } from '../support/connect-proxy.js';
import { startFakeProvider, type FakeProvider } from '../support/fake-provider.js';
import { makeSandbox, noteTool, startEngine, type Sandbox } from './support/harness.js';

let fake: FakeProvider | undefined;
let sandbox: Sandbox | undefined;
let proxy: TestProxy | undefined;
let engine: LindwyrmEngine | undefined;

afterEach(async () => {
  await engine?.dispose();
  await fake?.close();
  await proxy?.close();
  await sandbox?.cleanup();
  engine = fake = proxy = sandbox = undefined;
});

async function open(opts: { baseUrl?: (real: string) => string; presetToml?: string; slashCommands?: readonly SlashCommand[] } = {}): Promise<LindwyrmEngine> {
  fake = await startFakeProvider({ format: 'anthropic', replies: [{ text: 'one' }, { text: 'two' }, { text: 'three' }] });
  sandbox = await makeSandbox('anthropic', opts.baseUrl ? opts.baseUrl(fake.baseUrl) : fake.baseUrl, '', opts.presetToml ?? '');
  engine = await startEngine(sandbox, [noteTool], {}, opts.slashCommands ? { slashCommands: opts.slashCommands } : {});
  return engine;
}

describe('/markdown and /thinking', () => {
  it('/markdown on and off set it (not toggle it); a bare /markdown toggles; anything else is an error', async () => {
    const e = await open();
    expect(e.getSnapshot().markdown).toBe(true);
    expect((await e.runSlash('/markdown on')).output).toBe('Markdown on.');
    expect(e.getSnapshot().markdown).toBe(true);
    await e.runSlash('/markdown off');
    await e.runSlash('/markdown off');
    expect(e.getSnapshot().markdown).toBe(false);
    expect(e.runtime.markdown).toBe(false);
    await e.runSlash('/markdown');
    expect(e.getSnapshot().markdown).toBe(true);
    const bad = await e.runSlash('/markdown loud');
    expect(bad).toMatchObject({ error: true, output: 'Usage: /markdown [on|off]' });
    expect(e.getSnapshot().markdown).toBe(true);
  });
});

describe('/proxy', () => {
  // A name that does not resolve: only a proxy (which tunnels to 127.0.0.1) can reach the fake provider.
  const unresolvable = (real: string) => real.replace('127.0.0.1', 'fake-provider.invalid');

  it('/proxy URL sends the next requests through it, /proxy off goes direct again, and /proxy says which', async () => {
    const e = await open({ baseUrl: unresolvable });
    proxy = await startConnectProxy();
    expect((await e.submit('before')).status).toBe('error');

    const set = await e.runSlash(`/proxy ${proxy.url}`);
    expect(set.error).toBeUndefined();
    expect(set.output).toContain(proxy.url);
    expect((await e.runSlash('/proxy')).output).toMatch(/\(\/proxy\)/);
    const through = await e.submit('through the proxy');
    expect(through.status).toBe('finished');
    expect(proxy.targets).toEqual([`fake-provider.invalid:${new URL(fake!.baseUrl).port}`]);

    await e.runSlash('/proxy off');
    expect((await e.runSlash('/proxy')).output).toMatch(/direct \(no proxy\) \(\/proxy\)/);
    expect((await e.submit('direct again')).status).toBe('error');
    expect(proxy.targets).toHaveLength(1);
  });

  it('/proxy off wins over a preset proxy; a URL that is not a proxy URL is an error and changes nothing', async () => {
    proxy = await startConnectProxy();
    const url = proxy.url;
    const e = await open({ baseUrl: unresolvable, presetToml: `proxy = "${url}"` });
    expect((await e.submit('via the preset proxy')).status).toBe('finished');
    const bad = await e.runSlash('/proxy ftp://nowhere:21');
    expect(bad.error).toBe(true);
    expect(bad.output).toMatch(/ftp:/);
    expect((await e.submit('still via the preset proxy')).status).toBe('finished');
    await e.runSlash('/proxy off');
    expect((await e.submit('direct')).status).toBe('error');
    // One tunnel, kept alive for both requests that went through it.
    expect(proxy.targets).toEqual([`fake-provider.invalid:${new URL(fake!.baseUrl).port}`]);
  });
});

describe('/model', () => {
  it('swaps client, tools, schemas, prompt and context manager together, and publishes the preset', async () => {
    fake = await startFakeProvider({ format: 'anthropic', replies: [{ text: 'one' }, { text: 'two' }] });
    const seeing = `[[presets]]\nname = "seeing"\nformat = "anthropic"\nbase_url = "${fake.baseUrl}"\nmodel = "fake-vision"\napi_key_env = ["FAKE_API_KEY"]\nvision = true\ncontext_window = 50000\n`;
    sandbox = await makeSandbox('anthropic', fake.baseUrl, '', `\n${seeing}`);
    engine = await startEngine(sandbox, [], {}, { createTools: (opts) => createToolRegistry(opts) });
    await engine.submit('blind');
    const before = engine.runtime;
    expect(before.toolSchemas.map((t) => t.name)).not.toContain('view_image');
    expect((await engine.runSlash('/model seeing')).error).toBeUndefined();
    const after = engine.runtime;
    expect(after.toolSchemas.map((t) => t.name)).toContain('view_image');
    expect(after.client).not.toBe(before.client);
    expect(after.context).not.toBe(before.context);
    expect(after.session).toBe(before.session);
    expect(engine.getSnapshot()).toMatchObject({ preset: { name: 'seeing', model: 'fake-vision' }, context: { window: 50_000 } });
    await engine.submit('seeing');
    const sent = fake.requests[1]!.body as { model: string; tools: { name: string }[] };
    expect(sent.model).toBe('fake-vision');
    expect(sent.tools.map((t) => t.name)).toContain('view_image');
  });
});

describe('the registry', () => {
  const review: SlashCommand = {
    name: '/review',
    args: '[file]',
    help: 'ask for a review of a file',
    source: 'custom',
    run: ({ rest }) => ({ kind: 'prompt', text: `Review ${rest || 'the last change'} for bugs.` }),
  };

  it('lists commands given at the start and registered later where the view reads them, and runs them', async () => {
    const e = await open({ slashCommands: [review] });
    expect(e.getSnapshot().commands?.map((c) => c.name)).toContain('/review');
    expect(await e.runSlash('/review src/a.ts')).toMatchObject({ kind: 'prompt', prompt: 'Review src/a.ts for bugs.' });

    const unregister = e.slash.register({ name: '/docs:search', args: '<query>', help: 'a server prompt', run: () => ({ kind: 'text', text: 'found' }) });
    e.store.flush();
    expect(e.getSnapshot().commands?.find((c) => c.name === '/docs:search')).toMatchObject({ args: '<query>', help: 'a server prompt' });
    expect((await e.runSlash('/help')).output).toContain('/docs:search <query>');
    unregister();
    e.store.flush();
    expect(e.getSnapshot().commands?.some((c) => c.name === '/docs:search')).toBe(false);
    expect(await e.runSlash('/docs:search x')).toMatchObject({ error: true });
  });

  it('refuses a name already taken, and one that is not a command name', async () => {
    const e = await open();
    expect(() => e.slash.register({ name: '/model', help: 'mine', run: () => ({ kind: 'exit' }) })).toThrow(/already registered/);
    expect(() => e.slash.register({ name: 'model', help: 'x', run: () => ({ kind: 'exit' }) })).toThrow(/Not a slash command name/);
  });

  it('keeps the publish order: the header changes with the command, the conversation with /clear', async () => {
    const e = await open();
    await e.submit('hello');
    const before = e.runtime;
    await e.runSlash('/thinking on');
    // A new runtime, not an edited one: whoever holds the old one sees it as it was.
    expect(e.runtime).not.toBe(before);
    expect(before.thinking).toBe(false);
    expect(e.getSnapshot().thinking).toBe(true);
    const old = e.runtime;
    await e.runSlash('/clear');
    expect(e.runtime.session.id).not.toBe(old.session.id);
    expect(e.runtime.offload).not.toBe(old.offload);
    expect(e.runtime.context).not.toBe(old.context);
    expect(e.getSnapshot().sessionId).toBe(e.runtime.session.id);
    expect(e.getSnapshot().blocks).toEqual([]);
  });
});

describe('/init', () => {
  it('writes AGENTS.md with the project\'s own commands, never over one, and nothing in a read-only session', async () => {
    fake = await startFakeProvider({ format: 'anthropic', replies: [] });
    sandbox = await makeSandbox('anthropic', fake.baseUrl);
    await writeFile(join(sandbox.project, 'package.json'), JSON.stringify({ scripts: { build: 'tsup', test: 'vitest run' } }));
    const path = join(sandbox.project, 'AGENTS.md');
    const readOnly = await startEngine(sandbox, [noteTool], { readOnly: true });
    const refused = await readOnly.runSlash('/init');
    await readOnly.dispose();
    expect(refused).toMatchObject({ error: true, output: expect.stringMatching(/read-only/) });
    await expect(readFile(path, 'utf8')).rejects.toThrow();

    engine = await startEngine(sandbox, [noteTool]);
    const wrote = await engine.runSlash('/init');
    expect(wrote.output).toBe(`Wrote ${path} (2 commands from the project's files; check them). Fill in your conventions; keep it short.`);
    const text = await readFile(path, 'utf8');
    expect(text).toMatch(/npm run build +# build \(package\.json scripts\.build: tsup\)/);
    expect(text).toMatch(/npm test +# run the tests \(package\.json scripts\.test: vitest run\)/);
    await writeFile(path, 'mine\n');
    expect(await engine.runSlash('/init')).toMatchObject({ error: true, output: expect.stringMatching(/already exists; not overwriting/) });
    expect(await readFile(path, 'utf8')).toBe('mine\n');
  });
});
