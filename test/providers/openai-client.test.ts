import { afterEach, describe, expect, it } from 'vitest';
import type { AssistantMessage, Message } from '../../src/providers/types.js';
import { startFakeProvider, type FakeProvider, type OpenAiReasoningField, type ScriptedReply } from '../support/fake-provider.js';
import { collect, fakeClient, fakePreset, lastStop, simpleRequest, textOf } from '../support/provider-helpers.js';

let fake: FakeProvider | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

type Body = Record<string, unknown> & { messages: Record<string, unknown>[] };

const TOOL = {
  name: 'read_file',
  description: 'Read a file',
  inputSchema: { type: 'object' as const, properties: { path: { type: 'string' } } },
};

async function oneReply(reply: ScriptedReply, opts: { field?: OpenAiReasoningField } = {}) {
  fake = await startFakeProvider({ format: 'openai', openaiReasoningField: opts.field, replies: [reply] });
  return collect(fakeClient(fakePreset(fake, 'openai')).stream(simpleRequest({ tools: [TOOL] })));
}

describe('openai client over the fake provider', () => {
  it('streams reasoning and text, assembles parallel tool calls by index, reads the usage-only chunk', async () => {
    const events = await oneReply({
      thinking: 'Need both files — 两个文件.',
      text: "I'll read both files.",
      toolCalls: [
        { name: 'read_file', input: { path: 'src/a.ts' }, id: 'call_A' },
        { name: 'read_file', input: { path: 'src/b.ts' }, id: 'call_B' },
      ],
      usage: { input: 176, cacheRead: 1024, output: 48 },
    });
    expect(textOf(events, 'thinking_delta')).toBe('Need both files — 两个文件.');
    expect(textOf(events, 'text_delta')).toBe("I'll read both files.");
    expect(events.filter((e) => e.type === 'tool_call_start').map((e) => e.type === 'tool_call_start' && [e.index, e.id])).toEqual([
      [0, 'call_A'],
      [1, 'call_B'],
    ]);
    const stop = lastStop(events);
    expect(stop.reason).toBe('tool_use');
    expect(stop.usage).toEqual({ input: 176, cacheRead: 1024, cacheWrite: 0, output: 48 });
    expect(stop.message).toEqual({
      role: 'assistant',
      content: [
        { type: 'text', text: "I'll read both files." },
        { type: 'tool_use', id: 'call_A', name: 'read_file', input: { path: 'src/a.ts' } },
        { type: 'tool_use', id: 'call_B', name: 'read_file', input: { path: 'src/b.ts' } },
      ],
      reasoningEcho: { field: 'reasoning_content', value: 'Need both files — 两个文件.' },
    });
    const body = fake?.requests[0]?.body as Body;
    expect(body).toMatchObject({ stream: true, stream_options: { include_usage: true }, max_tokens: 4096, model: 'fake-model' });
  });

  it('tolerates whole calls in one chunk, object arguments, missing ids and an empty first choices chunk', async () => {
    const events = await oneReply({
      toolCalls: [
        { name: 'read_file', input: { path: 'x' } },
        { name: 'list_dir', input: { path: '.' } },
      ],
      quirks: { argumentsAsObject: true, omitToolIds: true, emptyChoicesFirst: true },
    });
    const calls = lastStop(events).message.content;
    expect(calls.map((c) => c.type === 'tool_use' && [c.name, c.input])).toEqual([
      ['read_file', { path: 'x' }],
      ['list_dir', { path: '.' }],
    ]);
    const ids = calls.map((c) => (c.type === 'tool_use' ? c.id : ''));
    expect(ids[0]).toMatch(/^call_\w+/);
    expect(new Set(ids).size).toBe(2);
    // The generated id is the one announced at the start, so the tool result can point at it.
    const starts = events.flatMap((e) => (e.type === 'tool_call_start' ? [e.id] : []));
    expect(starts).toEqual(ids);
  });

  it('handles whole-call chunks with string arguments and a stream without [DONE]', async () => {
    const events = await oneReply({ toolCalls: [{ name: 'grep', input: { pattern: 'a"b' }, id: 'c1' }], quirks: { wholeToolCalls: true, omitDone: true } });
    expect(lastStop(events).message.content).toEqual([{ type: 'tool_use', id: 'c1', name: 'grep', input: { pattern: 'a"b' } }]);
  });

  it('reads DeepSeek usage (cache hit/miss on the finish chunk)', async () => {
    const events = await oneReply({ text: 'ok', usage: { input: 132, cacheRead: 768, output: 30 }, quirks: { deepseekUsage: true } });
    expect(lastStop(events).usage).toEqual({ input: 132, cacheRead: 768, cacheWrite: 0, output: 30 });
  });

  it('counts OpenRouter-style cache writes apart from fresh input', async () => {
    const events = await oneReply({ text: 'ok', usage: { input: 100, cacheRead: 50, cacheWrite: 25, output: 7 } });
    expect(lastStop(events).usage).toEqual({ input: 100, cacheRead: 50, cacheWrite: 25, output: 7 });
  });

  it('turns invalid argument JSON into an inputError', async () => {
    const events = await oneReply({ toolCalls: [{ name: 'read_file', input: '{"path": ', id: 'c9' }] });
    const call = lastStop(events).message.content[0];
    expect(call).toMatchObject({ type: 'tool_use', id: 'c9', input: {} });
    expect(call?.type === 'tool_use' && call.inputError).toMatch(/not valid JSON/);
    expect(events.find((e) => e.type === 'tool_call_end')).toMatchObject({ id: 'c9', inputError: expect.stringMatching(/not valid JSON/) });
  });

  it('builds the request: bearer auth, system, tools, tool messages, images, assistant tool calls', async () => {
    fake = await startFakeProvider({ format: 'openai', replies: [{ text: 'a' }] });
    const image = { mediaType: 'image/jpeg' as const, base64: '/9j/4AAQ' };
    const messages: Message[] = [
      { role: 'user', content: [{ type: 'text', text: 'look' }, { type: 'image', image }] },
      { role: 'assistant', content: [{ type: 'text', text: 'Viewing.' }, { type: 'tool_use', id: 'call_1', name: 'view_image', input: { path: 'p.jpg' } }] },
      {
        role: 'user',
        content: [
          { type: 'tool_result', toolUseId: 'call_1', content: 'p.jpg 10x10', images: [image] },
          { type: 'text', text: 'what is it?' },
        ],
      },
    ];
    await collect(fakeClient(fakePreset(fake, 'openai'), { apiKey: 'sk-oa' }).stream(simpleRequest({ system: 'SYS', tools: [TOOL], messages })));
    const req = fake.requests[0];
    expect(req?.path).toBe('/chat/completions');
    expect(req?.headers['authorization']).toBe('Bearer sk-oa');
    const body = req?.body as Body;
    expect(body['tools']).toEqual([{ type: 'function', function: { name: 'read_file', description: 'Read a file', parameters: TOOL.inputSchema } }]);
    const url = 'data:image/jpeg;base64,/9j/4AAQ';
    expect(body.messages).toEqual([
      { role: 'system', content: 'SYS' },
      { role: 'user', content: [{ type: 'text', text: 'look' }, { type: 'image_url', image_url: { url } }] },
      {
        role: 'assistant',
        content: 'Viewing.',
        tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'view_image', arguments: '{"path":"p.jpg"}' } }],
      },
      { role: 'tool', tool_call_id: 'call_1', content: 'p.jpg 10x10' },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Image from tool call call_1:' },
          { type: 'image_url', image_url: { url } },
          { type: 'text', text: 'what is it?' },
        ],
      },
    ]);
  });

  it('sends no Authorization header without a key, and no thinking field to a generic server', async () => {
    fake = await startFakeProvider({ format: 'openai', replies: [{ text: 'a' }, { text: 'b' }] });
    const client = fakeClient(fakePreset(fake, 'openai', { model: 'qwen3' }), { apiKey: undefined });
    await collect(client.stream(simpleRequest({ thinking: true, thinkingEffort: 'medium' })));
    await collect(client.stream(simpleRequest({ thinking: false })));
    expect(fake.requests[0]?.headers['authorization']).toBeUndefined();
    const [on, off] = fake.requests.map((r) => r.body as Body);
    expect(on?.['reasoning_effort']).toBe('medium');
    expect(on?.['thinking']).toBeUndefined();
    expect(off?.['thinking']).toBeUndefined();
    expect(off?.['reasoning_effort']).toBeUndefined();
  });

  it('tells DeepSeek explicitly to stop thinking, and maps effort to its scale', async () => {
    fake = await startFakeProvider({ format: 'openai', replies: [{ text: 'a' }, { text: 'b' }, { text: 'c' }] });
    const client = fakeClient(fakePreset(fake, 'openai', { model: 'deepseek-v4-flash' }));
    await collect(client.stream(simpleRequest({ thinking: false })));
    await collect(client.stream(simpleRequest({ thinking: true, thinkingEffort: 'medium' })));
    await collect(client.stream(simpleRequest({ thinking: true, thinkingEffort: 'max' })));
    const [off, medium, max] = fake.requests.map((r) => r.body as Body);
    expect(off?.['thinking']).toEqual({ type: 'disabled' });
    expect(off?.['reasoning_effort']).toBeUndefined();
    expect(medium).toMatchObject({ thinking: { type: 'enabled' }, reasoning_effort: 'high' });
    expect(max).toMatchObject({ reasoning_effort: 'max' });
  });
});

