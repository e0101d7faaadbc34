import { afterEach, describe, expect, it } from 'vitest';
import { looksTruncated } from '../../src/providers/local-guard.js';
import { callShapedStart } from '../../src/providers/text-tool-calls.js';
import type { ModelClientOptions } from '../../src/providers/create-client.js';
import type { Preset } from '../../src/config/types.js';
import type { StreamEvent, ToolSchema } from '../../src/providers/types.js';
import { startFakeOllama } from '../support/fake-ollama.js';
import { startFakeLmStudio } from '../support/fake-lmstudio.js';
import type { FakeServer } from '../support/fake-local-common.js';
import { collect, collectFailure, fakeClient, fakePreset, lastStop, simpleRequest } from '../support/provider-helpers.js';

let server: FakeServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const guard = (window: number) => ({ window, fix: 'Raise context_window of preset "ollama" (now 4096)', server: 'qwen3:8b on Ollama' });
const localPreset = (s: FakeServer, over: Partial<Preset> = {}): Preset =>
  fakePreset(s, 'anthropic', { format: 'ollama', model: 'qwen3:8b', apiKeyEnv: [], keyOptional: true, thinking: false, ...over });
const client = (p: Preset, opts: Partial<ModelClientOptions>) => fakeClient(p, { apiKey: undefined, maxRetries: 0, ...opts });
const tools: ToolSchema[] = [
  { name: 'read_file', description: 'Read a file.', inputSchema: { type: 'object', properties: { path: { type: 'string' } } } },
  { name: 'bash', description: 'Run a command.', inputSchema: { type: 'object', properties: { command: { type: 'string' } } } },
];
const longHistory = (turns: number) =>
  Array.from({ length: turns }, (_, i) => ({ role: 'user' as const, content: [{ type: 'text' as const, text: `Turn ${i}: ${'some earlier conversation about the code. '.repeat(40)}` }] }));

