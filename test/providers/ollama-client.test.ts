import { afterEach, describe, expect, it } from 'vitest';
import { chooseNumCtx } from '../../src/providers/ollama-client.js';
import { NdjsonParser } from '../../src/providers/ndjson-reader.js';
import type { ModelClientOptions } from '../../src/providers/create-client.js';
import type { Message } from '../../src/providers/types.js';
import { startFakeOllama, type FakeOllama, type FakeOllamaOptions } from '../support/fake-ollama.js';
import { collect, collectFailure, fakeClient, fakePreset, lastStop, simpleRequest, textOf } from '../support/provider-helpers.js';

let fake: FakeOllama | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

async function ollama(opts: Partial<FakeOllamaOptions> & Pick<FakeOllamaOptions, 'replies'>, client: Partial<ModelClientOptions> = {}, window = 32_768) {
  fake = await startFakeOllama({ models: [{ name: 'qwen3:8b', contextLength: 40_960 }], ...opts });
  const preset = fakePreset(fake, 'anthropic', { format: 'ollama', model: 'qwen3:8b', contextWindow: window, apiKeyEnv: [], keyOptional: true, thinking: false });
  return fakeClient(preset, { apiKey: undefined, ...client });
}

const chatBodies = (): Record<string, unknown>[] => fake!.requests.filter((r) => r.path === '/api/chat').map((r) => r.body as Record<string, unknown>);