describe('openai reasoning echo (echo_reasoning)', () => {
  const toolTurn: ScriptedReply = { thinking: 'Need to read the file.', toolCalls: [{ name: 'read_file', input: { path: 'a.ts' }, id: 'call_r' }] };
  const textTurn: ScriptedReply = { thinking: 'Easy one.', text: 'Hello.' };

  /** Plays two scripted turns and returns the assistant messages as sent back in a third request. */
  async function replay(field: OpenAiReasoningField, echo: 'auto' | boolean): Promise<Record<string, unknown>[]> {
    fake = await startFakeProvider({ format: 'openai', openaiReasoningField: field, replies: [textTurn, toolTurn, { text: 'end' }] });
    const client = fakeClient(fakePreset(fake, 'openai', { echoReasoning: echo }));
    const history: Message[] = [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }];
    const run = async (): Promise<AssistantMessage> => lastStop(await collect(client.stream(simpleRequest({ messages: history })))).message;
    history.push(await run(), { role: 'user', content: [{ type: 'text', text: 'now read a.ts' }] });
    history.push(await run(), { role: 'user', content: [{ type: 'tool_result', toolUseId: 'call_r', content: 'x' }] });
    await run();
    return (fake.requests[2]?.body as Body).messages.filter((m) => m['role'] === 'assistant');
  }

  it('auto: echoes only tool-call turns, in the field the server used (reasoning_content)', async () => {
    const [plain, tool] = await replay('reasoning_content', 'auto');
    expect(plain).not.toHaveProperty('reasoning_content');
    expect(tool).toMatchObject({ reasoning_content: 'Need to read the file.' });
    expect(tool).not.toHaveProperty('reasoning');
  });

  it('auto: uses `reasoning` for servers that call it that (Ollama, vLLM)', async () => {
    const [plain, tool] = await replay('reasoning', 'auto');
    expect(plain).not.toHaveProperty('reasoning');
    expect(tool).toMatchObject({ reasoning: 'Need to read the file.' });
    expect(tool).not.toHaveProperty('reasoning_content');
  });

  it('auto: sends OpenRouter reasoning_details back as one merged array', async () => {
    const [, tool] = await replay('reasoning_details', 'auto');
    expect(tool?.['reasoning_details']).toEqual([{ type: 'reasoning.text', text: 'Need to read the file.', format: 'unknown', index: 0 }]);
    expect(tool).not.toHaveProperty('reasoning');
  });

  it('true: echoes every turn; false: never', async () => {
    const both = await replay('reasoning_content', true);
    expect(both.map((m) => m['reasoning_content'])).toEqual(['Easy one.', 'Need to read the file.']);
    await fake?.close();
    const none = await replay('reasoning_content', false);
    expect(none.some((m) => 'reasoning_content' in m || 'reasoning' in m)).toBe(false);
  });

  it('auto: a server that never sent reasoning never receives any', async () => {
    fake = await startFakeProvider({ format: 'openai', replies: [{ toolCalls: [{ name: 'read_file', input: {}, id: 'c' }] }, { text: 'ok' }] });
    const client = fakeClient(fakePreset(fake, 'openai'));
    const first = lastStop(await collect(client.stream(simpleRequest()))).message;
    expect(first.reasoningEcho).toBeUndefined();
    await collect(client.stream(simpleRequest({ messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }, first] })));
    const sent = (fake.requests[1]?.body as Body).messages[2];
    expect(Object.keys(sent ?? {}).sort()).toEqual(['content', 'role', 'tool_calls']);
  });
});
