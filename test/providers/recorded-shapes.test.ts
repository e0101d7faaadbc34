/**
 * Streams in the shapes real servers send (test/fixtures/streams/, written for these tests in
 * the documented shapes), replayed verbatim over real HTTP: what lindwyrm shows, keeps and bills.
 */
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import type { Message } from '../../src/providers/types.js';
import { startFakeProvider, type FakeFormat, type FakeProvider } from '../support/fake-provider.js';
import { collect, fakeClient, fakePreset, lastStop, simpleRequest, textOf } from '../support/provider-helpers.js';

const fixture = (name: string): string => readFileSync(new URL(`../fixtures/streams/${name}`, import.meta.url), 'utf8');

let fake: FakeProvider | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

async function replay(format: FakeFormat, name: string, then: string[] = []) {
  fake = await startFakeProvider({ format, replies: [{ rawSse: fixture(name) }, ...then.map((t) => ({ text: t }))] });
  const client = fakeClient(fakePreset(fake, format));
  return { client, events: await collect(client.stream(simpleRequest())) };
}

describe('OpenAI-format recordings', () => {
  it('Mistral content parts: the answer keeps every character, the thinking is reasoning', async () => {
    const { events } = await replay('openai', 'mistral-content-parts.sse');
    expect(textOf(events, 'text_delta')).toBe('391 is the product.');
    expect(textOf(events, 'thinking_delta')).toBe('17 times 20 is 340, plus 51 is 391.');
    expect(lastStop(events).usage).toEqual({ input: 28, cacheRead: 0, cacheWrite: 0, output: 42 });
  });

  it('a refusal: shown, kept, and the turn ends refused', async () => {
    const { events } = await replay('openai', 'openai-refusal.sse');
    const stop = lastStop(events);
    expect(textOf(events, 'text_delta')).toBe("I'm sorry, I can't help with that.");
    expect(stop.reason).toBe('refusal');
    expect(stop.explanation).toBe("I'm sorry, I can't help with that.");
  });

  it('Gemini: two whole calls without index, the thought_signature kept and sent back with its call', async () => {
    fake = await startFakeProvider({ format: 'openai', replies: [{ rawSse: fixture('gemini-extra-content.sse') }, { text: 'ok' }] });
    const client = fakeClient(fakePreset(fake, 'openai'));
    const stop = lastStop(await collect(client.stream(simpleRequest())));
    expect(stop.reason).toBe('tool_use');
    expect(stop.message.content).toMatchObject([
      { type: 'tool_use', id: 'function-call-1111', input: { path: 'src/a.ts' }, extraContent: { google: { thought_signature: 'CiQB0e2Kb9EXAMPLEsigA==' } } },
      { type: 'tool_use', id: 'function-call-2222', input: { path: 'src/b.ts' } },
    ]);
    expect(stop.usage).toEqual({ input: 300, cacheRead: 512, cacheWrite: 0, output: 31 });
    const messages: Message[] = [
      ...simpleRequest().messages,
      stop.message,
      { role: 'user', content: ['function-call-1111', 'function-call-2222'].map((id) => ({ type: 'tool_result' as const, toolUseId: id, content: 'x' })) },
    ];
    await collect(client.stream(simpleRequest({ messages })));
    expect(fake.requests[1]?.raw).toContain('"extra_content":{"google":{"thought_signature":"CiQB0e2Kb9EXAMPLEsigA=="}}');
  });

  it('Moonshot: usage inside the choice, cache hits as top-level cached_tokens', async () => {
    const { events } = await replay('openai', 'moonshot-usage-in-choice.sse');
    expect(lastStop(events).usage).toEqual({ input: 108, cacheRead: 1792, cacheWrite: 0, output: 12 });
  });

  it('a server that ignores stream_options: usage unknown, not zero', async () => {
    const { events } = await replay('openai', 'vllm-no-usage.sse');
    expect(textOf(events, 'text_delta')).toBe('All tests pass.');
    expect(lastStop(events).usage.unreported).toBe(1);
  });
});

describe('Anthropic-format recordings', () => {
  it('stop_reason "refusal": the text shown, the explanation carried', async () => {
    const { events } = await replay('anthropic', 'anthropic-refusal.sse');
    const stop = lastStop(events);
    expect(textOf(events, 'text_delta')).toBe("I can't help with that part.");
    expect(stop.reason).toBe('refusal');
    expect(stop.explanation).toBe('The request asks for working malware.');
  });

  it('a proxy replaying a block under its index: printed once, kept once; the tool call after it intact', async () => {
    const { events } = await replay('anthropic', 'anthropic-proxy-replay.sse');
    expect(textOf(events, 'text_delta')).toBe('The tests pass.');
    expect(lastStop(events).message.content).toEqual([
      { type: 'text', text: 'The tests pass.' },
      { type: 'tool_use', id: 'toolu_01EXAMPLEa', name: 'read_file', input: { path: 'a.ts' } },
    ]);
  });

  it('cache writes given only per TTL (cache_creation) still count as cache writes', async () => {
    const { events } = await replay('anthropic', 'anthropic-cache-usage.sse');
    expect(lastStop(events).usage).toEqual({ input: 12, cacheRead: 18000, cacheWrite: 2688, output: 3 });
  });
});
