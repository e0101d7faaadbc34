/**
 * Replies whose block indices or tool ids would make the next request invalid are normalised as
 * they arrive: a block replayed under its index is shown and kept once, ids reused within a reply
 * or across the conversation and ids of absurd length are replaced — consistently, so the tool
 * result answers the call it belongs to.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { MAX_TOOL_ID_BYTES } from '../../src/providers/tool-ids.js';
import type { AssistantMessage, Message } from '../../src/providers/types.js';
import { startFakeProvider, type FakeFormat, type FakeProvider, type ScriptedReply } from '../support/fake-provider.js';
import { collect, fakeClient, fakePreset, lastStop, simpleRequest, textOf } from '../support/provider-helpers.js';

let fake: FakeProvider | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

const idsOf = (m: AssistantMessage): string[] => m.content.flatMap((b) => (b.type === 'tool_use' ? [b.id] : []));

/** The history after `reply`: its calls answered, as the engine would. */
function answered(reply: AssistantMessage, before: readonly Message[] = simpleRequest().messages): Message[] {
  return [...before, reply, { role: 'user', content: idsOf(reply).map((id) => ({ type: 'tool_result' as const, toolUseId: id, content: `result for ${id}` })) }];
}

describe('anthropic: duplicate content-block indices', () => {
  it.each<[string, ScriptedReply['duplicateBlocks']]>([
    ['a text block replayed whole under its index', 'replay'],
    ['its deltas sent again after its stop', 'late_deltas'],
  ])('%s is printed once and kept once', async (_name, duplicateBlocks) => {
    fake = await startFakeProvider({ format: 'anthropic', replies: [{ text: 'Only once, please.', duplicateBlocks }] });
    const events = await collect(fakeClient(fakePreset(fake, 'anthropic')).stream(simpleRequest()));
    expect(textOf(events, 'text_delta')).toBe('Only once, please.');
    expect(lastStop(events).message.content).toEqual([{ type: 'text', text: 'Only once, please.' }]);
  });

  it('every block numbered 0: thinking, text and two calls all kept, in order, with their own ids', async () => {
    fake = await startFakeProvider({
      format: 'anthropic',
      replies: [{ thinking: 'plan', text: 'Reading.', duplicateBlocks: 'zero', toolCalls: [{ name: 'read_file', input: { path: 'a' } }, { name: 'read_file', input: { path: 'b' } }] }],
    });
    const stop = lastStop(await collect(fakeClient(fakePreset(fake, 'anthropic')).stream(simpleRequest())));
    expect(stop.message.content.map((b) => b.type)).toEqual(['thinking', 'text', 'tool_use', 'tool_use']);
    expect(stop.message.content.slice(2)).toMatchObject([{ input: { path: 'a' } }, { input: { path: 'b' } }]);
    expect(new Set(idsOf(stop.message)).size).toBe(2);
  });
});

describe.each<FakeFormat>(['anthropic', 'openai'])('%s: tool-call ids', (format) => {
  it('two calls with one id get distinct ids; the next request pairs each result with its call', async () => {
    fake = await startFakeProvider({
      format,
      replies: [{ toolCalls: [{ name: 'read_file', input: { path: 'a' }, id: 'call_0' }, { name: 'read_file', input: { path: 'b' }, id: 'call_0' }] }, { text: 'done' }],
    });
    const client = fakeClient(fakePreset(fake, format));
    const first = lastStop(await collect(client.stream(simpleRequest()))).message;
    const ids = idsOf(first);
    expect(ids[0]).toBe('call_0');
    expect(ids[1]).not.toBe('call_0');
    expect(first.content).toMatchObject([{ input: { path: 'a' } }, { input: { path: 'b' } }]);
    await collect(client.stream(simpleRequest({ messages: answered(first) })));
    expect(wireCallIds(format, fake.requests[1]?.body)).toEqual(ids);
    expect(wireResultIds(format, fake.requests[1]?.body)).toEqual(ids);
  });

  it('an id already used earlier in the conversation (call_0 in every reply) is replaced', async () => {
    fake = await startFakeProvider({
      format,
      replies: [{ toolCalls: [{ name: 'read_file', input: { path: 'a' }, id: 'call_0' }] }, { toolCalls: [{ name: 'read_file', input: { path: 'b' }, id: 'call_0' }] }, { text: 'done' }],
    });
    const client = fakeClient(fakePreset(fake, format));
    const first = lastStop(await collect(client.stream(simpleRequest()))).message;
    const history = answered(first);
    const second = lastStop(await collect(client.stream(simpleRequest({ messages: history })))).message;
    expect(idsOf(second)[0]).not.toBe('call_0');
    await collect(client.stream(simpleRequest({ messages: answered(second, history) })));
    const sent = wireCallIds(format, fake.requests[2]?.body);
    expect(new Set(sent).size).toBe(2);
    expect(wireResultIds(format, fake.requests[2]?.body)).toEqual(sent);
  });

  it(`an id over ${MAX_TOOL_ID_BYTES} bytes is replaced by a short one`, async () => {
    fake = await startFakeProvider({ format, replies: [{ toolCalls: [{ name: 'read_file', input: { path: 'a' }, id: `call_${'x'.repeat(5000)}` }] }] });
    const events = await collect(fakeClient(fakePreset(fake, format)).stream(simpleRequest()));
    const [id] = idsOf(lastStop(events).message);
    expect(Buffer.byteLength(id ?? '')).toBeLessThanOrEqual(64);
    expect(events.find((e) => e.type === 'tool_call_start')).toMatchObject({ id });
  });
});

function wireCallIds(format: FakeFormat, body: unknown): string[] {
  const messages = (body as { messages: Record<string, unknown>[] }).messages;
  if (format === 'anthropic') {
    return messages.flatMap((m) => (Array.isArray(m['content']) ? (m['content'] as Record<string, unknown>[]) : []).filter((b) => b['type'] === 'tool_use').map((b) => String(b['id'])));
  }
  return messages.flatMap((m) => ((m['tool_calls'] as Record<string, unknown>[] | undefined) ?? []).map((c) => String(c['id'])));
}

function wireResultIds(format: FakeFormat, body: unknown): string[] {
  const messages = (body as { messages: Record<string, unknown>[] }).messages;
  if (format === 'anthropic') {
    return messages.flatMap((m) => (Array.isArray(m['content']) ? (m['content'] as Record<string, unknown>[]) : []).filter((b) => b['type'] === 'tool_result').map((b) => String(b['tool_use_id'])));
  }
  return messages.filter((m) => m['role'] === 'tool').map((m) => String(m['tool_call_id']));
}
