/**
 * Anthropic Messages client: POST {base_url}/v1/messages with stream: true.
 */
import type { Preset } from '../config/types.js';
import { promptCacheFor } from './anthropic-cache.js';
import { buildAnthropicBody } from './anthropic-request.js';
import { AnthropicAssembler } from './anthropic-stream.js';
import { requestBody } from './request-body.js';
import { runStream, type RunnerOptions } from './stream-runner.js';
import { toolIdsIn } from './tool-ids.js';
import type { ModelClient, ModelRequest, StreamEvent } from './types.js';
import { userAgent } from './user-agent.js';

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
    'user-agent': userAgent(),
  };
  if (apiKey) headers['x-api-key'] = apiKey;
  // Decided once per client: the breakpoints must not come and go within a session.
  const cache = promptCacheFor(preset);
  return {
    stream(request: ModelRequest): AsyncIterable<StreamEvent> {
      const body = requestBody(buildAnthropicBody(preset.model, request, preset.baseUrl, cache));
      const usedIds = toolIdsIn(request.messages);
      const note = runner.log;
      return runStream({ url, headers, body, signal: request.signal, newAssembler: () => new AnthropicAssembler({ usedIds, ...(note ? { note } : {}) }) }, runner);
    },
  };
}
