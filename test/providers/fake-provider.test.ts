import { afterEach, describe, expect, it } from 'vitest';
import { startFakeProvider, type FakeProvider } from '../support/fake-provider.js';

let fake: FakeProvider | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

describe('fake provider', () => {
  it('records method, path, headers, raw and parsed body; serves /models', async () => {
    fake = await startFakeProvider({ format: 'openai', models: ['m1', 'm2'], replies: [{ text: 'x' }] });
    const models = await fetch(`${fake.baseUrl}/models`);
    expect(await models.json()).toMatchObject({ data: [{ id: 'm1' }, { id: 'm2' }] });
    const raw = JSON.stringify({ model: 'm1', stream: true });
    const res = await fetch(`${fake.baseUrl}/chat/completions`, { method: 'POST', body: raw, headers: { 'x-probe': 'yes' } });
    expect(res.headers.get('content-type')).toBe('text/event-stream');
    expect(await res.text()).toMatch(/"content":"x".*finish_reason":"stop".*data: \[DONE\]/s);
    expect(fake.requests.map((r) => [r.method, r.path])).toEqual([
      ['GET', '/models'],
      ['POST', '/chat/completions'],
    ]);
    expect(fake.requests[1]).toMatchObject({ raw, body: { model: 'm1', stream: true }, headers: { 'x-probe': 'yes' } });
  });

  it('passes each request and its index to a reply function, and fails loudly when a list runs out', async () => {
    const seen: number[] = [];
    fake = await startFakeProvider({
      format: 'anthropic',
      replies: (req, i) => {
        seen.push(i);
        return { text: `reply ${i} to ${(req.body as { model: string }).model}` };
      },
    });
    const post = () => fetch(`${fake?.baseUrl}/v1/messages`, { method: 'POST', body: '{"model":"m"}' }).then((r) => r.text());
    expect(await post()).toContain('"text":"rep"');
    await post();
    expect(seen).toEqual([0, 1]);
    await fake.close();
    fake = await startFakeProvider({ format: 'anthropic', replies: [] });
    const res = await fetch(`${fake.baseUrl}/v1/messages`, { method: 'POST', body: '{}' });
    expect(res.status).toBe(500);
    expect(await res.text()).toContain('no scripted reply for request #1');
  });
});
