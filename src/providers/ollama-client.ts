/**
 * Ollama's native chat client: POST {base_url}/api/chat, streamed as NDJSON, with options.num_ctx
 * sized to the conversation. Ollama's default window is a few thousand tokens and it drops the
 * start of a longer prompt without a word, so every request asks for the room it needs, within
 * the preset's context_window and the model's own maximum.
 */
import type { Preset } from '../config/types.js';
import { joinUrl } from './anthropic-client.js';
import { buildOllamaBody } from './ollama-request.js';
import { OllamaAssembler } from './ollama-stream.js';
import { estimatePrompt } from './request-estimate.js';
import { runStream, type RunnerOptions } from './stream-runner.js';
import { toolIdsIn } from './tool-ids.js';
import { userAgent } from './user-agent.js';
import { ProviderError, type ModelClient, type ModelRequest, type StreamEvent } from './types.js';

export interface OllamaWindow {
  /** The most num_ctx may be: the preset's context_window within the model's maximum. */
  readonly limit: number;
  /** The num_ctx the model is loaded with now (/api/ps): reused while it fits, since a change reloads the model. */
  readonly loaded?: number;
  /** False when /api/show lists no "thinking" capability. */
  readonly canThink?: boolean;
}

/** The smallest window Ollama is asked for (its own old default). */
const MIN_NUM_CTX = 4096;
/** Reply room num_ctx leaves at least (or an eighth of the limit, or max_tokens when smaller). */
const REPLY_ROOM = 2048;
/** num_predict never goes below this, even in a window that is nearly full. */
const MIN_REPLY = 256;

/**
 * The num_ctx for a prompt that needs `needed` tokens: the size used before or the loaded one
 * while they fit (no reload), else the next power of two, never above the limit. It only grows
 * within a session: shrinking would reload the model and drop its prompt cache.
 */
export function chooseNumCtx(needed: number, limit: number, opts: { loaded?: number; previous?: number } = {}): number {
  if (opts.previous !== undefined && opts.previous >= needed) return Math.min(opts.previous, limit);
  if (opts.loaded !== undefined && opts.loaded >= needed && opts.loaded <= limit && opts.previous === undefined) return opts.loaded;
  let size = MIN_NUM_CTX;
  while (size < needed) size *= 2;
  return Math.min(limit, Math.max(size, opts.previous ?? 0));
}

/** The server's address without the OpenAI route's `/v1` (round-1 configs point the preset there). */
export function ollamaRoot(baseUrl: string): string {
  return baseUrl.replace(/\/+$/, '').replace(/\/v1$/, '');
}

export function createOllamaClient(preset: Preset, apiKey: string | undefined, runner: RunnerOptions, window: OllamaWindow): ModelClient {
  const url = joinUrl(ollamaRoot(preset.baseUrl), '/api/chat');
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/x-ndjson', 'user-agent': userAgent() };
  if (apiKey) headers['authorization'] = `Bearer ${apiKey}`;
  let previous: number | undefined;
  // The server's tokens per estimated token, learned from its counts: code and non-English text
  // take more than the estimate says, and num_ctx must hold the real count.
  let ratio = 1;

  async function* stream(request: ModelRequest): AsyncGenerator<StreamEvent> {
    const estimate = estimatePrompt(request).tokens;
    const usedIds = toolIdsIn(request.messages);
    const prompt = Math.ceil(estimate * ratio * 1.1);
    // Room for a usual reply, not the largest possible one: a window sized for max_tokens would
    // load a KV cache many times the conversation. num_predict then keeps the reply inside it.
    const needed = prompt + Math.min(request.maxTokens, Math.max(REPLY_ROOM, Math.floor(window.limit / 8)));
    let numCtx = chooseNumCtx(needed, window.limit, { ...(window.loaded ? { loaded: window.loaded } : {}), ...(previous ? { previous } : {}) });
    for (let attempt = 0; ; attempt++) {
      previous = numCtx;
      runner.log?.(`ollama: num_ctx ${numCtx} for a prompt of about ${estimate} tokens (limit ${window.limit})`);
      const numPredict = Math.max(MIN_REPLY, Math.min(request.maxTokens, numCtx - prompt));
      const body = JSON.stringify(buildOllamaBody(preset, { ...request, maxTokens: numPredict }, { numCtx, ...(window.canThink !== undefined ? { canThink: window.canThink } : {}) }));
      let started = false;
      try {
        const newAssembler = (): OllamaAssembler => new OllamaAssembler({ usedIds, ...(runner.log ? { note: runner.log } : {}) });
        for await (const ev of runStream({ url, headers, body, signal: request.signal, newAssembler, framing: 'ndjson' }, runner)) {
          started = true;
          if (ev.type === 'stop') {
            const prompt = ev.usage.input;
            if (estimate > 0 && prompt > estimate) ratio = Math.min(2, Math.max(ratio, prompt / estimate));
          }
          yield ev;
        }
        return;
      } catch (err) {
        // A server that honours truncate:false refuses a prompt longer than num_ctx: when the
        // estimate was short and there is room left, ask once more for the whole limit.
        if (started || attempt > 0 || numCtx >= window.limit || !tooLong(err)) throw err;
        ratio = Math.min(2, ratio * 1.5);
        numCtx = window.limit;
      }
    }
  }

  return { stream };
}

function tooLong(err: unknown): boolean {
  return err instanceof ProviderError && err.kind === 'bad_request' && /context (length|size|window)|exceeds/i.test(err.message);
}
