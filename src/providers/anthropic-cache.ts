/**
 * Prompt-cache breakpoints for Anthropic-format requests to Claude models. Anthropic caches
 * nothing unless a block carries `cache_control`, so without these every turn is billed at the
 * full input rate (DeepSeek's endpoint caches by itself and ignores them; it gets none).
 *
 * Rules (platform.claude.com build-with-claude/prompt-caching): the prefix is tools → system →
 * messages; a breakpoint caches the prefix up to and including its block; a later request reads
 * a prefix whose bytes equal one an earlier breakpoint wrote within its TTL, finding it by
 * looking back at most 20 blocks from each of its own breakpoints; at most 4 breakpoints per
 * request; thinking blocks cannot carry one. So, at most three:
 * 1. the end of the system prompt (tools + system), which never moves: both are byte-stable
 *    for a session;
 * 2. the last block of the conversation, which moves forward every request and writes it;
 * 3. the block where the previous request's conversation ended (the message just before the
 *    newest assistant reply): an exact read of everything the last request wrote, however many
 *    blocks a turn of parallel tool calls added since — more than 20 would escape the lookback.
 */
import type { CacheTtl, Preset } from '../config/types.js';
import { claudeThinking, isDeepSeek } from './anthropic-models.js';

type Json = Record<string, unknown>;

export interface CacheSettings {
  readonly ttl: CacheTtl;
}

/** The API's own limit; a request with more is a 400. */
export const MAX_BREAKPOINTS = 4;

/** Blocks a breakpoint may sit on. */
const CACHEABLE = new Set(['text', 'image', 'document', 'tool_use', 'tool_result', 'search_result']);

/**
 * Whether (and how) a preset's requests carry breakpoints: prompt_cache wins; otherwise yes for
 * a Claude model (or any model on api.anthropic.com), no for DeepSeek and every other server,
 * which caches by itself or may refuse the field.
 */
export function promptCacheFor(preset: Pick<Preset, 'format' | 'baseUrl' | 'model' | 'promptCache' | 'cacheTtl'>): CacheSettings | undefined {
  if (preset.format !== 'anthropic' || preset.promptCache === false) return undefined;
  const settings: CacheSettings = { ttl: preset.cacheTtl ?? '5m' };
  if (preset.promptCache === true) return settings;
  if (isDeepSeek(preset.baseUrl, preset.model)) return undefined;
  return claudeThinking(preset.model) !== undefined || isAnthropicHost(preset.baseUrl) ? settings : undefined;
}

function isAnthropicHost(baseUrl: string): boolean {
  try {
    return new URL(baseUrl).hostname.toLowerCase() === 'api.anthropic.com';
  } catch {
    return false;
  }
}

/** Puts the breakpoints on a built request body (its system, tools and messages). */
export function addCacheBreakpoints(body: Json, settings: CacheSettings): void {
  const control: Json = settings.ttl === '1h' ? { type: 'ephemeral', ttl: '1h' } : { type: 'ephemeral' };
  const mark = (block: Json): void => {
    block['cache_control'] = { ...control };
  };
  const system = body['system'];
  const tools = Array.isArray(body['tools']) ? (body['tools'] as Json[]) : [];
  if (typeof system === 'string' && system.length > 0) body['system'] = [{ type: 'text', text: system, cache_control: { ...control } }];
  else {
    const lastTool = tools.at(-1);
    if (lastTool) mark(lastTool);
  }
  const messages = Array.isArray(body['messages']) ? (body['messages'] as Json[]) : [];
  const tail = messages.length - 1;
  if (tail < 0) return;
  let lastAssistant = -1;
  for (let i = tail; i >= 0; i--) {
    if (messages[i]?.['role'] === 'assistant') {
      lastAssistant = i;
      break;
    }
  }
  const previousTail = lastAssistant - 1;
  if (previousTail >= 0 && previousTail < tail) markLastCacheable(messages, previousTail, mark);
  markLastCacheable(messages, tail, mark);
}

/** Marks the last block of messages[index] that may carry a breakpoint (earlier messages if it has none). */
function markLastCacheable(messages: Json[], index: number, mark: (block: Json) => void): void {
  for (let i = index; i >= 0; i--) {
    const message = messages[i];
    if (!message) continue;
    if (typeof message['content'] === 'string') {
      message['content'] = [{ type: 'text', text: message['content'] }];
    }
    const content = Array.isArray(message['content']) ? (message['content'] as Json[]) : [];
    for (let j = content.length - 1; j >= 0; j--) {
      const block = content[j];
      if (block && CACHEABLE.has(String(block['type']))) {
        if (block['cache_control'] === undefined) mark(block);
        return;
      }
    }
  }
}
