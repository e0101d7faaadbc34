/**
 * Streams that must end, and errors that say what happened: keep-alive comments and pings are
 * not progress, a runaway reply is cut at max_reply_bytes with memory bounded, a connection that
 * breaks after the answer began says so, and compressed bodies are decoded or named.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeProvider, type ContentEncoding, type FakeFormat, type FakeProvider, type ScriptedReply } from '../support/fake-provider.js';
import { collect, collectFailure, fakeClient, fakePreset, lastStop, simpleRequest, textOf } from '../support/provider-helpers.js';

let fake: FakeProvider | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

async function start(format: FakeFormat, replies: ScriptedReply[]) {
  fake = await startFakeProvider({ format, replies });
  return fake;
}

describe.each<FakeFormat>(['anthropic', 'openai'])('%s streams that must end', (format) => {
  it('a stream that only sends keep-alive comments after starting is stalled: dropped after stream_idle_timeout_ms', async () => {
    const f = await start(format, [{ text: 'half an answer', fault: { kind: 'stall', afterEvents: 4, keepAliveMs: 40 } }]);
    const client = fakeClient(fakePreset(f, format), { idleTimeoutMs: 400, maxRetries: 0 });
    const started = Date.now();
    const { error } = await collectFailure(client.stream(simpleRequest()));
    expect(error.kind).toBe('timeout');
    expect(error.message).toMatch(/stream_idle_timeout_ms/);
    // Comments kept arriving every 40 ms; the timer still ran out.
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  if (format === 'anthropic') {
    it('ping events are no more progress than comments', async () => {
      const f = await start(format, [{ text: 'half', fault: { kind: 'stall', afterEvents: 4, keepAliveMs: 40, pings: true } }]);
      const client = fakeClient(fakePreset(f, format), { idleTimeoutMs: 400, maxRetries: 0 });
      const { error } = await collectFailure(client.stream(simpleRequest()));
      expect(error.kind).toBe('timeout');
    });
  }

  it('a reply past max_reply_bytes is cut off with a clear message and what arrived kept, memory bounded', async () => {
    const f = await start(format, [{ text: 'Start. ', fault: { kind: 'endless', afterEvents: 3 } }]);
    const cap = 256 * 1024;
    const client = fakeClient(fakePreset(f, format), { maxReplyBytes: cap, maxRetries: 2 });
    const { events, error } = await collectFailure(client.stream(simpleRequest()));
    expect(error.kind).toBe('too_large');
    expect(error.message).toMatch(/max_reply_bytes \(256 KiB/);
    const shown = textOf(events, 'text_delta');
    expect(Buffer.byteLength(shown)).toBeLessThanOrEqual(cap);
    const kept = error.partial?.content.find((b) => b.type === 'text');
    expect(kept && kept.type === 'text' && kept.text.startsWith('S')).toBe(true);
    // Bounded: what is held is the cap and at most one event's worth more.
    expect(Buffer.byteLength(kept && kept.type === 'text' ? kept.text : '')).toBeLessThan(cap + 64 * 1024);
    // Not retried: a runaway is not transient.
    expect(f.requests.filter((r) => r.method === 'POST')).toHaveLength(1);
  });

  it('the default cap is 8 MiB', { timeout: 30_000 }, async () => {
    const f = await start(format, [{ text: 'Start. ', fault: { kind: 'endless', afterEvents: 3 } }]);
    const { events, error } = await collectFailure(fakeClient(fakePreset(f, format)).stream(simpleRequest()));
    expect(error.message).toMatch(/max_reply_bytes \(8 MiB/);
    expect(Buffer.byteLength(textOf(events, 'text_delta'))).toBeLessThanOrEqual(8 * 1024 * 1024);
  });

  it('a reset after the answer began says the connection broke mid-answer, not "could not reach"', async () => {
    const f = await start(format, [{ text: 'The first half of the answer', fault: { kind: 'reset', afterEvents: 4 } }]);
    const { error } = await collectFailure(fakeClient(fakePreset(f, format), { maxRetries: 0 }).stream(simpleRequest()));
    expect(error.kind).toBe('network');
    expect(error.message).toMatch(/broke mid-answer/);
    expect(error.message).not.toMatch(/Could not reach/);
  });

  it('a malformed HTTP chunk mid-answer is reported as the connection breaking mid-answer', async () => {
    const f = await start(format, [{ text: 'Some answer text', fault: { kind: 'bad_chunk', afterEvents: 3 } }]);
    const { error } = await collectFailure(fakeClient(fakePreset(f, format), { maxRetries: 0 }).stream(simpleRequest()));
    expect(error.message).toMatch(/broke mid-answer/);
  });

  it('a reset before any byte is still "could not reach" (and retried)', async () => {
    const f = await start(format, [{ fault: { kind: 'reset' } }, { text: 'second try' }]);
    const events = await collect(fakeClient(fakePreset(f, format), { maxRetries: 1 }).stream(simpleRequest()));
    expect(textOf(events, 'text_delta')).toBe('second try');
  });

  it.each<ContentEncoding>(['gzip', 'deflate', 'deflate-raw', 'br'])('decodes a %s-compressed stream', async (contentEncoding) => {
    const f = await start(format, [{ thinking: 'hmm', text: 'Compressed but whole: ü🐉.', contentEncoding }]);
    const events = await collect(fakeClient(fakePreset(f, format)).stream(simpleRequest()));
    expect(textOf(events, 'text_delta')).toBe('Compressed but whole: ü🐉.');
    expect(lastStop(events).reason).toBe('end_turn');
  });

  it('decodes a gzip-compressed error body and shows the provider\'s own message', async () => {
    const body = format === 'anthropic' ? { type: 'error', error: { type: 'authentication_error', message: 'invalid x-api-key' } } : { error: { message: 'Incorrect API key provided' } };
    const f = await start(format, [{ contentEncoding: 'gzip', fault: { kind: 'status', status: 401, body } }]);
    const { error } = await collectFailure(fakeClient(fakePreset(f, format)).stream(simpleRequest()));
    expect(error.kind).toBe('auth');
    expect(error.message).toMatch(format === 'anthropic' ? /invalid x-api-key/ : /Incorrect API key provided/);
  });

  it.each<[ContentEncoding, string]>([
    ['zstd-unsupported', 'zstd'],
    ['compress', 'compress'],
  ])('names an encoding it cannot decode (%s)', async (contentEncoding, name) => {
    const f = await start(format, [{ text: 'x', contentEncoding }]);
    const { error } = await collectFailure(fakeClient(fakePreset(f, format)).stream(simpleRequest()));
    expect(error.message).toContain(`compressed as "${name}"`);
  });
});
