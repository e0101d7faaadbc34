/**
 * OpenAI chat-completions client: POST {base_url}/chat/completions with stream: true.
 */
import type { Preset } from '../config/types.js';
import { joinUrl } from './anthropic-client.js';
import { buildOpenAiBody } from './openai-request.js';
import { OpenAiAssembler } from './openai-stream.js';
import { requestBody } from './request-body.js';
import { runStream, type RunnerOptions } from './stream-runner.js';
import { toolIdsIn } from './tool-ids.js';
import type { ModelClient, ModelRequest, StreamEvent } from './types.js';
import { userAgent } from './user-agent.js';

export function createOpenAiClient(preset: Preset, apiKey: string | undefined, runner: RunnerOptions): ModelClient {
  const url = joinUrl(preset.baseUrl, '/chat/completions');
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'text/event-stream', 'user-agent': userAgent() };
  // Local servers need no key: send no Authorization header rather than an empty one.
  if (apiKey) headers['authorization'] = `Bearer ${apiKey}`;
  return {
    stream(request: ModelRequest): AsyncIterable<StreamEvent> {
      const body = requestBody(buildOpenAiBody(preset, request));
      const usedIds = toolIdsIn(request.messages);
      const note = runner.log;
      return runStream({ url, headers, body, signal: request.signal, newAssembler: () => new OpenAiAssembler({ usedIds, ...(note ? { note } : {}) }) }, runner);
    },
  };
}
