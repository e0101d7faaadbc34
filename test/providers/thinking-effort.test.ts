import { afterEach, describe, expect, it } from 'vitest';
import type { Preset } from '../../src/config/types.js';
import { claudeThinking, effortFor } from '../../src/providers/anthropic-models.js';
import { buildAnthropicBody } from '../../src/providers/anthropic-request.js';
import type { ModelRequest, ThinkingEffort } from '../../src/providers/types.js';
import { startFakeProvider, type FakeProvider, type RecordedRequest, type ScriptedReply } from '../support/fake-provider.js';
import { collect, collectFailure, fakeClient, fakePreset, lastStop, simpleRequest } from '../support/provider-helpers.js';

type Body = Record<string, unknown>;

let fake: FakeProvider | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

/** Sends one streamed request per case to the fake Anthropic server and returns the bodies it recorded. */
async function recordedBodies(model: string, requests: readonly Partial<ModelRequest>[], overrides: Partial<Preset> = {}): Promise<Body[]> {
  fake = await startFakeProvider({ format: 'anthropic', replies: () => ({ text: 'ok' }) });
  const client = fakeClient(fakePreset(fake, 'anthropic', { model, ...overrides }));
  for (const r of requests) lastStop(await collect(client.stream(simpleRequest({ maxTokens: 16_000, ...r }))));
  return fake.requests.map((r) => r.body as Body);
}

const thinkingOf = (b: Body | undefined): { thinking: unknown; output_config: unknown } => ({
  thinking: b?.['thinking'],
  output_config: b?.['output_config'],
});

