import { afterEach, describe, expect, it } from 'vitest';
import type { Message } from '../../src/providers/types.js';
import { startFakeProvider, type FakeProvider } from '../support/fake-provider.js';
import { collect, fakeClient, fakePreset, lastStop, simpleRequest, textOf } from '../support/provider-helpers.js';

let fake: FakeProvider | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

const READ_TOOL = {
  name: 'read_file',
  description: 'Read a file',
  inputSchema: { type: 'object' as const, properties: { path: { type: 'string' } }, required: ['path'] },
};

type Body = Record<string, unknown> & { messages: { role: string; content: unknown }[] };

describe('anthropic client over the fake provider', () => {
  it('streams thinking, text and a tool call, and assembles the whole message', async () => {
    const thinking = 'The failing test is in parse.spec.ts — 先读文件 🐉.';
    fake = await startFakeProvider({
      format: 'anthropic',
      replies: [
        {
          thinking,
          text: 'Let me look at the parser first.',
          toolCalls: [{ name: 'read_file', input: { path: 'src/parse.ts', limit: 200 }, id: 'toolu_A' }],
          usage: { input: 812, cacheRead: 2048, cacheWrite: 16, output: 87 },
        },
      ],
    });
    const events = await collect(fakeClient(fakePreset(fake, 'anthropic')).stream(simpleRequest({ tools: [READ_TOOL] })));
    expect(textOf(events, 'thinking_delta')).toBe(thinking);
    expect(textOf(events, 'text_delta')).toBe('Let me look at the parser first.');
    expect(events.filter((e) => e.type === 'text_delta').length).toBeGreaterThan(3);
    expect(events.find((e) => e.type === 'tool_call_start')).toEqual({ type: 'tool_call_start', index: 0, id: 'toolu_A', name: 'read_file' });
    const fragments = events.flatMap((e) => (e.type === 'tool_call_delta' ? [e.fragment] : []));
    expect(fragments.join('')).toBe('{"path":"src/parse.ts","limit":200}');
    expect(events.find((e) => e.type === 'tool_call_end')).toMatchObject({ id: 'toolu_A', input: { path: 'src/parse.ts', limit: 200 } });
    const stop = lastStop(events);
    expect(stop.reason).toBe('tool_use');
    // message_delta repeats the input counts as cumulative totals: they must not be added twice.
    expect(stop.usage).toEqual({ input: 812, cacheRead: 2048, cacheWrite: 16, output: 87 });
    expect(stop.message.content).toEqual([
      { type: 'thinking', thinking, signature: 'fakeSig+/0123456789abcdef==' },
      { type: 'text', text: 'Let me look at the parser first.' },
      { type: 'tool_use', id: 'toolu_A', name: 'read_file', input: { path: 'src/parse.ts', limit: 200 } },
    ]);
  });

  it('replays the first reply thinking and redacted_thinking blocks byte for byte in the next request', async () => {
    const thinking = 'Plan: "quote" \\ backslash, tab\t, emoji 🐉, CJK 思考.';
    const signature = 'EqQBCkgIARABGAIiQE+/sig==';
    fake = await startFakeProvider({
      format: 'anthropic',
      replies: [
        { redactedThinking: 'opaque-REDACTED-payload==', thinking, signature, toolCalls: [{ name: 'read_file', input: { path: 'a.ts' }, id: 'toolu_1' }] },
        { text: 'Done.' },
      ],
    });
    const client = fakeClient(fakePreset(fake, 'anthropic'));
    const first = lastStop(await collect(client.stream(simpleRequest({ tools: [READ_TOOL] }))));
    const history: Message[] = [
      { role: 'user', content: [{ type: 'text', text: 'hi' }] },
      first.message,
      { role: 'user', content: [{ type: 'tool_result', toolUseId: 'toolu_1', content: 'file text' }] },
    ];
    const second = lastStop(await collect(client.stream(simpleRequest({ tools: [READ_TOOL], messages: history }))));
    expect(second.message.content).toEqual([{ type: 'text', text: 'Done.' }]);

    const raw = fake.requests[1]?.raw ?? '';
    expect(raw).toContain(JSON.stringify({ type: 'redacted_thinking', data: 'opaque-REDACTED-payload==' }));
    expect(raw).toContain(JSON.stringify({ type: 'thinking', thinking, signature }));
    const body = fake.requests[1]?.body as Body;
    expect(body.messages[1]).toEqual({
      role: 'assistant',
      content: [
        { type: 'redacted_thinking', data: 'opaque-REDACTED-payload==' },
        { type: 'thinking', thinking, signature },
        { type: 'tool_use', id: 'toolu_1', name: 'read_file', input: { path: 'a.ts' } },
      ],
    });
  });

  it('keeps a thinking block without a signature exactly as it came (no invented signature)', async () => {
    fake = await startFakeProvider({ format: 'anthropic', replies: [{ thinking: 'unsigned', signature: '', text: 'ok' }, { text: 'again' }] });
    const client = fakeClient(fakePreset(fake, 'anthropic'));
    const first = lastStop(await collect(client.stream(simpleRequest())));
    // The block opened with signature "" and no signature_delta followed: "" is what we keep.
    expect(first.message.content[0]).toEqual({ type: 'thinking', thinking: 'unsigned', signature: '' });
    await collect(client.stream(simpleRequest({ messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }, first.message] })));
    expect(fake.requests[1]?.raw).toContain('{"type":"thinking","thinking":"unsigned","signature":""}');
  });

  it('builds the request: headers, system, tools, thinking, effort, max_tokens, tool results first with images', async () => {
    fake = await startFakeProvider({ format: 'anthropic', replies: [{ text: 'a' }, { text: 'b' }] });
    const client = fakeClient(fakePreset(fake, 'anthropic', { model: 'deepseek-v4-flash' }), { apiKey: 'sk-ant-xyz' });
    const image = { mediaType: 'image/png' as const, base64: 'iVBORw0KGgo=' };
    const messages: Message[] = [
      { role: 'user', content: [{ type: 'text', text: 'look' }] },
      { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'view_image', input: { path: 'x.png' } }] },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'and also' },
          { type: 'tool_result', toolUseId: 't1', content: 'x.png, 1x1', images: [image] },
          { type: 'image', image },
        ],
      },
    ];
    await collect(client.stream(simpleRequest({ system: 'SYS', tools: [READ_TOOL], messages, maxTokens: 8000, thinkingEffort: 'minimal' })));
    const req = fake.requests[0];
    expect(req?.path).toBe('/v1/messages');
    expect(req?.headers['x-api-key']).toBe('sk-ant-xyz');
    expect(req?.headers['anthropic-version']).toBe('2023-06-01');
    expect(req?.headers['authorization']).toBeUndefined();
    const body = req?.body as Body;
    expect(body).toMatchObject({
      model: 'deepseek-v4-flash',
      max_tokens: 8000,
      stream: true,
      system: 'SYS',
      tools: [{ name: 'read_file', description: 'Read a file', input_schema: READ_TOOL.inputSchema }],
      thinking: { type: 'enabled', budget_tokens: 1024 },
      output_config: { effort: 'low' },
    });
    expect(body.messages[2]).toEqual({
      role: 'user',
      content: [
        {
          type: 'tool_result',
          tool_use_id: 't1',
          content: [
            { type: 'text', text: 'x.png, 1x1' },
            { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } },
          ],
        },
        { type: 'text', text: 'and also' },
        { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } },
      ],
    });

    await collect(client.stream(simpleRequest({ thinking: false })));
    const off = fake.requests[1]?.body as Body;
    // DeepSeek thinks unless told not to: off must be said explicitly.
    expect(off['thinking']).toEqual({ type: 'disabled' });
    expect(off['output_config']).toBeUndefined();
    expect(off['tools']).toBeUndefined();
  });

  it('turns invalid tool JSON into an inputError on the block instead of failing', async () => {
    fake = await startFakeProvider({
      format: 'anthropic',
      replies: [{ toolCalls: [{ name: 'read_file', input: '{"path": "a.ts", ', id: 'toolu_bad' }, { name: 'list_dir', input: '', id: 'toolu_empty' }] }],
    });
    const stop = lastStop(await collect(fakeClient(fakePreset(fake, 'anthropic')).stream(simpleRequest())));
    const [bad, empty] = stop.message.content;
    expect(bad).toMatchObject({ type: 'tool_use', id: 'toolu_bad', input: {} });
    expect(bad?.type === 'tool_use' && bad.inputError).toMatch(/not valid JSON.*\{"path": "a\.ts", /);
    // A tool with no arguments streams nothing: that is {}, not an error.
    expect(empty).toEqual({ type: 'tool_use', id: 'toolu_empty', name: 'list_dir', input: {} });
  });

  it('reads CRLF streams cut into 7-byte writes with keep-alive comments in between', async () => {
    const text = 'Grüße aus 東京 — 🐉🐉 done.';
    fake = await startFakeProvider({ format: 'anthropic', lineEnding: '\r\n', splitWritesBytes: 7, keepAliveComments: true, replies: [{ thinking: 'ü🐉', text }] });
    const events = await collect(fakeClient(fakePreset(fake, 'anthropic')).stream(simpleRequest()));
    expect(textOf(events, 'text_delta')).toBe(text);
    expect(lastStop(events).message.content[1]).toEqual({ type: 'text', text });
  });

  it('maps max_tokens and sends no x-api-key when there is no key', async () => {
    fake = await startFakeProvider({ format: 'anthropic', replies: [{ text: 'cut', stop: 'max_tokens' }] });
    const stop = lastStop(await collect(fakeClient(fakePreset(fake, 'anthropic'), { apiKey: undefined }).stream(simpleRequest())));
    expect(stop.reason).toBe('max_tokens');
    expect(fake.requests[0]?.headers['x-api-key']).toBeUndefined();
  });
});