describe('Ollama native client (/api/chat, NDJSON)', () => {
  it('streams text and thinking, and reads the counts from the done line', async () => {
    const client = await ollama({ replies: [{ thinking: 'Let me think.', text: 'Hello there.', promptTokens: 42, outputTokens: 7 }] });
    const events = await collect(client.stream(simpleRequest({ thinking: true })));
    expect(textOf(events, 'thinking_delta')).toBe('Let me think.');
    expect(textOf(events, 'text_delta')).toBe('Hello there.');
    const stop = lastStop(events);
    expect(stop.reason).toBe('end_turn');
    expect(stop.usage).toEqual({ input: 42, cacheRead: 0, cacheWrite: 0, output: 7 });
    expect(stop.message).toEqual({ role: 'assistant', content: [{ type: 'text', text: 'Hello there.' }], reasoningEcho: { field: 'reasoning', value: 'Let me think.' } });
  });

  it('takes whole tool calls with object arguments, and repairs near-JSON ones', async () => {
    const client = await ollama({ replies: [{ toolCalls: [{ name: 'read_file', input: { path: 'a.ts' }, id: 'call_1' }, { name: 'bash', input: "{'command': 'ls',}" }] }] });
    const events = await collect(client.stream(simpleRequest()));
    const stop = lastStop(events);
    expect(stop.reason).toBe('tool_use');
    expect(stop.message.content).toEqual([
      { type: 'tool_use', id: 'call_1', name: 'read_file', input: { path: 'a.ts' } },
      // The server gave the second call the same id: it gets one of its own.
      { type: 'tool_use', id: expect.stringMatching(/^call_[0-9a-f]{24}$/), name: 'bash', input: { command: 'ls' } },
    ]);
    expect(events.filter((e) => e.type === 'tool_call_end').map((e) => (e.type === 'tool_call_end' ? e.repairs : undefined))).toEqual([undefined, ['single quotes', 'trailing commas']]);
  });

  it('sends history in the native shape: tool messages name their tool, arguments are objects, think is off unless asked', async () => {
    const client = await ollama({ replies: [{ text: 'ok' }] });
    const messages: Message[] = [
      { role: 'user', content: [{ type: 'text', text: 'read it' }] },
      { role: 'assistant', content: [{ type: 'text', text: 'Reading.' }, { type: 'tool_use', id: 'c1', name: 'read_file', input: { path: 'a.ts' } }], reasoningEcho: { field: 'reasoning', value: 'hmm' } },
      { role: 'user', content: [{ type: 'tool_result', toolUseId: 'c1', content: 'line 1' }, { type: 'text', text: 'go on' }] },
    ];
    await collect(client.stream(simpleRequest({ messages, thinking: false, tools: [{ name: 'read_file', description: 'Read.', inputSchema: { type: 'object', properties: {} } }] })));
    const body = chatBodies()[0]!;
    expect(body).toMatchObject({ model: 'qwen3:8b', stream: true, think: false, truncate: false });
    expect(body['messages']).toEqual([
      { role: 'system', content: 'You are a test.' },
      { role: 'user', content: 'read it' },
      { role: 'assistant', content: 'Reading.', tool_calls: [{ id: 'c1', function: { name: 'read_file', arguments: { path: 'a.ts' } } }], thinking: 'hmm' },
      { role: 'tool', content: 'line 1', tool_name: 'read_file', tool_call_id: 'c1' },
      { role: 'user', content: 'go on' },
    ]);
    expect(body['tools']).toEqual([{ type: 'function', function: { name: 'read_file', description: 'Read.', parameters: { type: 'object', properties: {} } } }]);
  });

  it('sends options.num_ctx sized to the conversation, growing with it, within the limit', async () => {
    const client = await ollama({ replies: [{ text: 'a' }, { text: 'b' }, { text: 'c' }] }, { local: { guard: { window: 16_384, fix: 'Raise it', server: 'fake' }, ollama: { limit: 16_384 } } });
    const small = simpleRequest({ maxTokens: 1024 });
    const big = simpleRequest({ maxTokens: 1024, messages: [{ role: 'user', content: [{ type: 'text', text: 'x'.repeat(4 * 6000) }] }] });
    await collect(client.stream(small));
    await collect(client.stream(big));
    await collect(client.stream(small));
    const sent = chatBodies().map((b) => (b['options'] as { num_ctx: number; num_predict: number }).num_ctx);
    // 4096 holds the first prompt; 6,000 tokens more need 8192; it does not shrink back (a reload).
    expect(sent).toEqual([4096, 8192, 8192]);
    expect(chatBodies()[0]!['options']).toMatchObject({ num_predict: 1024 });
    expect(fake!.ran.map((r) => r.cut)).toEqual([false, false, false]);
  });

  it('asks once more with the whole limit when a server that honours truncate:false refuses the prompt', async () => {
    // A tokenizer that needs more than the estimate (1.5 characters a token, not 4): 10,000 tokens.
    const client = await ollama({ honorsTruncate: true, charsPerToken: 1.5, replies: [{ text: 'fits now' }] }, { local: { guard: { window: 32_768, fix: 'Raise it', server: 'fake' }, ollama: { limit: 32_768 } } });
    const text = 'word '.repeat(3000);
    const events = await collect(client.stream(simpleRequest({ maxTokens: 512, messages: [{ role: 'user', content: [{ type: 'text', text }] }] })));
    expect(textOf(events, 'text_delta')).toBe('fits now');
    expect(chatBodies().map((b) => (b['options'] as { num_ctx: number }).num_ctx)).toEqual([8192, 32_768]);
    expect(fake!.ran.map((r) => r.cut)).toEqual([true, false]);
  });

  it('without a window from the server, num_ctx stays within context_window', async () => {
    const client = await ollama({ replies: [{ text: 'ok' }] }, {}, 2048);
    await collect(client.stream(simpleRequest({ maxTokens: 256 })));
    expect((chatBodies()[0]!['options'] as { num_ctx: number }).num_ctx).toBe(2048);
  });

  it('reports an error line, a stream without its done line, and a missing model as failures', async () => {
    const client = await ollama({ replies: [{ text: 'half', fault: 'error_line' }, { text: 'half', fault: 'no_done' }, { stop: 'max_tokens', text: 'long' }] }, { maxRetries: 0 });
    const errorLine = await collectFailure(client.stream(simpleRequest()));
    expect(errorLine.error.message).toContain('out of memory');
    expect(errorLine.error.partial?.content).toEqual([{ type: 'text', text: 'half' }]);
    const noDone = await collectFailure(client.stream(simpleRequest()));
    expect(noDone.error.kind).toBe('truncated');
    expect(lastStop(await collect(client.stream(simpleRequest()))).reason).toBe('max_tokens');
    const missing = fakeClient(fakePreset(fake!, 'anthropic', { format: 'ollama', model: 'nope', apiKeyEnv: [], keyOptional: true }), { apiKey: undefined, maxRetries: 0 });
    const notFound = await collectFailure(missing.stream(simpleRequest()));
    expect(notFound.error.kind).toBe('not_found');
    expect(notFound.error.message).toContain("model 'nope' not found");
  });
});

describe('chooseNumCtx', () => {
  it('reuses the loaded window while it fits, never shrinks, and stops at the limit', () => {
    expect(chooseNumCtx(3000, 32_768, { loaded: 8192 })).toBe(8192);
    expect(chooseNumCtx(9000, 32_768, { loaded: 8192 })).toBe(16_384);
    expect(chooseNumCtx(1000, 32_768, { previous: 16_384 })).toBe(16_384);
    expect(chooseNumCtx(50_000, 32_768)).toBe(32_768);
    expect(chooseNumCtx(100, 2048)).toBe(2048);
  });
});

describe('NdjsonParser', () => {
  it('joins lines split across chunks and characters split across bytes, and reads a last line without newline', () => {
    const p = new NdjsonParser();
    const bytes = new TextEncoder().encode('{"a":"é"}\n\n{"b":1}\n{"c":2}');
    const out = [...p.push(bytes.subarray(0, 7)), ...p.push(bytes.subarray(7, 14)), ...p.push(bytes.subarray(14)), ...p.end()];
    expect(out.map((m) => JSON.parse(m.data) as unknown)).toEqual([{ a: 'é' }, { b: 1 }, { c: 2 }]);
  });
});
