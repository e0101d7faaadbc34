/**
 * What real servers send beyond the two reference formats, through the fake provider over real
 * HTTP: content as part arrays (Mistral), refusals, Gemini's extra_content, every spelling of
 * cache hits, streams without usage, absurd usage numbers, and the User-Agent header.
 */
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { computeCost } from '../../src/providers/cost.js';
import type { Message } from '../../src/providers/types.js';
import { startFakeProvider, type FakeFormat, type FakeProvider, type ScriptedReply } from '../support/fake-provider.js';
import { collect, fakeClient, fakePreset, lastStop, simpleRequest, textOf } from '../support/provider-helpers.js';

const VERSION = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;

let fake: FakeProvider | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

async function run(format: FakeFormat, replies: ScriptedReply[], log?: (line: string) => void) {
  fake = await startFakeProvider({ format, replies });
  const client = fakeClient(fakePreset(fake, format), log ? { log } : {});
  return collect(client.stream(simpleRequest()));
}

describe.each<FakeFormat>(['anthropic', 'openai'])('%s wire fidelity', (format) => {
  it('sends User-Agent: lindwyrm/<version> on every request', async () => {
    await run(format, [{ text: 'a' }]);
    expect(fake?.requests[0]?.headers['user-agent']).toBe(`lindwyrm/${VERSION}`);
  });

  it('ends a refused turn as refused, with what the stream said about it', async () => {
    const events = await run(format, [{ refusal: 'I cannot help with building that.' }]);
    const stop = lastStop(events);
    expect(stop.reason).toBe('refusal');
    expect(stop.explanation).toBe('I cannot help with building that.');
  });

  it('a stream that never reports usage: usage unknown, cost null (not $0.00)', async () => {
    const events = await run(format, [{ text: 'answer', omitUsage: true }]);
    const stop = lastStop(events);
    expect(stop.usage.unreported).toBe(1);
    expect(computeCost(stop.usage, { input: 1, output: 2 })).toBeNull();
    expect(computeCost({ ...stop.usage, unreported: undefined }, { input: 1, output: 2 })).toBe(0);
  });

  it('clamps negative and absurd usage numbers and notes each under -v', async () => {
    const notes: string[] = [];
    const wireUsage =
      format === 'anthropic'
        ? { input_tokens: -40, cache_read_input_tokens: 1e18, cache_creation_input_tokens: 12.6, output_tokens: 'lots' }
        : { prompt_tokens: 1e15, completion_tokens: -3, prompt_tokens_details: { cached_tokens: 2e15 } };
    const stop = lastStop(await run(format, [{ text: 'x', wireUsage }], (l) => notes.push(l)));
    for (const n of Object.values(stop.usage)) expect(n).toBeGreaterThanOrEqual(0);
    for (const n of Object.values(stop.usage)) expect(n).toBeLessThanOrEqual(10_000_000);
    if (format === 'anthropic') expect(stop.usage).toEqual({ input: 0, cacheRead: 10_000_000, cacheWrite: 13, output: 0 });
    else expect(stop.usage).toEqual({ input: 0, cacheRead: 10_000_000, cacheWrite: 0, output: 0 });
    expect(notes.some((n) => /negative/.test(n))).toBe(true);
    expect(notes.some((n) => /beyond any real request/.test(n))).toBe(true);
  });
});

describe('openai fidelity', () => {
  it('content as an array of parts (Mistral): thinking parts are reasoning, text parts answer, nothing lost', async () => {
    const events = await run('openai', [{ thinking: 'Seventeen times twenty-three.', text: '391 is the product.', contentParts: true }]);
    expect(textOf(events, 'text_delta')).toBe('391 is the product.');
    expect(textOf(events, 'thinking_delta')).toBe('Seventeen times twenty-three.');
    expect(lastStop(events).message.content).toEqual([{ type: 'text', text: '391 is the product.' }]);
  });

  it('shows delta.refusal as the reply, keeps it in history, and says the turn was refused', async () => {
    const events = await run('openai', [{ refusal: "I can't help with that." }]);
    expect(textOf(events, 'text_delta')).toBe("I can't help with that.");
    expect(lastStop(events).message.content).toEqual([{ type: 'text', text: "I can't help with that." }]);
  });

  it("keeps a tool call's extra_content (Gemini's thought_signature) and sends it back unchanged with that call", async () => {
    const extra = { google: { thought_signature: 'CiQB0e2Kb+sig/==' } };
    fake = await startFakeProvider({
      format: 'openai',
      replies: [{ toolCalls: [{ name: 'read_file', input: { path: 'a.ts' }, id: 'call_g1', extraContent: extra }, { name: 'read_file', input: { path: 'b.ts' }, id: 'call_g2' }] }, { text: 'ok' }],
    });
    const client = fakeClient(fakePreset(fake, 'openai'));
    const first = lastStop(await collect(client.stream(simpleRequest())));
    expect(first.message.content[0]).toMatchObject({ type: 'tool_use', id: 'call_g1', extraContent: extra });
    expect(first.message.content[1]).not.toHaveProperty('extraContent');
    const messages: Message[] = [
      ...simpleRequest().messages,
      first.message,
      { role: 'user', content: [{ type: 'tool_result', toolUseId: 'call_g1', content: 'A' }, { type: 'tool_result', toolUseId: 'call_g2', content: 'B' }] },
    ];
    await collect(client.stream(simpleRequest({ messages })));
    const sent = (fake.requests[1]?.body as { messages: { role: string; tool_calls?: Record<string, unknown>[] }[] }).messages;
    const calls = sent.find((m) => m.role === 'assistant')?.tool_calls ?? [];
    expect(calls[0]).toMatchObject({ id: 'call_g1', extra_content: extra });
    expect(calls[1]).not.toHaveProperty('extra_content');
  });

  it.each([
    ['OpenAI prompt_tokens_details.cached_tokens', { prompt_tokens: 1000, completion_tokens: 7, prompt_tokens_details: { cached_tokens: 600 } }],
    ['Moonshot/Kimi top-level cached_tokens', { prompt_tokens: 1000, completion_tokens: 7, total_tokens: 1007, cached_tokens: 600 }],
    ['DeepSeek prompt_cache_hit/miss', { prompt_tokens: 1000, completion_tokens: 7, prompt_cache_hit_tokens: 600, prompt_cache_miss_tokens: 400 }],
    ['LiteLLM top-level cache_read_input_tokens', { prompt_tokens: 1000, completion_tokens: 7, cache_read_input_tokens: 600 }],
    ['Responses-style input_tokens_details', { input_tokens: 1000, output_tokens: 7, input_tokens_details: { cached_tokens: 600 } }],
    ['misspelt prompt_token_details', { prompt_tokens: 1000, completion_tokens: 7, prompt_token_details: { cached_tokens: 600 } }],
  ])('maps cache hits spelt as %s to cache_read', async (_name, wireUsage) => {
    const stop = lastStop(await run('openai', [{ text: 'x', wireUsage }]));
    expect(stop.usage).toEqual({ input: 400, cacheRead: 600, cacheWrite: 0, output: 7 });
  });
});
