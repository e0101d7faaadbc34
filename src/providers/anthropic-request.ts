/**
 * Builds the Anthropic Messages request body from the neutral request. Assistant turns are
 * replayed exactly as received — thinking blocks with their signatures, redacted_thinking
 * untouched — because DeepSeek's endpoint rejects a history without them.
 */
import { createHash } from 'node:crypto';
import { addCacheBreakpoints, type CacheSettings } from './anthropic-cache.js';
import { claudeThinking, effortFor, isDeepSeek, type ClaudeThinking } from './anthropic-models.js';
import type { ContentBlock, ImageData, Message, ModelRequest, ThinkingEffort } from './types.js';

type Json = Record<string, unknown>;

const BUDGET_SHARE: Record<ThinkingEffort, number> = {
  minimal: 0.1,
  low: 0.25,
  medium: 0.5,
  high: 0.75,
  xhigh: 0.85,
  max: 0.9,
};

/** DeepSeek and other non-Claude servers: Anthropic's scale without 'minimal'. */
export function anthropicEffort(effort: ThinkingEffort): string {
  return effort === 'minimal' ? 'low' : effort;
}

/**
 * `baseUrl` tells DeepSeek's endpoint apart (it also takes claude-* names): DeepSeek, and any
 * server that is not Claude, keep the shape DeepSeek documents — enabled/disabled, a budget it
 * ignores, and output_config.effort only when an effort was asked for. A server that rejects
 * output_config gets a 400 that errors.ts turns into "remove thinking_effort".
 * `cache` (promptCacheFor) adds the prompt-cache breakpoints; without it the body has none.
 */
export function buildAnthropicBody(model: string, req: ModelRequest, baseUrl = '', cache?: CacheSettings): Json {
  const body: Json = { model, max_tokens: req.maxTokens, stream: true };
  if (req.system.length > 0) body['system'] = req.system;
  body['messages'] = toAnthropicMessages(req.messages);
  if (req.tools.length > 0) {
    body['tools'] = req.tools.map((t) => ({ name: t.name, description: t.description, input_schema: t.inputSchema }));
  }
  const claude = isDeepSeek(baseUrl, model) ? undefined : claudeThinking(model);
  if (claude) Object.assign(body, claudeThinkingFields(claude, req));
  else if (req.thinking) {
    body['thinking'] = budgetThinking(req);
    if (req.thinkingEffort) body['output_config'] = { effort: anthropicEffort(req.thinkingEffort) };
  } else {
    // Explicit: DeepSeek thinks unless told not to.
    body['thinking'] = { type: 'disabled' };
  }
  if (cache) addCacheBreakpoints(body, cache);
  return body;
}

function budgetThinking(req: ModelRequest): Json {
  const thinking: Json = { type: 'enabled' };
  // budget_tokens must be >= 1024 and below max_tokens; DeepSeek ignores it.
  const budget = Math.floor(req.maxTokens * BUDGET_SHARE[req.thinkingEffort ?? 'high']);
  if (req.maxTokens > 1024) thinking['budget_tokens'] = Math.min(req.maxTokens - 1, Math.max(1024, budget));
  return thinking;
}

/** thinking / output_config for a Claude model, in the form that model documents. */
function claudeThinkingFields(c: ClaudeThinking, req: ModelRequest): Json {
  const out: Json = {};
  if (!req.thinking) {
    if (c.off === 'omit') {
      // It cannot stop thinking: the lowest effort is the nearest thing to "off".
      const lowest = c.efforts[0];
      if (lowest) out['output_config'] = { effort: lowest };
    } else out['thinking'] = { type: c.off };
    return out;
  }
  // lindwyrm shows reasoning live: where the model would hide it by default, ask for a summary.
  out['thinking'] = c.adaptive ? { type: 'adaptive', ...(c.summarize ? { display: 'summarized' } : {}) } : budgetThinking(req);
  const effort = req.thinkingEffort ? effortFor(req.thinkingEffort, c.efforts) : undefined;
  if (effort) out['output_config'] = { effort };
  return out;
}

/**
 * The Messages API takes tool ids of letters, digits, "_" and "-" only. A session begun on an
 * OpenAI-format server may hold others (Kimi's "functions.read_file:0"); those are mapped to a
 * stable id derived from them, so the call and its result still match and the prefix stays
 * byte-identical from one request to the next.
 */
export function wireToolId(id: string): string {
  if (/^[A-Za-z0-9_-]{1,256}$/.test(id)) return id;
  return `toolu_${createHash('sha256').update(id).digest('hex').slice(0, 24)}`;
}

export function toAnthropicMessages(messages: readonly Message[]): Json[] {
  const out: Json[] = [];
  for (const m of messages) {
    const content = m.role === 'user' ? userContent(m.content) : assistantContent(m.content);
    // Servers reject empty content arrays; an empty turn carries nothing worth sending.
    if (content.length === 0) continue;
    out.push({ role: m.role, content });
  }
  return out;
}

function image(img: ImageData): Json {
  return { type: 'image', source: { type: 'base64', media_type: img.mediaType, data: img.base64 } };
}

/** tool_result blocks must open the user message that follows a tool_use turn. */
function userContent(blocks: readonly ContentBlock[]): Json[] {
  const results: Json[] = [];
  const rest: Json[] = [];
  for (const b of blocks) {
    switch (b.type) {
      case 'tool_result': {
        const r: Json = { type: 'tool_result', tool_use_id: wireToolId(b.toolUseId) };
        if (b.images && b.images.length > 0) {
          const parts: Json[] = b.content.length > 0 ? [{ type: 'text', text: b.content }] : [];
          r['content'] = [...parts, ...b.images.map(image)];
        } else r['content'] = b.content;
        if (b.isError) r['is_error'] = true;
        results.push(r);
        break;
      }
      case 'text':
        if (b.text.length > 0) rest.push({ type: 'text', text: b.text });
        break;
      case 'image':
        rest.push(image(b.image));
        break;
      default:
        break; // assistant-only blocks never belong in a user turn
    }
  }
  return [...results, ...rest];
}

function assistantContent(blocks: readonly ContentBlock[]): Json[] {
  const out: Json[] = [];
  for (const b of blocks) {
    switch (b.type) {
      case 'thinking': {
        const t: Json = { type: 'thinking', thinking: b.thinking };
        if (b.signature !== undefined) t['signature'] = b.signature;
        out.push(t);
        break;
      }
      case 'redacted_thinking':
        out.push({ type: 'redacted_thinking', data: b.data });
        break;
      case 'text':
        if (b.text.length > 0) out.push({ type: 'text', text: b.text });
        break;
      case 'tool_use':
        out.push({ type: 'tool_use', id: wireToolId(b.id), name: b.name, input: b.input });
        break;
      default:
        break;
    }
  }
  return out;
}
