/**
 * How many tokens a request's prompt should take, from the same estimate the context meter
 * uses: Ollama's num_ctx is sized by it, and a server that reports evaluating clearly fewer was
 * cut short.
 */
import { estimateMessages, estimateText, estimateTools, IMAGE_TOKENS } from '../context/estimate-tokens.js';
import type { ModelRequest } from './types.js';

export interface PromptEstimate {
  /** Everything, images at the meter's flat rate. */
  readonly tokens: number;
  /** Text only: servers count images their own way, so a comparison leaves them out. */
  readonly textTokens: number;
}

export function estimatePrompt(req: Pick<ModelRequest, 'system' | 'tools' | 'messages'>): PromptEstimate {
  const tokens = estimateText(req.system) + estimateTools(req.tools) + estimateMessages(req.messages);
  let images = 0;
  for (const m of req.messages) {
    for (const b of m.content) {
      if (b.type === 'image') images++;
      else if (b.type === 'tool_result') images += b.images?.length ?? 0;
    }
  }
  return { tokens, textTokens: Math.max(0, tokens - images * IMAGE_TOKENS) };
}
