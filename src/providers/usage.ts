/**
 * Each provider's usage fields mapped to the neutral Usage, where `input` is fresh (uncached)
 * input only, because cache hits, cache writes and misses are billed at different rates.
 */
import type { Usage } from './types.js';

type Obj = Record<string, unknown>;

function num(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
}

function obj(v: unknown): Obj | undefined {
  return typeof v === 'object' && v !== null ? (v as Obj) : undefined;
}

/**
 * Anthropic reports fresh input, cache reads and cache writes separately. message_delta carries
 * cumulative totals, so present fields overwrite and absent ones keep the previous value.
 */
export function mergeAnthropicUsage(prev: Usage, raw: unknown): Usage {
  const u = obj(raw);
  if (!u) return prev;
  return {
    input: num(u['input_tokens']) ?? prev.input,
    cacheRead: num(u['cache_read_input_tokens']) ?? prev.cacheRead,
    cacheWrite: num(u['cache_creation_input_tokens']) ?? prev.cacheWrite,
    output: num(u['output_tokens']) ?? prev.output,
  };
}

/**
 * OpenAI counts cached tokens inside prompt_tokens; DeepSeek splits prompt_tokens into
 * prompt_cache_hit_tokens + prompt_cache_miss_tokens; OpenRouter adds cache_write_tokens.
 */
export function openaiUsage(raw: unknown): Usage | undefined {
  const u = obj(raw);
  if (!u) return undefined;
  const details = obj(u['prompt_tokens_details']);
  const prompt = num(u['prompt_tokens']) ?? 0;
  const hit = num(u['prompt_cache_hit_tokens']);
  const miss = num(u['prompt_cache_miss_tokens']);
  const cacheRead = hit ?? num(details?.['cached_tokens']) ?? 0;
  const cacheWrite = num(details?.['cache_write_tokens']) ?? 0;
  const input = miss !== undefined ? miss : Math.max(0, prompt - cacheRead - cacheWrite);
  return { input, cacheRead, cacheWrite, output: num(u['completion_tokens']) ?? 0 };
}
