/**
 * Small helpers for tests that drive a model client against the fake provider.
 */
import type { Preset } from '../../src/config/types.js';
import { createModelClient, type ModelClientOptions } from '../../src/providers/create-client.js';
import type { ModelClient, ModelRequest, StreamEvent } from '../../src/providers/types.js';
import { ProviderError } from '../../src/providers/types.js';
import type { FakeFormat, FakeProvider } from './fake-provider.js';

export function fakePreset(fake: Pick<FakeProvider, 'baseUrl'>, format: FakeFormat, overrides: Partial<Preset> = {}): Preset {
  return {
    name: `fake-${format}`,
    format,
    baseUrl: fake.baseUrl,
    model: 'fake-model',
    apiKeyEnv: ['FAKE_API_KEY'],
    keyOptional: false,
    thinking: true,
    vision: true,
    contextWindow: 128_000,
    maxTokens: 4096,
    echoReasoning: 'auto',
    proxy: undefined,
    ...overrides,
  };
}

export function fakeClient(preset: Preset, opts: Partial<ModelClientOptions> = {}): ModelClient {
  return createModelClient(preset, {
    apiKey: 'sk-test-key',
    noProxy: [],
    globalProxy: undefined,
    maxRetries: 2,
    idleTimeoutMs: 5_000,
    retryBaseMs: 1,
    env: {},
    ...opts,
  });
}

export function simpleRequest(overrides: Partial<ModelRequest> = {}): ModelRequest {
  return {
    system: 'You are a test.',
    tools: [],
    messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }],
    maxTokens: 4096,
    thinking: true,
    ...overrides,
  };
}

export async function collect(stream: AsyncIterable<StreamEvent>): Promise<StreamEvent[]> {
  const events: StreamEvent[] = [];
  for await (const ev of stream) events.push(ev);
  return events;
}

/** Runs a stream expected to fail; returns the events seen before the failure and the error. */
export async function collectFailure(stream: AsyncIterable<StreamEvent>): Promise<{ events: StreamEvent[]; error: ProviderError }> {
  const events: StreamEvent[] = [];
  try {
    for await (const ev of stream) events.push(ev);
  } catch (err) {
    if (err instanceof ProviderError) return { events, error: err };
    throw err;
  }
  throw new Error(`expected the stream to fail; it ended with ${events.length} events`);
}

export function lastStop(events: readonly StreamEvent[]): Extract<StreamEvent, { type: 'stop' }> {
  const stop = events[events.length - 1];
  if (!stop || stop.type !== 'stop') throw new Error(`last event is ${stop?.type ?? 'missing'}, not stop`);
  return stop;
}

export function textOf(events: readonly StreamEvent[], type: 'text_delta' | 'thinking_delta'): string {
  return events.map((e) => (e.type === type ? e.text : '')).join('');
}
