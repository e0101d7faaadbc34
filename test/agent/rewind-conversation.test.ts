/**
 * A conversation rewind through a real session and the real tools, against the fake provider over
 * HTTP: the history goes back to before the chosen prompt, the prompt comes back for the input,
 * the next request starts with exactly the messages (and system prompt) the provider saw before
 * it, and the checkpoints are still there after a resume.
 */
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { LindwyrmEngine } from '../../src/agent/engine.js';
import { createToolRegistry } from '../../src/tools/registry.js';
import { startFakeProvider, type FakeFormat, type FakeProvider, type ScriptedReply } from '../support/fake-provider.js';
import { makeSandbox, startEngine, type Sandbox } from './support/harness.js';

vi.setConfig({ testTimeout: 60_000 });

type Json = Record<string, unknown>;

/** The conversation part of a request body, cache markers aside (they move with the tail by design). */
function conversation(format: FakeFormat, body: unknown): { system: unknown; messages: unknown[] } {
  const strip = (value: unknown): unknown =>
    JSON.parse(JSON.stringify(value), (key: string, v: unknown) => (key === 'cache_control' ? undefined : v));
  const b = body as Json;
  if (format === 'anthropic') return { system: strip(b['system']), messages: strip(b['messages']) as unknown[] };
  const all = strip(b['messages']) as Json[];
  return { system: all.filter((m) => m['role'] === 'system'), messages: all.filter((m) => m['role'] !== 'system') };
}