describe('Anthropic thinking and effort, per model (streamed over HTTP)', () => {
  it('never sends output_config to Claude models that do not take effort; their effort becomes a budget', async () => {
    for (const model of ['claude-sonnet-4-5-20250929', 'claude-haiku-4-5', 'claude-opus-4-1-20250805', 'claude-3-7-sonnet-20250219']) {
      const [low, max] = await recordedBodies(model, [{ thinkingEffort: 'low' }, { thinkingEffort: 'max' }]);
      expect(thinkingOf(low), model).toEqual({ thinking: { type: 'enabled', budget_tokens: 4000 }, output_config: undefined });
      expect(thinkingOf(max), model).toEqual({ thinking: { type: 'enabled', budget_tokens: 14_400 }, output_config: undefined });
      await fake?.close();
      fake = undefined;
    }
  });

  it('sends each model only effort levels it documents, stepping down (never up) to the nearest one', async () => {
    const cases: [string, ThinkingEffort, Body][] = [
      // Opus 4.5: effort (low..high) beside a budget; it predates adaptive thinking.
      ['claude-opus-4-5-20251101', 'max', { thinking: { type: 'enabled', budget_tokens: 14_400 }, output_config: { effort: 'high' } }],
      ['claude-opus-4-6', 'xhigh', { thinking: { type: 'adaptive' }, output_config: { effort: 'high' } }],
      ['claude-sonnet-4-6', 'max', { thinking: { type: 'adaptive' }, output_config: { effort: 'max' } }],
      // From Opus 4.7 / Sonnet 5 on, and on Mythos, thinking text is hidden unless asked for.
      ['claude-opus-4-7', 'xhigh', { thinking: { type: 'adaptive', display: 'summarized' }, output_config: { effort: 'xhigh' } }],
      ['claude-mythos-preview', 'xhigh', { thinking: { type: 'adaptive', display: 'summarized' }, output_config: { effort: 'high' } }],
      ['claude-sonnet-5', 'minimal', { thinking: { type: 'adaptive', display: 'summarized' }, output_config: { effort: 'low' } }],
    ];
    for (const [model, effort, expected] of cases) {
      const [body] = await recordedBodies(model, [{ thinkingEffort: effort }]);
      expect(thinkingOf(body), `${model} ${effort}`).toEqual(expected);
      await fake?.close();
      fake = undefined;
    }
  });

  it('turns thinking off the way each model accepts: disabled, between_tools, or (cannot) lowest effort', async () => {
    const cases: [string, Body][] = [
      ['claude-sonnet-4-6', { thinking: { type: 'disabled' }, output_config: undefined }],
      ['claude-sonnet-5-5', { thinking: { type: 'between_tools' }, output_config: undefined }],
      ['claude-opus-5-5', { thinking: undefined, output_config: { effort: 'low' } }],
      ['claude-mythos-preview', { thinking: undefined, output_config: { effort: 'low' } }],
    ];
    for (const [model, expected] of cases) {
      const [body] = await recordedBodies(model, [{ thinking: false, thinkingEffort: 'max' }]);
      expect(thinkingOf(body), model).toEqual(expected);
      await fake?.close();
      fake = undefined;
    }
  });

  it('leaves the DeepSeek request exactly as it was: enabled + ignored budget + effort, explicit disabled', async () => {
    const efforts: ThinkingEffort[] = ['minimal', 'low', 'medium', 'high', 'xhigh', 'max'];
    const bodies = await recordedBodies('deepseek-v4-flash', [...efforts.map((e) => ({ thinkingEffort: e })), {}, { thinking: false }]);
    expect(bodies.map(thinkingOf)).toEqual([
      { thinking: { type: 'enabled', budget_tokens: 1600 }, output_config: { effort: 'low' } },
      { thinking: { type: 'enabled', budget_tokens: 4000 }, output_config: { effort: 'low' } },
      { thinking: { type: 'enabled', budget_tokens: 8000 }, output_config: { effort: 'medium' } },
      { thinking: { type: 'enabled', budget_tokens: 12_000 }, output_config: { effort: 'high' } },
      { thinking: { type: 'enabled', budget_tokens: 13_600 }, output_config: { effort: 'xhigh' } },
      { thinking: { type: 'enabled', budget_tokens: 14_400 }, output_config: { effort: 'max' } },
      { thinking: { type: 'enabled', budget_tokens: 12_000 }, output_config: undefined },
      { thinking: { type: 'disabled' }, output_config: undefined },
    ]);
  });

  it("treats a claude-* name on DeepSeek's host as DeepSeek (it maps those names to its own models)", () => {
    const req: ModelRequest = { system: '', tools: [], messages: [], maxTokens: 16_000, thinking: true, thinkingEffort: 'xhigh' };
    const onDeepSeek = buildAnthropicBody('claude-sonnet-4-5', req, 'https://api.deepseek.com/anthropic');
    expect(thinkingOf(onDeepSeek)).toEqual(thinkingOf(buildAnthropicBody('deepseek-v4-flash', req)));
    expect(thinkingOf(buildAnthropicBody('claude-sonnet-4-5', req, 'https://api.anthropic.com'))).toEqual({
      thinking: { type: 'enabled', budget_tokens: 13_600 },
      output_config: undefined,
    });
  });
});

describe('Claude model ids', () => {
  it('reads the spellings of the cloud platforms and gateways, and date suffixes are not versions', () => {
    expect(claudeThinking('anthropic.claude-opus-4-6-v1')?.adaptive).toBe(true);
    expect(claudeThinking('anthropic/claude-opus-4.6')?.adaptive).toBe(true);
    expect(claudeThinking('claude-opus-4-20250514')).toEqual({ adaptive: false, efforts: [], off: 'disabled', summarize: false });
    expect(claudeThinking('deepseek-v4-pro')).toBeUndefined();
    expect(claudeThinking('kimi-k2.6')).toBeUndefined();
    expect(effortFor('xhigh', [])).toBeUndefined();
  });

  it('reads versions as numbers (4.10 after 4.9, before 5) and a name without one as the newest of its family', () => {
    // A two-digit minor is not a tenth: claude-opus-4-10 is no Opus 5.
    expect(claudeThinking('claude-sonnet-4-10')).toEqual(claudeThinking('claude-sonnet-4-6'));
    expect(claudeThinking('claude-opus-4-12')).toEqual(claudeThinking('claude-opus-4-7'));
    expect(claudeThinking('claude-haiku-5-10')).toEqual(claudeThinking('claude-haiku-5-5'));
    // An alias with no number must not get the budget-only shape the newest models refuse.
    expect(claudeThinking('claude-opus-latest')).toEqual(claudeThinking('claude-opus-9'));
    expect(claudeThinking('anthropic/claude-sonnet')).toEqual(claudeThinking('claude-sonnet-9'));
    expect(claudeThinking('claude-haiku-latest')?.adaptive).toBe(true);
    expect(claudeThinking('claude-mythos-preview')?.efforts).not.toContain('xhigh');
  });
});

