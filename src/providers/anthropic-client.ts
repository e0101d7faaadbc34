/**
 * Anthropic Messages client: POST {base_url}/v1/messages with stream: true.
 */
import type { Preset } from '../config/types.js';
import { buildAnthropicBody } from './anthropic-request.js';
import { AnthropicAssembler } from './anthropic-stream.js';
import { runStream, type RunnerOptions } from './stream-runner.js';
import type { ModelClient, ModelRequest, StreamEvent } from './types.js';

export const ANTHROPIC_VERSION = '2023-06-01';

export function joinUrl(base: string, path: string): string {
  return `${base.replace(/\/+$/, '')}${path}`;
}

export function createAnthropicClient(preset: Preset, apiKey: string | undefined, runner: RunnerOptions): ModelClient {
  const url = joinUrl(preset.baseUrl, '/v1/messages');
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: 'text/event-stream',
    'anthropic-version': ANTHROPIC_VERSION,
  };
  if (apiKey) headers['x-api-key'] = apiKey;
  return {
    stream(request: ModelRequest): AsyncIterable<StreamEvent> {
      const body = JSON.stringify(buildAnthropicBody(preset.model, request, preset.baseUrl));
      return runStream({ url, headers, body, signal: request.signal, newAssembler: () => new AnthropicAssembler() }, runner);
    },
  };
}
