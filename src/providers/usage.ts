/**
 * Each provider's usage fields mapped to the neutral Usage, where `input` is fresh (uncached)
 * input only, because cache hits, cache writes and misses are billed at different rates.
 * Numbers a server should never send (negative, fractional, astronomically large, not numbers)
 * are clamped to something billable and noted for the verbose log, never trusted as they are.
 */
import type { Usage } from './types.js';

type Obj = Record<string, unknown>;

/** Receives one line per number that had to be corrected (the -v log). */
export type UsageNote = (line: string) => void;

/**
 * No request reads or writes anywhere near this many tokens (the largest windows are about a
 * million): a count above it is a server bug, and taking it at face value would bill thousands.
 */
export const MAX_USAGE_TOKENS = 10_000_000;

function obj(v: unknown): Obj | undefined {
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Obj) : undefined;
}

/** A token count from `u[key]`: undefined when absent, else a whole number in [0, MAX_USAGE_TOKENS]. */
function count(u: Obj | undefined, key: string, note: UsageNote | undefined, where = key): number | undefined {
  if (!u) return undefined;
  const raw = u[key];
  if (raw === undefined || raw === null) return undefined;
  const v = typeof raw === 'string' && /^\s*-?\d+(\.\d+)?\s*$/.test(raw) ? Number(raw) : raw;
  if (typeof v !== 'number' || !Number.isFinite(v)) {
    note?.(`usage: ${where} is ${JSON.stringify(raw)?.slice(0, 40) ?? String(raw)}, not a number; counted as 0`);
    return 0;
  }
  if (v < 0) {
    note?.(`usage: ${where} is ${v}; a count cannot be negative, counted as 0`);
    return 0;
  }
  if (v > MAX_USAGE_TOKENS) {
    note?.(`usage: ${where} is ${v}, beyond any real request; counted as ${MAX_USAGE_TOKENS}`);
    return MAX_USAGE_TOKENS;
  }
  return Math.round(v);
}

/** The first of several spellings a server may use, as [object, key, name for the note]. */
function firstCount(places: readonly [Obj | undefined, string, string][], note: UsageNote | undefined): number | undefined {
  for (const [o, key, where] of places) {
    const v = count(o, key, note, where);
    if (v !== undefined) return v;
  }
  return undefined;
}

/**
 * Anthropic reports fresh input, cache reads and cache writes separately. message_delta carries
 * cumulative totals, so present fields overwrite and absent ones keep the previous value.
 * cache_creation's per-TTL split stands in when a gateway drops the total.
 */
export function mergeAnthropicUsage(prev: Usage, raw: unknown, note?: UsageNote): Usage {
  const u = obj(raw);
  if (!u) return prev;
  const creation = obj(u['cache_creation']);
  const write5m = count(creation, 'ephemeral_5m_input_tokens', note, 'cache_creation.ephemeral_5m_input_tokens');
  const write1h = count(creation, 'ephemeral_1h_input_tokens', note, 'cache_creation.ephemeral_1h_input_tokens');
  const split = write5m === undefined && write1h === undefined ? undefined : (write5m ?? 0) + (write1h ?? 0);
  return {
    input: count(u, 'input_tokens', note) ?? prev.input,
    cacheRead: count(u, 'cache_read_input_tokens', note) ?? prev.cacheRead,
    cacheWrite: count(u, 'cache_creation_input_tokens', note) ?? split ?? prev.cacheWrite,
    output: count(u, 'output_tokens', note) ?? prev.output,
  };
}

/**
 * OpenAI counts cached tokens inside prompt_tokens. Servers spell the cache hits differently:
 * prompt_tokens_details.cached_tokens (OpenAI, OpenRouter, vLLM), prompt_cache_hit_tokens with
 * prompt_cache_miss_tokens (DeepSeek), a top-level cached_tokens (Moonshot/Kimi), a top-level
 * cache_read_input_tokens (LiteLLM relaying Claude), input_tokens_details.cached_tokens
 * (Responses-style servers) and prompt_token_details (a misspelling some gateways ship).
 */
export function openaiUsage(raw: unknown, note?: UsageNote): Usage | undefined {
  const u = obj(raw);
  if (!u) return undefined;
  const details = obj(u['prompt_tokens_details']);
  const misspelt = obj(u['prompt_token_details']);
  const inputDetails = obj(u['input_tokens_details']);
  const prompt = firstCount([[u, 'prompt_tokens', 'prompt_tokens'], [u, 'input_tokens', 'input_tokens']], note) ?? 0;
  const output = firstCount([[u, 'completion_tokens', 'completion_tokens'], [u, 'output_tokens', 'output_tokens']], note) ?? 0;
  const miss = count(u, 'prompt_cache_miss_tokens', note);
  let cacheRead =
    firstCount(
      [
        [u, 'prompt_cache_hit_tokens', 'prompt_cache_hit_tokens'],
        [details, 'cached_tokens', 'prompt_tokens_details.cached_tokens'],
        [u, 'cached_tokens', 'cached_tokens'],
        [u, 'cache_read_input_tokens', 'cache_read_input_tokens'],
        [inputDetails, 'cached_tokens', 'input_tokens_details.cached_tokens'],
        [misspelt, 'cached_tokens', 'prompt_token_details.cached_tokens'],
      ],
      note,
    ) ?? 0;
  let cacheWrite =
    firstCount(
      [
        [details, 'cache_write_tokens', 'prompt_tokens_details.cache_write_tokens'],
        [u, 'cache_creation_input_tokens', 'cache_creation_input_tokens'],
        [misspelt, 'cache_write_tokens', 'prompt_token_details.cache_write_tokens'],
      ],
      note,
    ) ?? 0;
  if (miss !== undefined) return { input: miss, cacheRead, cacheWrite, output };
  // Cache hits and writes are parts of prompt_tokens; a server that says otherwise is corrected.
  if (cacheRead + cacheWrite > prompt) {
    note?.(`usage: cache reads (${cacheRead}) and writes (${cacheWrite}) exceed prompt_tokens (${prompt}); capped at it`);
    cacheRead = Math.min(cacheRead, prompt);
    cacheWrite = Math.min(cacheWrite, prompt - cacheRead);
  }
  return { input: prompt - cacheRead - cacheWrite, cacheRead, cacheWrite, output };
}

/** Usage for a request whose server never reported any: zero counts, marked as unknown. */
export const UNREPORTED_USAGE: Usage = Object.freeze({ input: 0, cacheRead: 0, cacheWrite: 0, output: 0, unreported: 1 });
