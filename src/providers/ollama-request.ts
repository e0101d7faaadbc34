/**
 * Builds a request body for Ollama's native chat API (POST /api/chat): tool calls carry their
 * arguments as objects, tool results are `tool` messages naming the tool, images ride on the
 * message as base64, and `options.num_ctx` sets the window — the one thing the OpenAI-compatible
 * route cannot do. `truncate: false` asks servers that know it (0.12.6+) to refuse an oversized
 * prompt instead of silently dropping its start.
 */
import type { Preset } from '../config/types.js';
import type { AssistantMessage, ContentBlock, ModelRequest, ThinkingEffort } from './types.js';

type Json = Record<string, unknown>;

export interface OllamaBodyOptions {
  readonly numCtx: number;
  /** False when /api/show says the model cannot think: `think: true` would be refused. */
  readonly canThink?: boolean;
}

/** Ollama's think levels; anything finer or coarser maps to the nearest. */
export function ollamaThink(effort: ThinkingEffort | undefined): true | 'low' | 'medium' | 'high' {
  if (!effort) return true;
  if (effort === 'minimal' || effort === 'low') return 'low';
  return effort === 'medium' ? 'medium' : 'high';
}

export function buildOllamaBody(preset: Pick<Preset, 'model' | 'echoReasoning'>, req: ModelRequest, opts: OllamaBodyOptions): Json {
  const messages: Json[] = [];
  if (req.system.length > 0) messages.push({ role: 'system', content: req.system });
  // Tool results name their tool (older servers match results by name, not id).
  const toolNames = new Map<string, string>();
  for (const m of req.messages) {
    if (m.role === 'assistant') {
      for (const b of m.content) if (b.type === 'tool_use') toolNames.set(b.id, b.name);
      messages.push(assistantMessage(m, preset.echoReasoning));
    } else messages.push(...userMessages(m.content, toolNames));
  }
  const body: Json = {
    model: preset.model,
    messages,
    stream: true,
    options: { num_ctx: opts.numCtx, num_predict: req.maxTokens },
    truncate: false,
  };
  if (req.tools.length > 0) {
    body['tools'] = req.tools.map((t) => ({ type: 'function', function: { name: t.name, description: t.description, parameters: t.inputSchema } }));
  }
  // A thinking model thinks unless told not to; a model that cannot think refuses `think: true`.
  if (!req.thinking) body['think'] = false;
  else if (opts.canThink !== false) body['think'] = ollamaThink(req.thinkingEffort);
  return body;
}

function userMessages(blocks: readonly ContentBlock[], toolNames: ReadonlyMap<string, string>): Json[] {
  const out: Json[] = [];
  const text: string[] = [];
  const images: string[] = [];
  for (const b of blocks) {
    if (b.type === 'tool_result') {
      const content = b.isError ? `Error: ${b.content}` : b.content;
      out.push({ role: 'tool', content, tool_name: toolNames.get(b.toolUseId) ?? '', tool_call_id: b.toolUseId });
      if (b.images && b.images.length > 0) {
        text.push(`Image${b.images.length > 1 ? 's' : ''} from tool call ${b.toolUseId}:`);
        images.push(...b.images.map((i) => i.base64));
      }
    } else if (b.type === 'text') {
      if (b.text.length > 0) text.push(b.text);
    } else if (b.type === 'image') images.push(b.image.base64);
  }
  if (text.length > 0 || images.length > 0) {
    out.push({ role: 'user', content: text.join('\n\n'), ...(images.length > 0 ? { images } : {}) });
  }
  return out;
}

function assistantMessage(m: AssistantMessage, echo: 'auto' | boolean): Json {
  const text = m.content.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join('');
  const calls = m.content.filter((b): b is Extract<ContentBlock, { type: 'tool_use' }> => b.type === 'tool_use');
  const out: Json = { role: 'assistant', content: text };
  if (calls.length > 0) out['tool_calls'] = calls.map((c) => ({ id: c.id, function: { name: c.name, arguments: c.input } }));
  const r = m.reasoningEcho;
  if (r && typeof r.value === 'string' && (echo === true || (echo === 'auto' && calls.length > 0))) out['thinking'] = r.value;
  return out;
}
