/**
 * Prompt-cache breakpoints on Anthropic-format requests: where they go, that they stay within the
 * API's rules, which presets get them, that DeepSeek's body is exactly what it was, and that a
 * gateway refusing the field is told which setting turns it off. The fake's caching model
 * (fake-provider-cache.ts) is checked against the documented rules it implements.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { promptCacheFor } from '../../src/providers/anthropic-cache.js';
import { buildAnthropicBody } from '../../src/providers/anthropic-request.js';
import type { Message, ModelRequest } from '../../src/providers/types.js';
import { BUILTIN_PRESETS } from '../../src/config/defaults.js';
import { PromptCacheModel } from '../support/fake-provider-cache.js';
import { startFakeProvider, type FakeProvider } from '../support/fake-provider.js';
import { collect, collectFailure, fakeClient, fakePreset, simpleRequest } from '../support/provider-helpers.js';

type Json = Record<string, unknown>;

const TOOL = { name: 'read_file', description: 'Read a file', inputSchema: { type: 'object' as const, properties: { path: { type: 'string' } } } };
const SYSTEM = 'You are a careful coding agent. '.repeat(200);

/** A conversation of `turns` tool-call rounds, each call answered. */
function conversation(turns: number, callsPerTurn = 1): Message[] {
  const out: Message[] = [{ role: 'user', content: [{ type: 'text', text: 'Fix the parser.' }] }];
  for (let t = 0; t < turns; t++) {
    const ids = Array.from({ length: callsPerTurn }, (_, i) => `toolu_${t}_${i}`);
    out.push({
      role: 'assistant',
      content: [{ type: 'thinking', thinking: 'plan', signature: 'sig' }, { type: 'text', text: `Step ${t}.` }, ...ids.map((id) => ({ type: 'tool_use' as const, id, name: 'read_file', input: { path: `f${t}.ts` } }))],
    });
    out.push({ role: 'user', content: ids.map((id) => ({ type: 'tool_result' as const, toolUseId: id, content: `contents of ${id} `.repeat(20) })) });
  }
  return out;
}

function request(messages: Message[]): ModelRequest {
  return { system: SYSTEM, tools: [TOOL], messages, maxTokens: 4096, thinking: false };
}

const marked = (body: Json): string[] => {
  const found: string[] = [];
  const walk = (v: unknown, path: string): void => {
    if (Array.isArray(v)) v.forEach((x, i) => walk(x, `${path}[${i}]`));
    else if (typeof v === 'object' && v !== null) {
      if ('cache_control' in v) found.push(path);
      for (const [k, x] of Object.entries(v)) if (k !== 'cache_control') walk(x, `${path}.${k}`);
    }
  };
  walk(body, '');
  return found;
};

describe('breakpoint placement', () => {
  const cache = { ttl: '5m' as const };

  it('marks the system prompt, the conversation tail and where the previous request ended; never more than 4', () => {
    const body = buildAnthropicBody('claude-sonnet-4-5', request(conversation(3)), 'https://api.anthropic.com', cache);
    expect(marked(body)).toEqual(['.system[0]', '.messages[4].content[0]', '.messages[6].content[0]']);
    expect(body['system']).toEqual([{ type: 'text', text: SYSTEM, cache_control: { type: 'ephemeral' } }]);
    for (let n = 0; n < 8; n++) {
      expect(marked(buildAnthropicBody('claude-sonnet-4-5', request(conversation(n, 12)), '', cache)).length).toBeLessThanOrEqual(4);
    }
  });

  it('the prefix breakpoint does not move within a session: the system block is byte-identical on every request', () => {
    const first = JSON.stringify(buildAnthropicBody('claude-sonnet-4-5', request(conversation(0)), '', cache)['system']);
    for (let n = 1; n < 6; n++) expect(JSON.stringify(buildAnthropicBody('claude-sonnet-4-5', request(conversation(n)), '', cache)['system'])).toBe(first);
  });

  it('without a system prompt the last tool carries the prefix breakpoint; thinking blocks never carry one', () => {
    const body = buildAnthropicBody('claude-sonnet-4-5', { ...request(conversation(1)), system: '' }, '', cache);
    expect((body['tools'] as Json[])[0]?.['cache_control']).toEqual({ type: 'ephemeral' });
    const assistant = (body['messages'] as Json[])[1]?.['content'] as Json[];
    expect(assistant[0]?.['cache_control']).toBeUndefined();
  });

  it('cache_ttl = "1h" asks for the hour on every breakpoint', () => {
    const body = buildAnthropicBody('claude-sonnet-4-5', request(conversation(2)), '', { ttl: '1h' });
    expect(JSON.stringify(body).match(/"cache_control":\{"type":"ephemeral","ttl":"1h"\}/g)).toHaveLength(3);
  });
});

