/**
 * Builds an OpenAI chat-completions request body from the neutral request: tool results become
 * `tool` messages, images become image_url data URLs, and reasoning goes back only as the
 * echo_reasoning rule says (WIRE.md): strict servers reject the field, DeepSeek V4 and Kimi
 * reject a tool-call turn without it.
 */
import { holdsChars, JsonText } from '../io/json-pieces.js';
import type { Preset } from '../config/types.js';
import type { AssistantMessage, ContentBlock, ImageData, ModelRequest, ThinkingEffort } from './types.js';

type Json = Record<string, unknown>;

/** Servers that take `thinking: {type}` (and think unless told not to). */
export function usesThinkingToggle(preset: Pick<Preset, 'baseUrl' | 'model'>): boolean {
  const hay = `${preset.baseUrl} ${preset.model}`.toLowerCase();
  return /deepseek|moonshot|kimi/.test(hay);
}

function isOpenAiItself(baseUrl: string): boolean {
  try {
    return new URL(baseUrl).hostname === 'api.openai.com';
  } catch {
    return false; // a malformed base_url fails at request time with its own message
  }
}

/** DeepSeek documents low/high/max only; everyone else gets the OpenAI scale as is. */
export function openaiEffort(effort: ThinkingEffort, deepseekLike: boolean): string {
  if (!deepseekLike) return effort;
  if (effort === 'max') return 'max';
  return effort === 'minimal' || effort === 'low' ? 'low' : 'high';
}

export function buildOpenAiBody(preset: Pick<Preset, 'baseUrl' | 'model' | 'echoReasoning'>, req: ModelRequest): Json {
  const body: Json = { model: preset.model, stream: true, stream_options: { include_usage: true } };
  // api.openai.com's reasoning models refuse max_tokens; compatible servers only know max_tokens.
  body[isOpenAiItself(preset.baseUrl) ? 'max_completion_tokens' : 'max_tokens'] = req.maxTokens;
  const messages: Json[] = [];
  if (req.system.length > 0) messages.push({ role: 'system', content: req.system });
  for (const m of req.messages) messages.push(...(m.role === 'user' ? userMessages(m.content) : [assistantMessage(m, preset.echoReasoning)]));
  body['messages'] = messages;
  // An empty tools array is rejected by strict servers (Mistral).
  if (req.tools.length > 0) {
    body['tools'] = req.tools.map((t) => ({
      type: 'function',
      function: { name: t.name, description: t.description, parameters: t.inputSchema },
    }));
  }
  const toggle = usesThinkingToggle(preset);
  if (toggle) body['thinking'] = { type: req.thinking ? 'enabled' : 'disabled' };
  if (req.thinking && req.thinkingEffort) body['reasoning_effort'] = openaiEffort(req.thinkingEffort, /deepseek/i.test(`${preset.baseUrl} ${preset.model}`));
  return body;
}

function dataUrl(img: ImageData): Json {
  return { type: 'image_url', image_url: { url: `data:${img.mediaType};base64,${img.base64}` } };
}

/** One neutral user turn can become several wire messages: tool results first, then the rest. */
function userMessages(blocks: readonly ContentBlock[]): Json[] {
  const tools: Json[] = [];
  const toolImages: Json[] = [];
  const parts: Json[] = [];
  for (const b of blocks) {
    if (b.type === 'tool_result') {
      const text = b.isError ? `Error: ${b.content}` : b.content;
      tools.push({ role: 'tool', tool_call_id: b.toolUseId, content: text });
      // Tool messages carry text only; images follow in a user message the model can see.
      if (b.images && b.images.length > 0) {
        toolImages.push({ type: 'text', text: `Image${b.images.length > 1 ? 's' : ''} from tool call ${b.toolUseId}:` }, ...b.images.map(dataUrl));
      }
    } else if (b.type === 'text') {
      if (b.text.length > 0) parts.push({ type: 'text', text: b.text });
    } else if (b.type === 'image') parts.push(dataUrl(b.image));
  }
  const out: Json[] = [...tools];
  const all = [...toolImages, ...parts];
  if (all.length === 0) return out;
  const onlyText = all.every((p) => p['type'] === 'text');
  out.push({ role: 'user', content: onlyText ? all.map((p) => p['text']).join('\n\n') : all });
  return out;
}

function assistantMessage(m: AssistantMessage, echo: 'auto' | boolean): Json {
  const text = m.content
    .filter((b): b is Extract<ContentBlock, { type: 'text' }> => b.type === 'text')
    .map((b) => b.text)
    .join('');
  const calls = m.content.filter((b): b is Extract<ContentBlock, { type: 'tool_use' }> => b.type === 'tool_use');
  const out: Json = { role: 'assistant', content: text.length > 0 ? text : calls.length > 0 ? null : '' };
  if (calls.length > 0) {
    out['tool_calls'] = calls.map((c) => ({
      id: c.id,
      type: 'function',
      // Arguments of megabytes stay one JSON text made only as the body is sent (request-body.ts).
      function: { name: c.name, arguments: holdsChars(c.input, 1024 * 1024) ? new JsonText(c.input) : JSON.stringify(c.input) },
      // Gemini's thought_signature lives here; its endpoint rejects the next request without it.
      ...(c.extraContent ? { extra_content: c.extraContent } : {}),
    }));
  }
  const r = m.reasoningEcho;
  if (r && (echo === true || (echo === 'auto' && calls.length > 0))) out[r.field] = r.value;
  return out;
}
