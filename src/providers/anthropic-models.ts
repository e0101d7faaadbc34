/**
 * How each Claude model family wants thinking and effort expressed. The rules differ by model,
 * and a field a model does not know is a 400, so the request builder asks here instead of
 * sending one shape to every model.
 *
 * Facts (per platform.claude.com build-with-claude/effort and its supportedModels list,
 * build-with-claude/adaptive-thinking, models/opus-5-5/whats-new-opus-5-5 and
 * models/sonnet-5-5/whats-new-sonnet-5-5; Bedrock's adaptive-thinking page for Mythos/Fable):
 * - output_config.effort: Opus 4.5+, Sonnet 4.6+, Haiku 5.5+, Mythos, Fable. Older models
 *   (Sonnet 4.5, Haiku 4.5, Opus 4.1, 3.7) are not on the list and take a budget_tokens only.
 * - Levels: Opus 4.5 low..high; Opus/Sonnet 4.6 and Mythos Preview add max; xhigh from
 *   Opus 4.7 / Sonnet 5 / Mythos 5 on.
 * - Adaptive thinking ({type: "adaptive"}, depth set by effort): Opus/Sonnet 4.6+, Haiku 5.5+,
 *   Mythos, Fable; budget_tokens is deprecated on 4.6 and a 400 from Opus 4.7 / Sonnet 5 on.
 * - Turning thinking off: Mythos, Fable and Opus 5.5+ reject {type: "disabled"} ("omit thinking
 *   and lower the effort"); Sonnet 5.5 replaced it with {type: "between_tools"}; Opus 5 takes
 *   disabled only at effort high or below, which is what an effort left unsent means.
 * - Thinking display defaults to "omitted" from Opus 4.7 / Sonnet 5 on and on Mythos and Fable
 *   (4.6 and older: "summarized"); thinking.display = "summarized" brings the text back.
 */
import type { ThinkingEffort } from './types.js';

export type AnthropicEffortLevel = 'low' | 'medium' | 'high' | 'xhigh' | 'max';

export interface ClaudeThinking {
  /** {type: "adaptive"} instead of {type: "enabled", budget_tokens}. */
  readonly adaptive: boolean;
  /** output_config.effort levels the model takes, lowest first; empty: none (budget only). */
  readonly efforts: readonly AnthropicEffortLevel[];
  /** What "thinking off" looks like for this model. */
  readonly off: 'disabled' | 'between_tools' | 'omit';
  /**
   * The model's default thinking display is "omitted" (empty thinking text, reasoning only in
   * the signature): ask for "summarized" so the reasoning can be shown live.
   */
  readonly summarize: boolean;
}

const LOW_TO_HIGH: readonly AnthropicEffortLevel[] = ['low', 'medium', 'high'];
const WITH_MAX: readonly AnthropicEffortLevel[] = ['low', 'medium', 'high', 'max'];
const ALL: readonly AnthropicEffortLevel[] = ['low', 'medium', 'high', 'xhigh', 'max'];
const ORDER: readonly ThinkingEffort[] = ['minimal', 'low', 'medium', 'high', 'xhigh', 'max'];

const BUDGET_ONLY: ClaudeThinking = { adaptive: false, efforts: [], off: 'disabled', summarize: false };

/**
 * The thinking rules of a Claude model id (also as Bedrock/Vertex/OpenRouter spell it:
 * `anthropic.claude-opus-4-6-v1`, `claude-opus-4.6`), or undefined for a model that is not
 * Claude: those servers (DeepSeek and other compatible endpoints) keep their own rules.
 */
export function claudeThinking(model: string): ClaudeThinking | undefined {
  const m = /(?:^|[./:])claude-([a-z]+)(?:-(\d+)(?:[-.](\d+))?)?/.exec(model.toLowerCase());
  if (!m) return /(?:^|[./:])claude-\d/.test(model.toLowerCase()) ? BUDGET_ONLY : undefined; // claude-3-7-sonnet…
  const family = m[1] ?? '';
  // A date suffix (claude-opus-4-20250514) is not a minor version.
  const minorRaw = Number(m[3] ?? '0');
  // major * 100 + minor, so 4.10 (410) comes after 4.9 (409), not at 5. No version (an alias such
  // as claude-opus-latest) names the family's newest model, which takes the newest shape.
  const v = m[2] === undefined ? Infinity : Number(m[2]) * 100 + (minorRaw < 100 ? minorRaw : 0);
  switch (family) {
    case 'mythos':
    case 'fable':
      // Mythos Preview predates xhigh; every one of them thinks whether asked or not.
      return { adaptive: true, efforts: m[2] === undefined ? WITH_MAX : ALL, off: 'omit', summarize: true };
    case 'opus':
      if (v < 405) return BUDGET_ONLY;
      if (v < 406) return { adaptive: false, efforts: LOW_TO_HIGH, off: 'disabled', summarize: false };
      if (v < 407) return { adaptive: true, efforts: WITH_MAX, off: 'disabled', summarize: false };
      return { adaptive: true, efforts: ALL, off: v >= 505 ? 'omit' : 'disabled', summarize: true };
    case 'sonnet':
      if (v < 406) return BUDGET_ONLY;
      if (v < 500) return { adaptive: true, efforts: WITH_MAX, off: 'disabled', summarize: false };
      return { adaptive: true, efforts: ALL, off: v >= 505 ? 'between_tools' : 'disabled', summarize: true };
    case 'haiku':
      return v < 505 ? BUDGET_ONLY : { adaptive: true, efforts: ALL, off: 'disabled', summarize: true };
    default:
      // A family named after these docs were read: assume the newest shape.
      return { adaptive: true, efforts: ALL, off: 'disabled', summarize: true };
  }
}

/**
 * The level to send for a requested effort: itself when the model takes it, else the nearest
 * level below (never above: a higher level spends more than asked), else the lowest it takes.
 */
export function effortFor(requested: ThinkingEffort, accepted: readonly AnthropicEffortLevel[]): AnthropicEffortLevel | undefined {
  if (accepted.length === 0) return undefined;
  for (let i = ORDER.indexOf(requested); i >= 0; i--) {
    const level = ORDER[i];
    const hit = accepted.find((a) => a === level);
    if (hit) return hit;
  }
  return accepted[0];
}

/** DeepSeek's Anthropic endpoint, by host or model name (it also serves claude-* names). */
export function isDeepSeek(baseUrl: string, model: string): boolean {
  let host = '';
  try {
    host = new URL(baseUrl).hostname.toLowerCase();
  } catch {
    // a malformed base_url fails at request time with its own message
  }
  return host === 'deepseek.com' || host.endsWith('.deepseek.com') || /^deepseek/i.test(model);
}