describe('which presets get breakpoints', () => {
  const base = fakePreset({ baseUrl: 'https://api.anthropic.com' }, 'anthropic');

  it('Claude models yes; DeepSeek (it caches by itself), other models and the OpenAI format no; prompt_cache decides when set', () => {
    expect(promptCacheFor({ ...base, model: 'claude-sonnet-4-5' })).toEqual({ ttl: '5m' });
    expect(promptCacheFor({ ...base, baseUrl: 'https://gateway.example/anthropic', model: 'anthropic/claude-opus-4.6' })).toEqual({ ttl: '5m' });
    expect(promptCacheFor({ ...base, model: 'claude-sonnet-4-5', cacheTtl: '1h' })).toEqual({ ttl: '1h' });
    expect(promptCacheFor({ ...base, baseUrl: 'https://api.deepseek.com/anthropic', model: 'claude-sonnet-4-5' })).toBeUndefined();
    for (const p of BUILTIN_PRESETS) expect(promptCacheFor(p), p.name).toBeUndefined();
    expect(promptCacheFor({ ...base, baseUrl: 'https://api.moonshot.ai/anthropic', model: 'kimi-k3' })).toBeUndefined();
    expect(promptCacheFor({ ...base, baseUrl: 'https://api.moonshot.ai/anthropic', model: 'kimi-k3', promptCache: true })).toEqual({ ttl: '5m' });
    expect(promptCacheFor({ ...base, model: 'claude-sonnet-4-5', promptCache: false })).toBeUndefined();
    expect(promptCacheFor({ ...base, format: 'openai', model: 'claude-sonnet-4-5' })).toBeUndefined();
  });
});