describe.each<FakeFormat>(['anthropic', 'openai'])('conversation rewind over %s', (format) => {
  let fake: FakeProvider | undefined;
  let sandbox: Sandbox | undefined;
  let engine: LindwyrmEngine | undefined;

  afterEach(async () => {
    await engine?.dispose();
    await fake?.close();
    await sandbox?.cleanup();
    engine = fake = sandbox = undefined;
  });

  const replies: ScriptedReply[] = [
    { text: 'One.' },
    { toolCalls: [{ name: 'bash', input: { command: 'echo made > made.txt' } }] },
    { text: 'Two.' },
    { text: 'Three.' },
    { text: 'Again.' },
    { text: 'After resume.' },
  ];

  async function open(over: { continueLast?: boolean } = {}): Promise<LindwyrmEngine> {
    engine = await startEngine(sandbox!, [], { allow: ['bash', 'write'], ...over }, { createTools: (opts) => createToolRegistry(opts) });
    return engine;
  }

  it('goes back to before a prompt: files and history, and the next request repeats the old prefix exactly', async () => {
    fake = await startFakeProvider({ format, replies });
    sandbox = await makeSandbox(format, fake.baseUrl);
    const eng = await open();
    expect((await eng.submit('first')).status).toBe('finished');
    expect((await eng.submit('second')).status).toBe('finished');
    expect(existsSync(join(sandbox.project, 'made.txt'))).toBe(true);
    expect((await eng.submit('third')).status).toBe('finished');
    const secondStarted = conversation(format, fake.requests[1]!.body);

    const list = await eng.runSlash('/rewind');
    expect(list.rewind?.kind).toBe('list');
    const context = await eng.runSlash('/context');
    expect(context.output).toMatch(/rewind: 3 checkpoint\(s\), 1 with file changes · store [\d.]+ MB of 500\.0 MB/);
    expect(context.output).toMatch(/rewind tracks \d+ paths of the project/);
    const preview = await eng.runSlash('/rewind 2 both');
    expect(preview.output).toMatch(/delete\s+made\.txt/);
    expect(preview.output).toMatch(/conversation: back to before that prompt/);
    expect(existsSync(join(sandbox.project, 'made.txt'))).toBe(true);

    const done = await eng.runSlash('/rewind 2 both confirm');
    expect(done.error).toBeUndefined();
    expect(done.input).toBe('second');
    expect(existsSync(join(sandbox.project, 'made.txt'))).toBe(false);
    expect(eng.getSnapshot().blocks.filter((b) => b.kind === 'user').map((b) => (b.kind === 'user' ? b.text : ''))).toEqual(['first']);

    expect((await eng.submit('second, differently')).status).toBe('finished');
    const again = conversation(format, fake.requests.at(-1)!.body);
    expect(again.system).toEqual(secondStarted.system);
    // Everything before the prompt is byte for byte what was sent before it the first time.
    expect(JSON.stringify(again.messages.slice(0, -1))).toBe(JSON.stringify(secondStarted.messages.slice(0, -1)));
    expect(JSON.stringify(again.messages.at(-1))).toMatch(/second, differently/);
  });

  it('after a summary rewrote the history, going back restores the history as it was sent', async () => {
    fake = await startFakeProvider({
      format,
      replies: [{ text: 'One.' }, { text: 'Two.' }, { text: 'Three.' }, { text: 'SUMMARY of the talk so far.' }, { text: 'Again.' }],
    });
    sandbox = await makeSandbox(format, fake.baseUrl, 'protected_tokens = 0\n');
    const eng = await open();
    await eng.submit('first');
    await eng.submit('second');
    await eng.submit('third');
    const thirdStarted = conversation(format, fake.requests[2]!.body);
    const compacted = await eng.runSlash('/compact');
    expect(compacted.output).toMatch(/Summarized/);
    expect(JSON.stringify(eng.runtime.session.history)).toMatch(/SUMMARY of the talk/);
    const done = await eng.runSlash('/rewind 3 conversation confirm');
    expect(done.input).toBe('third');
    await eng.submit('third, again');
    const again = conversation(format, fake.requests.at(-1)!.body);
    expect(JSON.stringify(again.messages)).not.toMatch(/SUMMARY/);
    expect(again.system).toEqual(thirdStarted.system);
    expect(JSON.stringify(again.messages.slice(0, -1))).toBe(JSON.stringify(thirdStarted.messages.slice(0, -1)));
  });

  it('a command run between turns through aroundCommand (a !command, a hook) gets a checkpoint of its own', async () => {
    fake = await startFakeProvider({ format, replies });
    sandbox = await makeSandbox(format, fake.baseUrl);
    const eng = await open();
    await eng.submit('first');
    const file = join(sandbox.project, 'by-hook.txt');
    await eng.aroundCommand('!touch by-hook.txt', () => writeFile(file, 'made by a hook\n'));
    const listed = await eng.runSlash('/rewind');
    const newest = listed.rewind?.kind === 'list' ? listed.rewind.checkpoints[0] : undefined;
    expect(newest).toMatchObject({ id: 2, prompt: '!touch by-hook.txt', files: 1, hasConversation: false });
    const done = await eng.runSlash('/rewind 2 code confirm');
    expect(done.output).toMatch(/deleted\s+by-hook\.txt/);
    expect(existsSync(file)).toBe(false);
    // It has no conversation to go back to: asking for one says so.
    expect((await eng.runSlash('/rewind 2 conversation')).output).toMatch(/conversation: not kept for this checkpoint/);
  });

  it('overwrite=PATH,… overwrites only the files named among those changed outside lindwyrm; the rest are kept', async () => {
    fake = await startFakeProvider({ format, replies });
    sandbox = await makeSandbox(format, fake.baseUrl);
    const eng = await open();
    const a = join(sandbox.project, 'a b.txt');
    const b = join(sandbox.project, 'b,c.txt');
    await writeFile(a, 'a0\n');
    await writeFile(b, 'b0\n');
    await eng.aroundCommand('!change both', async () => {
      await writeFile(a, 'a1\n');
      await writeFile(b, 'b1\n');
    });
    await writeFile(a, 'a by hand\n');
    await writeFile(b, 'b by hand\n');
    expect((await eng.runSlash('/rewind 1 code confirm overwrite=%E0%A4%A')).output).toMatch(/^Usage: \/rewind/);
    const done = await eng.runSlash(`/rewind 1 code confirm overwrite=${encodeURIComponent('b,c.txt')}`);
    expect(done.output).toMatch(/kept\s+a b\.txt: changed outside lindwyrm since/);
    expect(await readFile(a, 'utf8')).toBe('a by hand\n');
    expect(await readFile(b, 'utf8')).toBe('b0\n');
  });

  it('the checkpoints survive a resume, and the rewind itself can be undone', async () => {
    fake = await startFakeProvider({ format, replies });
    sandbox = await makeSandbox(format, fake.baseUrl);
    let eng = await open();
    await eng.submit('first');
    await eng.submit('second');
    await eng.dispose();
    eng = await open({ continueLast: true });
    const listed = await eng.runSlash('/rewind');
    expect(listed.rewind?.kind === 'list' && listed.rewind.checkpoints.map((c) => c.id)).toEqual([2, 1]);
    const undo = await eng.runSlash('/rewind 2 code confirm');
    expect(undo.output).toMatch(/deleted\s+made\.txt/);
    expect(existsSync(join(sandbox.project, 'made.txt'))).toBe(false);
    const redo = await eng.runSlash('/rewind 3 code confirm');
    expect(redo.output).toMatch(/recreated made\.txt/);
    expect(existsSync(join(sandbox.project, 'made.txt'))).toBe(true);
  });
});