describe('truncation: the server evaluated less than was sent', () => {
  it('stops the turn when Ollama (ignoring num_ctx above the model maximum) cuts the prompt from the front', async () => {
    // The model allows 2048 however large num_ctx is; lindwyrm believes 8192 (no /api/show here).
    const fake = await startFakeOllama({ models: [{ name: 'qwen3:8b', contextLength: 2048 }], replies: [{ text: 'Sure, here is what you asked.' }] });
    server = fake;
    const logs: string[] = [];
    const c = client(localPreset(fake), { local: { guard: guard(8192), ollama: { limit: 8192 } }, log: (l) => logs.push(l) });
    const { events, error } = await collectFailure(c.stream(simpleRequest({ messages: longHistory(12), maxTokens: 512 })));
    expect(fake.ran[0]?.cut).toBe(true);
    const evaluated = fake.ran[0]!.evaluated.toLocaleString('en-US');
    expect(error.message).toMatch(new RegExp(`^qwen3:8b on Ollama cut the prompt to ${evaluated} tokens: it evaluated ${evaluated} of the about [\\d,]+ sent`));
    expect(error.message).toContain('Raise context_window of preset "ollama"');
    // Its reply streamed, but no stop (nothing acted on) and no usage (the meter keeps the estimate).
    expect(events.some((e) => e.type === 'stop' || e.type === 'usage')).toBe(false);
  });

  it('stops the turn when an OpenAI-format server (Ollama /v1, LM Studio) reports fewer prompt_tokens', async () => {
    const fake = await startFakeLmStudio({ models: [{ id: 'qwen3-8b', maxContext: 32_768, loadedContext: 2048 }], replies: [{ text: 'ok' }] });
    server = fake;
    const preset = localPreset(fake, { format: 'openai', baseUrl: `${fake.baseUrl}/v1`, model: 'qwen3-8b' });
    const c = client(preset, { local: { guard: { ...guard(32_768), server: 'qwen3-8b on LM Studio' } } });
    const { error } = await collectFailure(c.stream(simpleRequest({ messages: longHistory(12), maxTokens: 512 })));
    expect(fake.ran[0]).toMatchObject({ context: 2048, cut: true });
    expect(error.message).toContain(`qwen3-8b on LM Studio cut the prompt to ${fake.ran[0]!.evaluated.toLocaleString('en-US')} tokens`);
  });

  it('accepts a reply whose count matches what was sent, and passes its usage on', async () => {
    const fake = await startFakeOllama({ models: [{ name: 'qwen3:8b', contextLength: 32_768 }], replies: [{ text: 'fine' }] });
    server = fake;
    const c = client(localPreset(fake), { local: { guard: guard(32_768), ollama: { limit: 32_768 } } });
    const events = await collect(c.stream(simpleRequest({ messages: longHistory(12), maxTokens: 512 })));
    expect(lastStop(events).usage.input).toBe(fake.ran[0]?.evaluated);
    expect(events.some((e) => e.type === 'usage')).toBe(true);
  });

  it('judges by the share and the gap, not by small differences', () => {
    expect(looksTruncated(15_750, 2_051)).toBe(true);
    expect(looksTruncated(4_000, 2_400)).toBe(false); // 60%: a tokenizer can differ that much
    expect(looksTruncated(300, 50)).toBe(false); // tiny prompts: templates differ more than that
    expect(looksTruncated(5_000, 0)).toBe(false); // no count at all (some servers): nothing to judge
  });

  it('also when the prompt grew and the count did not (the window is full)', () => {
    const before = { estimated: 3_000, reported: 3_300 };
    expect(looksTruncated(4_000, 3_300, before)).toBe(true);
    expect(looksTruncated(4_000, 4_300, before)).toBe(false);
    expect(looksTruncated(3_200, 3_300, before)).toBe(false); // grew too little to tell
    expect(looksTruncated(2_000, 2_100, before)).toBe(false); // a reclaim shrank it
  });

  it('catches a full window across requests: the second prompt grew, the count stayed', async () => {
    const fake = await startFakeOllama({ models: [{ name: 'qwen3:8b', contextLength: 2560 }], replies: [{ text: 'one' }, { text: 'two' }] });
    server = fake;
    const c = client(localPreset(fake), { local: { guard: guard(8192), ollama: { limit: 8192 } } });
    await collect(c.stream(simpleRequest({ messages: longHistory(5), maxTokens: 512 })));
    const { error } = await collectFailure(c.stream(simpleRequest({ messages: longHistory(8), maxTokens: 512 })));
    expect(fake.ran.map((r) => r.cut)).toEqual([false, true]);
    expect(error.message).toContain('cut the prompt to');
  });
});

describe('repairs in the verbose log', () => {
  it('says which call had its arguments repaired, and how', async () => {
    const fake = await startFakeOllama({ models: [{ name: 'qwen3:8b' }], replies: [{ toolCalls: [{ name: 'bash', input: "```json\n{command: 'ls -la', // list\n}\n```" }] }] });
    server = fake;
    const logs: string[] = [];
    const stop = lastStop(await collect(client(localPreset(fake), { log: (l) => logs.push(l) }).stream(simpleRequest({ tools }))));
    expect(stop.message.content).toEqual([{ type: 'tool_use', id: expect.any(String), name: 'bash', input: { command: 'ls -la' } }]);
    expect(logs).toContain('repaired the arguments of bash (code fence, unquoted keys, single quotes, comments, trailing commas)');
  });
});

describe('refusing before sending', () => {
  it('does not send a prompt that cannot fit the known window, and says how to get more', async () => {
    const fake = await startFakeOllama({ models: [{ name: 'qwen3:8b' }], replies: [] });
    server = fake;
    const c = client(localPreset(fake), { local: { guard: guard(4096), ollama: { limit: 4096 } } });
    const { error } = await collectFailure(c.stream(simpleRequest({ messages: longHistory(10), maxTokens: 1024 })));
    expect(error.message).toMatch(/^Not sent: the prompt is about [\d,]+ tokens and does not fit the 4,096-token window of qwen3:8b on Ollama even after offloading/);
    expect(error.message).toContain('Raise context_window of preset "ollama" (now 4096)');
    expect(error.message).toContain('/compact or /clear');
    expect(fake.requests.filter((r) => r.path === '/api/chat')).toEqual([]);
  });
});