describe('DeepSeek keeps exactly the body it got before', () => {
  let fake: FakeProvider | undefined;
  afterEach(async () => fake?.close());

  it('the built-in flash preset: no cache_control anywhere, system a plain string, messages as they were', async () => {
    fake = await startFakeProvider({ format: 'anthropic', replies: [{ text: 'ok' }] });
    const flash = BUILTIN_PRESETS.find((p) => p.name === 'flash');
    if (!flash) throw new Error('no flash preset');
    // The built-in preset, pointed at the fake: its host is no longer deepseek.com, so the model
    // name must still say DeepSeek (it does: deepseek-v4-flash).
    const client = fakeClient({ ...flash, baseUrl: fake.baseUrl });
    const messages = conversation(1);
    await collect(client.stream({ ...request(messages), thinking: true }));
    expect(fake.requests[0]?.raw).toBe(
      JSON.stringify({
        model: 'deepseek-v4-flash',
        max_tokens: 4096,
        stream: true,
        system: SYSTEM,
        messages: [
          { role: 'user', content: [{ type: 'text', text: 'Fix the parser.' }] },
          {
            role: 'assistant',
            content: [
              { type: 'thinking', thinking: 'plan', signature: 'sig' },
              { type: 'text', text: 'Step 0.' },
              { type: 'tool_use', id: 'toolu_0_0', name: 'read_file', input: { path: 'f0.ts' } },
            ],
          },
          { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_0_0', content: 'contents of toolu_0_0 '.repeat(20) }] },
        ],
        tools: [{ name: 'read_file', description: 'Read a file', input_schema: TOOL.inputSchema }],
        thinking: { type: 'enabled', budget_tokens: 3072 },
      }),
    );
  });
});

describe('a gateway that refuses cache_control', () => {
  let fake: FakeProvider | undefined;
  afterEach(async () => fake?.close());

  it('names the preset setting that turns the field off', async () => {
    fake = await startFakeProvider({ format: 'anthropic', rejectCacheControl: true, replies: [{ text: 'unused' }] });
    const preset = fakePreset(fake, 'anthropic', { name: 'claude-gw', model: 'claude-sonnet-4-5' });
    const { error } = await collectFailure(fakeClient(preset).stream(simpleRequest()));
    expect(error.kind).toBe('bad_request');
    expect(error.message).toMatch(/does not accept the request field "cache_control"/);
    expect(error.message).toMatch(/prompt_cache = false in preset "claude-gw"/);
  });
});

describe("the fake's caching model follows Anthropic's rules", () => {
  const body = (messages: Message[], ttl: '5m' | '1h' = '5m') => buildAnthropicBody('claude-sonnet-4-5', request(messages), '', { ttl });

  it('first request writes, the next reads everything the first wrote; below the minimum nothing is cached', () => {
    const model = new PromptCacheModel({ minTokens: 1024, now: () => 0 });
    const a = model.account(body(conversation(1)));
    expect(a.readTokens).toBe(0);
    expect(a.writeTokens).toBe(a.totalTokens);
    const b = model.account(body(conversation(2)));
    expect(b.readTokens).toBe(a.totalTokens);
    expect(b.readTokens + b.writeTokens + b.inputTokens).toBe(b.totalTokens);
    const tiny = new PromptCacheModel({ minTokens: 1_000_000, now: () => 0 });
    expect(tiny.account(body(conversation(1))).writeTokens).toBe(0);
  });

  it('an entry expires after its TTL unless read; the 1-hour TTL survives a 10-minute gap', () => {
    let now = 0;
    const model = new PromptCacheModel({ now: () => now });
    model.account(body(conversation(1)));
    now += 10 * 60_000;
    const cold = model.account(body(conversation(2)));
    // Ten minutes on, the 5-minute entries are gone: nothing is read.
    expect(cold.readTokens).toBe(0);
    const hour = new PromptCacheModel({ now: () => now });
    hour.account(body(conversation(1), '1h'));
    now += 10 * 60_000;
    expect(hour.account(body(conversation(2), '1h')).readTokens).toBeGreaterThan(0);
  });

  it('the 20-block lookback: a breakpoint on the tail alone misses after a turn of many parallel calls', () => {
    const first = conversation(1);
    // 12 parallel calls add 1 + 12 + 12 blocks: beyond the lookback from the new tail.
    const wide = [...first, ...conversation(2, 12).slice(3)];
    const tailOnly = body(wide);
    // Without the previous-tail breakpoint (what a tail-only client sends) the lookback misses...
    for (const m of (tailOnly['messages'] as Json[]).slice(0, -1)) for (const b of m['content'] as Json[]) delete b['cache_control'];
    const naive = new PromptCacheModel({ now: () => 0 });
    const written = naive.account(body(first)).totalTokens;
    expect(naive.account(tailOnly).readTokens).toBeLessThan(written);
    // ...while lindwyrm's breakpoints read all of it.
    const ours = new PromptCacheModel({ now: () => 0 });
    ours.account(body(first));
    expect(ours.account(body(wide)).readTokens).toBe(written);
  });

  it('refuses what the API refuses: five breakpoints, one on a thinking block, 1h after 5m', () => {
    const model = new PromptCacheModel();
    const five = body(conversation(2));
    const msgs = five['messages'] as Json[];
    for (const m of msgs) for (const b of m['content'] as Json[]) if (b['type'] === 'text') b['cache_control'] = { type: 'ephemeral' };
    expect(() => model.account(five)).toThrow(/A maximum of 4 blocks with cache_control/);
    const thinking = body(conversation(1));
    ((thinking['messages'] as Json[])[1]?.['content'] as Json[])[0]!['cache_control'] = { type: 'ephemeral' };
    expect(() => model.account(thinking)).toThrow(/thinking/);
    const order = body(conversation(1));
    ((order['messages'] as Json[])[2]?.['content'] as Json[])[0]!['cache_control'] = { type: 'ephemeral', ttl: '1h' };
    expect(() => model.account(order)).toThrow(/1h/);
  });
});