/** A strict compatible server: any top-level field outside `allowed` gets the given refusal. */
function strict(allowed: readonly string[], status: number, refusal: (field: string) => unknown): (req: RecordedRequest) => ScriptedReply {
  return (req) => {
    const extra = Object.keys(req.body as Body).find((k) => !allowed.includes(k));
    return extra ? { fault: { kind: 'status', status, body: refusal(extra) } } : { text: 'fine' };
  };
}

const PYDANTIC = (field: string): unknown => ({
  detail: [{ type: 'extra_forbidden', loc: ['body', field], msg: 'Extra inputs are not permitted', input: {} }],
});

describe('a server that refuses a field names the field and the preset setting', () => {
  const ANTHROPIC_FIELDS = ['model', 'max_tokens', 'stream', 'system', 'messages', 'tools', 'thinking'];

  it('anthropic: output_config refused by a strict server (422, pydantic shape) → thinking_effort, not retried', async () => {
    fake = await startFakeProvider({ format: 'anthropic', replies: strict(ANTHROPIC_FIELDS, 422, PYDANTIC) });
    const client = fakeClient(fakePreset(fake, 'anthropic', { name: 'glm', model: 'glm-5' }));
    const { error } = await collectFailure(client.stream(simpleRequest({ thinkingEffort: 'high' })));
    expect(error.kind).toBe('bad_request');
    expect(error.status).toBe(422);
    expect(error.message).toContain('does not accept the request field "output_config"');
    expect(error.message).toContain('thinking_effort in preset "glm"');
    // The pydantic detail list is quoted as words, not as raw JSON.
    expect(error.message).toContain('(HTTP 422: body.output_config: Extra inputs are not permitted)');
    expect(fake.requests).toHaveLength(1);
    // Without an effort the same server is happy: the hint was the right one.
    lastStop(await collect(client.stream(simpleRequest())));
  });

  it('anthropic: a model that refuses thinking.type disabled → says it cannot turn thinking off', async () => {
    const said = { type: 'error', error: { type: 'invalid_request_error', message: '"thinking.type.disabled" is not supported for this model.' } };
    fake = await startFakeProvider({ format: 'anthropic', replies: [{ fault: { kind: 'status', status: 400, body: said } }] });
    const client = fakeClient(fakePreset(fake, 'anthropic', { name: 'mine', model: 'some-model' }));
    const { error } = await collectFailure(client.stream(simpleRequest({ thinking: false })));
    expect(error.message).toContain('"thinking"');
    expect(error.message).toContain('set thinking = true in preset "mine"');
    expect(error.message).toContain('is not supported for this model');
  });

  it('openai: reasoning_effort refused (400, OpenAI shape) → thinking_effort', async () => {
    const refusal = (field: string): unknown => ({ error: { message: `Unrecognized request argument supplied: ${field}`, type: 'invalid_request_error' } });
    const allowed = ['model', 'stream', 'stream_options', 'max_tokens', 'messages', 'tools'];
    fake = await startFakeProvider({ format: 'openai', replies: strict(allowed, 400, refusal) });
    const client = fakeClient(fakePreset(fake, 'openai', { name: 'strict-oai' }));
    const { error } = await collectFailure(client.stream(simpleRequest({ thinkingEffort: 'low' })));
    expect(error.message).toMatch(/request field "reasoning_effort"\. Change or remove thinking_effort in preset "strict-oai"/);
  });

  it('keeps the plain message for a 400 that is not about a field it sent', async () => {
    const said = { error: { message: 'messages: text content blocks must be non-empty', type: 'invalid_request_error' } };
    fake = await startFakeProvider({ format: 'anthropic', replies: [{ fault: { kind: 'status', status: 400, body: said } }] });
    const { error } = await collectFailure(fakeClient(fakePreset(fake, 'anthropic')).stream(simpleRequest({ thinkingEffort: 'high' })));
    expect(error.message).toBe('The provider rejected the request (HTTP 400): messages: text content blocks must be non-empty');
  });
});