describe('tool calls written as the answer', () => {
  const logs: string[] = [];
  async function reply(text: string, local = true): Promise<StreamEvent[]> {
    const fake = await startFakeOllama({ models: [{ name: 'qwen3:8b' }], replies: [{ text }] });
    server = fake;
    logs.length = 0;
    const c = client(localPreset(fake), local ? { local: { guard: guard(32_768) }, log: (l) => logs.push(l) } : {});
    return collect(c.stream(simpleRequest({ tools })));
  }

  it('turns a whole-answer <tool_call> into a call of the named tool', async () => {
    const stop = lastStop(await reply('<tool_call>\n{"name": "read_file", "arguments": {"path": "src/main.ts"}}\n</tool_call>'));
    expect(stop.reason).toBe('tool_use');
    expect(stop.message.content).toEqual([{ type: 'tool_use', id: expect.stringMatching(/^call_/), name: 'read_file', input: { path: 'src/main.ts' } }]);
    expect(logs).toContain('took 1 tool call written in the answer text as <tool_call> tags');
  });

  it('turns a fenced JSON call into a call, repairing its near-JSON', async () => {
    const stop = lastStop(await reply("```json\n{'name': 'bash', 'arguments': {'command': 'npm test',},}\n```"));
    expect(stop.message.content).toEqual([{ type: 'tool_use', id: expect.any(String), name: 'bash', input: { command: 'npm test' } }]);
    expect(logs).toContain('took 1 tool call written in the answer text as fenced JSON, repaired: single quotes, trailing commas');
  });

  it('leaves an answer that only shows a call, or names no real tool, as text', async () => {
    const shown = 'To read a file, call:\n```json\n{"name": "read_file", "arguments": {"path": "x"}}\n```';
    expect(lastStop(await reply(shown)).message.content).toEqual([{ type: 'text', text: shown }]);
    await server?.close();
    const unknown = '<tool_call>{"name": "rm_rf", "arguments": {}}</tool_call>';
    expect(lastStop(await reply(unknown)).reason).toBe('end_turn');
  });

  it('does not also show a call as text, and shows held text that was not a call before the stop', async () => {
    const call = await reply('<tool_call>{"name": "bash", "arguments": {"command": "ls"}}</tool_call>');
    expect(call.filter((e) => e.type === 'text_delta')).toEqual([]);
    const example = '```json\n{"name": "bash", "version": 2}\n```';
    const shown = await reply(example);
    expect(shown.map((e) => (e.type === 'text_delta' ? e.text : '')).join('')).toBe(example);
    expect(shown.at(-2)).toEqual({ type: 'text_delta', text: example });
    // An answer that opens with code (not an object) streams as it comes.
    const code = await reply('```python\nprint("hi")\n```');
    expect(code.filter((e) => e.type === 'text_delta').length).toBeGreaterThan(3);
  });

  it('tells the shapes apart from the first characters', () => {
    expect(['', '  <tool', '``', '```json', '```json\n  '].map(callShapedStart)).toEqual(['maybe', 'maybe', 'maybe', 'maybe', 'maybe']);
    expect(['<tool_call>', '```json\n{', '```\n {"name"'].map(callShapedStart)).toEqual(['call', 'call', 'call']);
    expect(['Hello', '```python\nprint', '`x`', '<b>'].map(callShapedStart)).toEqual(['text', 'text', 'text', 'text']);
  });

  it('is for local servers only: a hosted model\'s text stays text', async () => {
    const stop = lastStop(await reply('<tool_call>{"name": "bash", "arguments": {"command": "ls"}}</tool_call>', false));
    expect(stop.reason).toBe('end_turn');
  });
});
