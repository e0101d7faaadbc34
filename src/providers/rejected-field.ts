/**
 * Strict compatible servers answer an optional field they do not know with a 400/422 ("Extra
 * inputs are not permitted", "unknown field", "not supported for this model"). Quoted raw, that
 * says nothing about what to change; these fields are all sent because of a preset setting, so
 * the message can name the field and the setting that stops it being sent.
 */

interface FieldHint {
  /** The field as it appears in the request body. */
  readonly field: string;
  /** Whether the field was in the request we sent. */
  readonly sent: (body: Record<string, unknown>) => boolean;
  /** What to change, given the preset name and the request sent. */
  readonly fix: (preset: string, body: Record<string, unknown>) => string;
}

const has = (o: unknown, ...path: string[]): boolean => {
  let v: unknown = o;
  for (const key of path) {
    if (typeof v !== 'object' || v === null || !(key in v)) return false;
    v = (v as Record<string, unknown>)[key];
  }
  return true;
};

const anyMessageHas = (field: string) => (body: Record<string, unknown>): boolean =>
  Array.isArray(body['messages']) && body['messages'].some((m) => has(m, field));

const EFFORT_FIX = (p: string): string =>
  `Change or remove thinking_effort in preset "${p}" (or the --thinking-effort / /think level), or set thinking = false`;
const THINKING_FIX = (p: string, body: Record<string, unknown>): string =>
  (body['thinking'] as { type?: unknown } | undefined)?.type === 'disabled'
    ? `This model cannot turn thinking off: set thinking = true in preset "${p}"`
    : `Set thinking = false in preset "${p}" (or run with --no-thinking)`;
const ECHO_FIX = (p: string): string => `Set echo_reasoning = false in preset "${p}"`;
const CACHE_FIX = (p: string): string => `Set prompt_cache = false in preset "${p}" (the server does not take prompt-cache breakpoints)`;
const TTL_FIX = (p: string): string => `Remove cache_ttl from preset "${p}" (the 5-minute cache needs no ttl field), or set prompt_cache = false`;

/** Whether any object in the body (system, tools, message blocks) carries `key`. */
const anywhere = (key: string) => (value: unknown): boolean => {
  if (Array.isArray(value)) return value.some(anywhere(key));
  if (typeof value !== 'object' || value === null) return false;
  return Object.entries(value).some(([k, v]) => k === key || anywhere(key)(v));
};
const cacheTtlSent = (body: Record<string, unknown>): boolean => JSON.stringify(body).includes('"cache_control":{"type":"ephemeral","ttl"');

// Most specific first: "output_config.effort" must name output_config, not thinking.
const HINTS: readonly FieldHint[] = [
  { field: 'ttl', sent: cacheTtlSent, fix: TTL_FIX },
  { field: 'cache_control', sent: anywhere('cache_control'), fix: CACHE_FIX },
  { field: 'output_config', sent: (b) => has(b, 'output_config'), fix: EFFORT_FIX },
  { field: 'effort', sent: (b) => has(b, 'output_config', 'effort'), fix: EFFORT_FIX },
  { field: 'reasoning_effort', sent: (b) => has(b, 'reasoning_effort'), fix: EFFORT_FIX },
  { field: 'budget_tokens', sent: (b) => has(b, 'thinking', 'budget_tokens'), fix: THINKING_FIX },
  { field: 'reasoning_content', sent: anyMessageHas('reasoning_content'), fix: ECHO_FIX },
  { field: 'reasoning_details', sent: anyMessageHas('reasoning_details'), fix: ECHO_FIX },
  { field: 'reasoning', sent: anyMessageHas('reasoning'), fix: ECHO_FIX },
  { field: 'thinking', sent: (b) => has(b, 'thinking'), fix: THINKING_FIX },
];

/** Wording servers use for a field they refuse (pydantic, serde, Anthropic, OpenAI, vLLM). */
const REFUSAL =
  /extra[ _]inputs?|extra_forbidden|not permitted|unknown (?:field|parameter|argument|key|name)|unrecogni[sz]ed|unexpected (?:field|keyword|property|parameter|argument)|additional ?propert|not (?:supported|allowed|recogni[sz]ed)|unsupported|does not support|invalid (?:field|parameter)/i;

function mentions(text: string, field: string): boolean {
  return new RegExp(`(?<![A-Za-z0-9_])${field}(?![A-Za-z0-9_])`).test(text);
}

/**
 * The "field X was refused, change Y" sentence for a 400/422 body, or undefined when the body
 * does not refuse one of the setting-driven fields this request actually sent.
 */
export function rejectedFieldHint(errorBody: string, sentBody: string | object | undefined, preset: string): string | undefined {
  if (!sentBody || !REFUSAL.test(errorBody)) return undefined;
  let sent: unknown = sentBody;
  try {
    if (typeof sentBody === 'string') sent = JSON.parse(sentBody);
  } catch {
    return undefined; // a body we did not send as JSON has no field to point at
  }
  if (typeof sent !== 'object' || sent === null) return undefined;
  const body = sent as Record<string, unknown>;
  const hint = HINTS.find((h) => mentions(errorBody, h.field) && h.sent(body));
  if (!hint) return undefined;
  return `The server does not accept the request field "${hint.field}". ${hint.fix(preset, body)}.`;
}
