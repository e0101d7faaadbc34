import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeProvider, type FakeFormat, type FakeProvider, type ScriptedReply } from '../support/fake-provider.js';
import { collect, collectFailure, fakeClient, fakePreset, lastStop, simpleRequest, textOf } from '../support/provider-helpers.js';

let fake: FakeProvider | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

const OK: ScriptedReply = { text: 'recovered' };

async function start(format: FakeFormat, replies: ScriptedReply[]): Promise<FakeProvider> {
  fake = await startFakeProvider({ format, replies });
  return fake;
}

describe.each(['anthropic', 'openai'] as const)('%s: retries and failures', (format) => {
  it('retries 429 after the retry-after-ms the server asked for', async () => {
    const f = await start(format, [{ fault: { kind: 'status', status: 429, headers: { 'retry-after-ms': '150' } } }, OK]);
    const lines: string[] = [];
    const t0 = performance.now();
    const events = await collect(fakeClient(fakePreset(f, format), { log: (l) => lines.push(l) }).stream(simpleRequest()));
    expect(performance.now() - t0).toBeGreaterThanOrEqual(140);
    expect(textOf(events, 'text_delta')).toBe('recovered');
    expect(f.requests).toHaveLength(2);
    expect(lines.join('\n')).toMatch(/429.*Retrying in 0\.1 s \(retry 1 of 2\)/s);
  });

  it('honours Retry-After in (fractional) seconds on 503 and 529', async () => {
    const f = await start(format, [
      { fault: { kind: 'status', status: 503, headers: { 'retry-after': '0.2' } } },
      { fault: { kind: 'status', status: 529 } },
      OK,
    ]);
    const t0 = performance.now();
    await collect(fakeClient(fakePreset(f, format), { retryBaseMs: 1 }).stream(simpleRequest()));
    expect(performance.now() - t0).toBeGreaterThanOrEqual(190);
    expect(f.requests).toHaveLength(3);
  });

  it('does not retry a refused connection to this machine, and asks whether the server runs', async () => {
    // Bind and release a port so nothing listens on it.
    const server = createServer();
    await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
    const { port } = server.address() as AddressInfo;
    await new Promise<void>((closed) => server.close(() => closed()));
    const lines: string[] = [];
    const client = fakeClient(fakePreset({ baseUrl: `http://127.0.0.1:${port}` }, format), { maxRetries: 3, retryBaseMs: 200, log: (l) => lines.push(l) });
    const { error } = await collectFailure(client.stream(simpleRequest()));
    expect(error.kind).toBe('network');
    expect(error.message).toContain('ECONNREFUSED');
    expect(error.message).toContain('is the local model server running?');
    expect(lines.join('\n')).not.toMatch(/Retrying/);
  });

  it('retries 408 and 409, and gives up after max_retries with the last error', async () => {
    const f = await start(format, [
      { fault: { kind: 'status', status: 408 } },
      { fault: { kind: 'status', status: 409 } },
      { fault: { kind: 'status', status: 500, body: { error: { message: 'backend on fire' } } } },
      OK,
    ]);
    const { error } = await collectFailure(fakeClient(fakePreset(f, format), { maxRetries: 2 }).stream(simpleRequest()));
    expect(f.requests).toHaveLength(3);
    expect(error.kind).toBe('server');
    expect(error.status).toBe(500);
    expect(error.message).toContain('backend on fire');
    expect(error.message).toContain('Gave up after 2 retries');
  });

  it('obeys x-should-retry: false on a 500 and x-should-retry: true on a 400', async () => {
    const f = await start(format, [{ fault: { kind: 'status', status: 500, headers: { 'x-should-retry': 'false' } } }, OK]);
    const { error } = await collectFailure(fakeClient(fakePreset(f, format)).stream(simpleRequest()));
    expect(error.status).toBe(500);
    expect(f.requests).toHaveLength(1);
    await f.close();
    const g = await start(format, [{ fault: { kind: 'status', status: 400, headers: { 'x-should-retry': 'true' } } }, OK]);
    await collect(fakeClient(fakePreset(g, format)).stream(simpleRequest()));
    expect(g.requests).toHaveLength(2);
  });

  it('does not retry 400 and passes on the provider own error text', async () => {
    const said = 'The `content[].thinking` in the thinking mode must be passed back to the API.';
    const f = await start(format, [{ fault: { kind: 'status', status: 400, body: { error: { message: said, type: 'invalid_request_error' } } } }, OK]);
    const { error } = await collectFailure(fakeClient(fakePreset(f, format)).stream(simpleRequest()));
    expect(f.requests).toHaveLength(1);
    expect(error.kind).toBe('bad_request');
    expect(error.message).toContain(said);
  });

  it('401 names the key variables to check; 404 names the URL tried', async () => {
    const f = await start(format, [{ fault: { kind: 'status', status: 401, body: { type: 'error', error: { type: 'authentication_error', message: 'invalid x-api-key' } } } }]);
    const preset = fakePreset(f, format, { name: 'work', apiKeyEnv: ['WORK_KEY', 'OTHER_KEY'] });
    const { error } = await collectFailure(fakeClient(preset).stream(simpleRequest()));
    expect(error.kind).toBe('auth');
    expect(error.message).toMatch(/WORK_KEY or OTHER_KEY/);
    expect(error.message).toContain('invalid x-api-key');
    expect(f.requests).toHaveLength(1);

    const notFound = fakePreset({ baseUrl: `${f.baseUrl}/wrong` }, format);
    const { error: e404 } = await collectFailure(fakeClient(notFound).stream(simpleRequest()));
    expect(e404.kind).toBe('not_found');
    const tried = format === 'anthropic' ? `${f.baseUrl}/wrong/v1/messages` : `${f.baseUrl}/wrong/chat/completions`;
    expect(e404.message).toContain(tried);
  });

  it('an HTML error page from a proxy is reported by its title, not dumped as markup', async () => {
    const page = '<!DOCTYPE html>\n<html><head><title>502 Bad Gateway</title><style>body{margin:0}</style></head><body><h1>502</h1><hr>nginx</body></html>';
    const reply: ScriptedReply = { fault: { kind: 'status', status: 502, body: page, headers: { 'content-type': 'text/html' } } };
    const f = await start(format, [reply, reply, reply]);
    const { error } = await collectFailure(fakeClient(fakePreset(f, format)).stream(simpleRequest()));
    expect(error.kind).toBe('server');
    expect(f.requests).toHaveLength(3);
    expect(error.message).toContain('an HTML page titled "502 Bad Gateway" (from a proxy or gateway');
    expect(error.message).not.toContain('<');
  });

  it('a 200 that is not an event stream says what came instead: the JSON error text, or the HTML page title', async () => {
    const json = await start(format, [{ fault: { kind: 'status', status: 200, body: { error: { message: 'Insufficient Balance' } } } }]);
    const { error } = await collectFailure(fakeClient(fakePreset(json, format)).stream(simpleRequest()));
    expect(error.message).toBe('The provider answered with an error: Insufficient Balance');
    expect(json.requests).toHaveLength(1);
    await json.close();
    const portal = '<html>\n<head><title>Wi-Fi login</title></head><body>Accept the terms</body></html>';
    const html = await start(format, [{ fault: { kind: 'status', status: 200, body: portal, headers: { 'content-type': 'text/html' } } }]);
    const { error: e2 } = await collectFailure(fakeClient(fakePreset(html, format)).stream(simpleRequest()));
    expect(e2.kind).toBe('malformed');
    expect(e2.message).toMatch(/got "text\/html": an HTML page titled "Wi-Fi login"/);
  });

  it('413 says the request was too large and is not retried; 422 passes on the provider text', async () => {
    const tooBig = '<html><head><title>413 Request Entity Too Large</title></head><body>cloudflare</body></html>';
    const f = await start(format, [
      { fault: { kind: 'status', status: 413, body: tooBig, headers: { 'content-type': 'text/html' } } },
      { fault: { kind: 'status', status: 422, body: { error: { message: 'Failed to deserialize the JSON body' } } } },
    ]);
    const { error } = await collectFailure(fakeClient(fakePreset(f, format)).stream(simpleRequest()));
    expect(error.kind).toBe('bad_request');
    expect(error.message).toMatch(/too large for the provider \(HTTP 413\).*\/compact/);
    expect(f.requests).toHaveLength(1);
    const { error: e422 } = await collectFailure(fakeClient(fakePreset(f, format)).stream(simpleRequest()));
    expect(e422.message).toContain('(HTTP 422): Failed to deserialize the JSON body');
    expect(f.requests).toHaveLength(2);
  });

  it('retries a connection reset before the first byte', async () => {
    const f = await start(format, [{ fault: { kind: 'reset' } }, OK]);
    const events = await collect(fakeClient(fakePreset(f, format)).stream(simpleRequest()));
    expect(textOf(events, 'text_delta')).toBe('recovered');
    expect(f.requests).toHaveLength(2);
  });

  it('retries a reset after the first bytes when no part of the answer had arrived yet', async () => {
    const f = await start(format, [{ text: 'lost', fault: { kind: 'reset', afterEvents: 1 } }, OK]);
    const events = await collect(fakeClient(fakePreset(f, format)).stream(simpleRequest()));
    expect(textOf(events, 'text_delta')).toBe('recovered');
    expect(f.requests).toHaveLength(2);
  });

  it('never retries once text has streamed: a reset surfaces with the partial answer', async () => {
    const f = await start(format, [{ text: 'The answer is forty', fault: { kind: 'reset', afterEvents: 6 } }, OK]);
    const { events, error } = await collectFailure(fakeClient(fakePreset(f, format)).stream(simpleRequest()));
    expect(f.requests).toHaveLength(1);
    expect(error.kind).toBe('network');
    const shown = textOf(events, 'text_delta');
    expect(shown.length).toBeGreaterThan(0);
    expect(error.partial?.content).toEqual([{ type: 'text', text: shown }]);
  });

  it('reports a stall mid-stream as a timeout, with the partial answer, instead of waiting forever', async () => {
    const f = await start(format, [{ thinking: 'deep thought', text: 'half an ans', fault: { kind: 'stall', afterEvents: 7 } }, OK]);
    const t0 = performance.now();
    const { events, error } = await collectFailure(fakeClient(fakePreset(f, format), { idleTimeoutMs: 500, maxRetries: 0 }).stream(simpleRequest()));
    expect(error.kind).toBe('timeout');
    expect(performance.now() - t0).toBeLessThan(3000);
    expect(events.some((e) => e.type === 'thinking_delta')).toBe(true);
    expect(error.partial).toBeDefined();
    expect(f.requests).toHaveLength(1);
  });

  it('reports an error event mid-stream with what arrived so far', async () => {
    const f = await start(format, [{ text: 'partial words here', fault: { kind: 'error_event', afterEvents: 5, message: 'Overloaded right now' } }, OK]);
    const { error } = await collectFailure(fakeClient(fakePreset(f, format)).stream(simpleRequest()));
    expect(error.message).toContain('Overloaded right now');
    expect(error.partial?.content[0]).toMatchObject({ type: 'text' });
    expect(f.requests).toHaveLength(1);
  });

  it('retries an overload error event that arrives before any content', async () => {
    const f = await start(format, [{ text: 'never shown', fault: { kind: 'error_event', afterEvents: 1 } }, OK]);
    const events = await collect(fakeClient(fakePreset(f, format)).stream(simpleRequest()));
    expect(textOf(events, 'text_delta')).toBe('recovered');
    expect(f.requests).toHaveLength(2);
  });

  it('rejects malformed SSE data as malformed, not as an answer', async () => {
    const f = await start(format, [{ text: 'abcdefgh', fault: { kind: 'malformed', afterEvents: 4 } }, OK]);
    const { error } = await collectFailure(fakeClient(fakePreset(f, format)).stream(simpleRequest()));
    expect(error.kind).toBe('malformed');
    expect(f.requests).toHaveLength(1);
  });

  it('treats a stream that ends without its end marker as truncated, never as finished', async () => {
    const f = await start(format, [{ text: 'looks complete', fault: { kind: 'no_end' } }, OK]);
    const { events, error } = await collectFailure(fakeClient(fakePreset(f, format)).stream(simpleRequest()));
    expect(error.kind).toBe('truncated');
    expect(events.some((e) => e.type === 'stop')).toBe(false);
    expect(error.partial?.content).toEqual([{ type: 'text', text: 'looks complete' }]);
  });

  it('aborts through the request signal, with the partial answer', async () => {
    const f = await start(format, [{ text: 'a fairly long answer that keeps coming', chunkDelayMs: 20 }]);
    const controller = new AbortController();
    const stream = fakeClient(fakePreset(f, format)).stream(simpleRequest({ signal: controller.signal }));
    let error: unknown;
    let seen = 0;
    try {
      for await (const ev of stream) {
        if (ev.type === 'text_delta' && ++seen === 2) controller.abort();
      }
    } catch (err) {
      error = err;
    }
    expect(error).toMatchObject({ kind: 'aborted' });
    expect((error as { partial?: { content: unknown[] } }).partial?.content).toHaveLength(1);
  });

  it('a server that never answers times out and is retried; abort cuts a backoff short', async () => {
    const f = await start(format, [{ text: 'late', delayMs: 1500 }, { text: 'late', delayMs: 1500 }]);
    const { error } = await collectFailure(fakeClient(fakePreset(f, format), { idleTimeoutMs: 150, maxRetries: 1 }).stream(simpleRequest()));
    expect(error.kind).toBe('timeout');
    expect(f.requests).toHaveLength(2);

    const g = await start(format, [{ fault: { kind: 'status', status: 503, headers: { 'retry-after': '30' } } }, OK]);
    const controller = new AbortController();
    const t0 = performance.now();
    setTimeout(() => controller.abort(), 100);
    const { error: aborted } = await collectFailure(fakeClient(fakePreset(g, format)).stream(simpleRequest({ signal: controller.signal })));
    expect(aborted.kind).toBe('aborted');
    expect(performance.now() - t0).toBeLessThan(5000);
    expect(g.requests).toHaveLength(1);
  });

  it('a slow consumer is not mistaken for a silent server', async () => {
    const f = await start(format, [{ text: 'slow reader' }]);
    const events = [];
    for await (const ev of fakeClient(fakePreset(f, format), { idleTimeoutMs: 400, maxRetries: 0 }).stream(simpleRequest())) {
      events.push(ev);
      if (events.length === 3) await new Promise((r) => setTimeout(r, 1000));
    }
    expect(lastStop(events).reason).toBe('end_turn');
  });
});
