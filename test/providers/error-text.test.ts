/**
 * What a failed request's message quotes from the server: never the API key it was sent, and never
 * more than a few hundred characters of the server's text, whatever the error's shape.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeProvider, type FakeProvider } from '../support/fake-provider.js';
import { collectFailure, fakeClient, fakePreset, simpleRequest } from '../support/provider-helpers.js';

const KEY = 'sk-live-0123456789abcdef';

let fake: FakeProvider | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

async function failWith(format: 'anthropic' | 'openai', status: number, body: unknown) {
  fake = await startFakeProvider({ format, replies: () => ({ fault: { kind: 'status', status, body } }) });
  const client = fakeClient(fakePreset(fake, format), { apiKey: KEY, maxRetries: 0 });
  return (await collectFailure(client.stream(simpleRequest()))).error;
}

describe('provider error messages', () => {
  it.each(['anthropic', 'openai'] as const)('%s: a server quoting the refused key does not put it in the message', async (format) => {
    const error = await failWith(format, 401, { error: { message: `Incorrect API key provided: ${KEY}. Check it.`, type: 'authentication_error' } });
    expect(error.kind).toBe('auth');
    expect(error.message).not.toContain(KEY);
    expect(error.message).toContain('Incorrect API key provided: [redacted]. Check it.');
  });

  it('a key quoted in a plain-text answer is left out too', async () => {
    const error = await failWith('openai', 403, `forbidden for Bearer ${KEY}`);
    expect(error.message).not.toContain(KEY);
  });

  it('a huge error message is clipped', async () => {
    const error = await failWith('anthropic', 400, { type: 'error', error: { type: 'invalid_request_error', message: `bad: ${'x'.repeat(200_000)}` } });
    expect(error.message).toContain('bad: xxx');
    expect(error.message.length).toBeLessThan(1000);
  });

  it.each(['anthropic', 'openai'] as const)('%s: a huge error event mid-answer is clipped', async (format) => {
    fake = await startFakeProvider({ format, replies: () => ({ text: 'partial', fault: { kind: 'error_event', afterEvents: 2, errorType: 'invalid_request_error', message: `bad: ${'y'.repeat(200_000)}` } }) });
    const { error } = await collectFailure(fakeClient(fakePreset(fake, format), { maxRetries: 0 }).stream(simpleRequest()));
    expect(error.message).toContain('bad: yyy');
    expect(error.message.length).toBeLessThan(1000);
  });

  it('a validation list thousands of entries long is clipped', async () => {
    const detail = Array.from({ length: 5000 }, (_, i) => ({ loc: ['body', 'messages', i, 'content'], msg: 'Field required', type: 'missing' }));
    const error = await failWith('openai', 422, { detail });
    expect(error.message).toContain('body.messages.0.content: Field required; body.messages.1.content');
    expect(error.message.length).toBeLessThan(1000);
  });
});
