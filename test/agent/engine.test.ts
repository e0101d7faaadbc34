import { afterEach, describe, expect, it } from 'vitest';
import { startFakeProvider, type FakeFormat, type FakeProvider, type ScriptedReply } from '../support/fake-provider.js';
import type { LindwyrmEngine } from '../../src/agent/engine.js';
import { anthropicEvents, openaiEvents } from '../support/fake-provider-events.js';
import {
  approvalTool,
  assertValidHistory,
  makeSandbox,
  noteTool,
  readRequest,
  startEngine,
  waitTool,
  type Sandbox,
} from './support/harness.js';

const formats: FakeFormat[] = ['anthropic', 'openai'];

describe.each(formats)('engine over %s', (format) => {
  let fake: FakeProvider | undefined;
  let sandbox: Sandbox | undefined;
  let engine: LindwyrmEngine | undefined;

  afterEach(async () => {
    await engine?.dispose();
    await fake?.close();
    await sandbox?.cleanup();
    engine = undefined;
    fake = undefined;
    sandbox = undefined;
  });

  async function setup(replies: ScriptedReply[] | ((req: never, i: number) => ScriptedReply), toml = '', cli = {}) {
    fake = await startFakeProvider({ format, replies: replies as ScriptedReply[] });
    sandbox = await makeSandbox(format, fake.baseUrl, toml);
    engine = await startEngine(sandbox, [noteTool, waitTool, approvalTool], cli);
    return { fake, engine };
  }

  const turnOf = (i: number) => readRequest(format, fake!.requests[i]!);
  // OpenAI-format tool messages carry no error flag, so the client prefixes failed results.
  const resultsOf = (i: number) => turnOf(i).messages.flatMap((m) => m.toolResults.map((r) => r.content.replace(/^Error: /, '')));

  it('runs several tool calls of one reply in order, each with its result', async () => {
    const { engine } = await setup([
      { text: 'Two notes.', toolCalls: [{ name: 'note', input: { text: 'a' } }, { name: 'note', input: { text: 'b' } }] },
      { text: 'All noted.' },
    ]);
    const outcome = await engine.submit('take notes');
    expect(outcome).toMatchObject({ status: 'finished', result: 'All noted.', steps: 1 });
    const second = turnOf(1);
    assertValidHistory(second);
    const results = second.messages.flatMap((m) => m.toolResults.map((r) => r.content));
    expect(results).toEqual(['noted: a', 'noted: b']);
    const tools = engine.store.current().blocks.filter((b) => b.kind === 'tool');
    expect(tools.map((b) => b.kind === 'tool' && b.status)).toEqual(['ok', 'ok']);
  });

  it('answers a call with broken arguments or an unknown tool with an error result', async () => {
    const { engine } = await setup([
      { toolCalls: [{ name: 'no_such_tool', input: {} }, { name: 'note', input: { text: 'x' } }] },
      { text: 'ok' },
    ]);
    const outcome = await engine.submit('go');
    expect(outcome.status).toBe('finished');
    const results = resultsOf(1);
    expect(results[0]).toMatch(/Unknown tool no_such_tool/);
    expect(results[1]).toBe('noted: x');
  });

  it('stops at max_tool_steps and "continue" resumes with the history intact', async () => {
    let n = 0;
    const { engine, fake } = await setup(
      (_req, i) => (i < 3 ? { toolCalls: [{ name: 'note', input: { text: `step ${++n}` } }] } : { text: 'Finished the job.' }),
      'max_tool_steps = 2',
    );
    const first = await engine.submit('long job');
    expect(first.status).toBe('incomplete');
    expect(first.detail).toMatch(/Stopped after 2 tool steps.*continue/);
    expect(fake.requests).toHaveLength(3);
    const second = await engine.submit('continue');
    expect(second).toMatchObject({ status: 'finished', result: 'Finished the job.' });
    const req = turnOf(3);
    assertValidHistory(req);
    expect(req.messages[0]!.text).toBe('long job');
    const results = resultsOf(3);
    expect(results.slice(0, 2)).toEqual(['noted: step 1', 'noted: step 2']);
    expect(results[2]).toMatch(/^Not run: this turn reached max_tool_steps \(2\)/);
    expect(req.messages.at(-1)!.text).toBe('continue');
  });

  it('detects a loop, warns the model, then stops the turn as incomplete', async () => {
    const { engine, fake } = await setup(() => ({ toolCalls: [{ name: 'note', input: { text: 'same' } }] }));
    const outcome = await engine.submit('loop please');
    expect(outcome.status).toBe('incomplete');
    expect(outcome.detail).toMatch(/repeating/);
    expect(fake.requests).toHaveLength(4);
    const results = resultsOf(3);
    expect(results.slice(0, 2)).toEqual(['noted: same', 'noted: same']);
    expect(results[2]).toMatch(/Loop detected/);
  });

  it('interrupts a running tool; cut-short calls get results and the next turn carries on', async () => {
    const { engine, fake } = await setup([
      { toolCalls: [{ name: 'wait_for_abort', input: {} }, { name: 'note', input: { text: 'later' } }] },
      { text: 'Carrying on.' },
    ]);
    const off = engine.store.onEvent((e) => {
      // The tool reports output once it runs: interrupt exactly then.
      if (e.type === 'tool.output') engine.interrupt();
    });
    const first = await engine.submit('start');
    off();
    expect(first.status).toBe('interrupted');
    const second = await engine.submit('next');
    expect(second).toMatchObject({ status: 'finished', result: 'Carrying on.' });
    expect(fake.requests).toHaveLength(2);
    const req = turnOf(1);
    assertValidHistory(req);
    const results = resultsOf(1);
    expect(results[0]).toMatch(/^Interrupted/);
    expect(results[1]).toMatch(/^Not run/);
    expect(req.messages.at(-1)!.text).toBe('next');
  });

  it('interrupts while the model streams; the partial reply is kept and history stays valid', async () => {
    const { engine, fake } = await setup([
      { text: 'word '.repeat(400), chunkDelayMs: 5 },
      { text: 'Second answer.' },
    ]);
    const off = engine.store.onEvent((e) => {
      if (e.type === 'assistant.delta') engine.interrupt();
    });
    const first = await engine.submit('talk');
    off();
    expect(first.status).toBe('interrupted');
    const second = await engine.submit('again');
    expect(second.status).toBe('finished');
    const req = turnOf(1);
    assertValidHistory(req);
    expect(req.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    const partial = req.messages[1]!.text;
    expect(partial.length).toBeGreaterThan(0);
    expect('word '.repeat(400).startsWith(partial)).toBe(true);
    expect(partial.length).toBeLessThan(2000);
    expect(fake.requests).toHaveLength(2);
  });

  it('sends a byte-identical system prompt and tool list on every request of a session', async () => {
    const { engine, fake } = await setup([
      { toolCalls: [{ name: 'note', input: { text: '1' } }] },
      { toolCalls: [{ name: 'note', input: { text: '2' } }] },
      { text: 'done' },
      { text: 'second turn' },
    ]);
    await engine.submit('one');
    await engine.runSlash('/thinking on');
    await engine.submit('two');
    expect(fake.requests).toHaveLength(4);
    const first = turnOf(0);
    expect(first.system.length).toBeGreaterThan(100);
    for (let i = 1; i < 4; i++) {
      expect(turnOf(i).system).toBe(first.system);
      expect(turnOf(i).tools).toBe(first.tools);
    }
    // And as raw bytes: the part of the body holding the system prompt is the same string.
    const raw0 = fake.requests[0]!.raw;
    const sys = JSON.stringify((fake.requests[0]!.body as Record<string, unknown>)[format === 'anthropic' ? 'system' : 'messages'] as unknown);
    expect(raw0.length).toBeGreaterThan(0);
    expect(sys.length).toBeGreaterThan(0);
  });

  it('reports a reply cut off at max_tokens as incomplete', async () => {
    const { engine } = await setup([{ text: 'half an ans', stop: 'max_tokens' }]);
    const outcome = await engine.submit('write an essay');
    expect(outcome).toMatchObject({ status: 'incomplete', result: 'half an ans' });
    expect(outcome.detail).toMatch(/max_tokens/);
  });

  it('turns a provider error into an error outcome with a plain message, and stays usable', async () => {
    const { engine } = await setup([
      { fault: { kind: 'status', status: 400, body: { error: { type: 'invalid_request_error', message: 'bad thing' } } } },
      { text: 'fine now' },
    ]);
    const outcome = await engine.submit('hello');
    expect(outcome.status).toBe('error');
    expect(outcome.detail).toMatch(/bad thing|400/);
    const state = engine.store.current();
    expect(state.busy).toBe(false);
    expect(state.blocks.at(-1)).toMatchObject({ kind: 'turn_end', status: 'error' });
    const next = await engine.submit('again');
    expect(next.status).toBe('finished');
    assertValidHistory(turnOf(1));
  });

  it('keeps the text that streamed before a provider error, drops the half tool call and thinking, counts the usage', async () => {
    const reply: ScriptedReply = {
      thinking: 'pondering the question',
      text: 'The answer is forty two, I think.',
      toolCalls: [{ name: 'note', input: { text: 'a note long enough to arrive in several pieces' } }],
      usage: { input: 1234, output: 50, cacheRead: 0, cacheWrite: 0 },
    };
    // Reset the connection in the middle of the tool call's arguments.
    const events = format === 'anthropic' ? anthropicEvents(reply, 'fake-model') : openaiEvents(reply, 'fake-model', 'reasoning_content', true);
    const toolStart = events.findIndex((e) => e.data.includes('"note"'));
    expect(toolStart).toBeGreaterThan(0);
    const { engine, fake } = await setup([{ ...reply, fault: { kind: 'reset', afterEvents: toolStart + 3 } }, { text: 'Recovered.' }]);
    let shown = '';
    const off = engine.store.onEvent((e) => {
      if (e.type === 'assistant.delta') shown += e.text;
    });
    const first = await engine.submit('what is the answer?');
    off();
    expect(first.status).toBe('error');
    expect(shown.length).toBeGreaterThan(0);
    expect(first.result).toBe(shown);
    // Anthropic reports the input tokens at the start of the stream; OpenAI only at its end.
    if (format === 'anthropic') {
      expect(engine.store.current().sessionUsage.input).toBe(1234);
      expect(first.usage?.input).toBe(1234);
    }

    expect((await engine.submit('go on')).status).toBe('finished');
    expect(fake.requests).toHaveLength(2);
    const req = turnOf(1);
    assertValidHistory(req);
    expect(req.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(req.messages[1]).toMatchObject({ text: shown, toolUses: [] });
    const sent = JSON.stringify((fake.requests[1]!.body as { messages: unknown }).messages);
    expect(sent).not.toContain('pondering');
    expect(sent).not.toContain('"note"');
  });

  it('an error before any text leaves no assistant message behind', async () => {
    const { engine, fake } = await setup([{ text: 'never seen', fault: { kind: 'reset', afterEvents: 1 } }, { text: 'fine' }]);
    expect((await engine.submit('hello')).status).toBe('error');
    expect((await engine.submit('again')).status).toBe('finished');
    expect(turnOf(fake.requests.length - 1).messages.map((m) => m.role)).toEqual(['user']);
  });

  it('is idle the moment it says a turn ended: a prompt sent then is taken, not refused', async () => {
    const { engine } = await setup([{ text: 'first done' }, { text: 'second done' }]);
    let next: Promise<{ status: string; detail?: string }> | undefined;
    let busyThen: boolean[] = [];
    const off = engine.store.onEvent((event) => {
      if (event.type !== 'turn.end' || next) return;
      busyThen = [engine.busy(), engine.store.current().busy];
      next = engine.submit('second');
    });
    expect((await engine.submit('first')).status).toBe('finished');
    off();
    expect(busyThen).toEqual([false, false]);
    expect(await next).toMatchObject({ status: 'finished' });
  });

  it('shows a call as denied because its result says so, whatever its text', async () => {
    const tools = [
      { ...noteTool, name: 'refuses', run: async () => ({ ok: false, failure: 'denied' as const, content: 'no.', summary: 'no' }) },
      { ...noteTool, name: 'mentions', run: async () => ({ ok: false, failure: 'failed' as const, content: 'denied: the database said so', summary: 'denied by the server' }) },
    ];
    fake = await startFakeProvider({ format, replies: [{ toolCalls: [{ name: 'refuses', input: {} }, { name: 'mentions', input: {} }] }, { text: 'ok' }] });
    sandbox = await makeSandbox(format, fake.baseUrl);
    engine = await startEngine(sandbox, tools);
    await engine.submit('go');
    const blocks = engine.store.current().blocks.flatMap((b) => (b.kind === 'tool' ? [[b.status, b.failure]] : []));
    expect(blocks).toEqual([
      ['denied', 'denied'],
      ['error', 'failed'],
    ]);
  });

  it('waits for the view to answer an approval, keyed by id', async () => {
    const { engine } = await setup([
      { toolCalls: [{ name: 'needs_ok', input: { path: 'a.txt' } }, { name: 'needs_ok', input: { path: 'b.txt' } }] },
      { text: 'done' },
    ]);
    const answers = ['yes', 'no'] as const;
    let asked = 0;
    engine.subscribe(() => {
      const pending = engine.getSnapshot().pendingApproval;
      if (pending) engine.answer(pending.id, answers[asked++]!);
    });
    const outcome = await engine.submit('write two files');
    expect(outcome.status).toBe('finished');
    expect(asked).toBe(2);
    const results = resultsOf(1);
    expect(results).toEqual(['wrote a.txt', 'Denied: the user did not allow writing b.txt.']);
    const statuses = engine.store.current().blocks.flatMap((b) => (b.kind === 'tool' ? [b.status] : []));
    expect(statuses).toEqual(['ok', 'denied']);
  });

  it('an interrupt while an approval waits settles it and stops the turn', async () => {
    const { engine } = await setup([{ toolCalls: [{ name: 'needs_ok', input: { path: 'a.txt' } }] }, { text: 'ok then' }]);
    const off = engine.subscribe(() => {
      if (engine.getSnapshot().pendingApproval) engine.interrupt();
    });
    const first = await engine.submit('write it');
    off();
    expect(first.status).toBe('interrupted');
    expect(engine.store.current().pendingApproval).toBeNull();
    expect((await engine.submit('fine')).status).toBe('finished');
    assertValidHistory(turnOf(1));
    expect(resultsOf(1)[0]).toMatch(/^Interrupted/);
  });

  it('counts usage and cost per session and saves every turn for --continue', async () => {
    const { engine: first, fake } = await setup([
      { text: 'first', usage: { input: 100, output: 10, cacheRead: 0, cacheWrite: 0 } },
      { text: 'resumed', usage: { input: 5, output: 1, cacheRead: 100, cacheWrite: 0 } },
    ]);
    const outcome = await first.submit('remember me');
    expect(outcome.usage).toEqual({ input: 100, output: 10, cacheRead: 0, cacheWrite: 0 });
    expect(outcome.cost).toBeNull();
    expect(first.store.current().sessionUsage).toMatchObject({ input: 100, output: 10 });
    const id = first.runtime.session.id;
    await first.dispose();
    const resumed = await startEngine(sandbox!, [noteTool], { continueLast: true });
    engine = resumed;
    expect(resumed.runtime.session.id).toBe(id);
    await resumed.submit('and now?');
    expect(resumed.store.current().sessionUsage).toMatchObject({ input: 105, cacheRead: 100, output: 11 });
    const req = turnOf(1);
    expect(req.messages.map((m) => m.text)).toEqual(['remember me', 'first', 'and now?']);
    expect(fake.requests).toHaveLength(2);
  });
});
