/**
 * Plain-words messages for failed requests: what went wrong and what to check, using the
 * provider's own error text where it gave one.
 */
import type { Preset } from '../config/types.js';
import { redactKeys } from '../secrets/redact.js';
import { rejectedFieldHint } from './rejected-field.js';
import type { SseMessage } from './sse-reader.js';
import { ProviderError, type AssistantMessage } from './types.js';

/** Pulls a message out of either error shape ({error:{message}} or {type:'error',error:{...}}) or plain text. */
export function providerErrorText(body: string): string {
  const trimmed = body.trim();
  if (trimmed.length === 0) return '';
  const page = htmlPage(trimmed);
  if (page) return page;
  try {
    const parsed = JSON.parse(trimmed) as unknown;
    const text = messageOf(parsed);
    if (text) return text;
  } catch {
    // not JSON: fall through to the raw text
  }
  return clip(trimmed, MAX_QUOTED);
}

/**
 * Proxies, gateways and captive portals answer with HTML: its title says what happened, the
 * markup would only bury it.
 */
export function htmlPage(body: string): string | undefined {
  if (!/^\s*<(?:!doctype\s+html|html|head|body)[\s>]/i.test(body)) return undefined;
  const heading = /<title[^>]*>([^<]*)<\/title>/i.exec(body)?.[1] ?? /<h1[^>]*>([^<]*)<\/h1>/i.exec(body)?.[1];
  const title = heading?.replace(/\s+/g, ' ').trim().slice(0, 200);
  const from = 'from a proxy or gateway, not from the model API';
  return title ? `an HTML page titled "${title}" (${from})` : `an HTML page (${from})`;
}

/** How much of a provider's own error text a message quotes. */
const MAX_QUOTED = 500;

/**
 * The provider's message from an error object, clipped: a server may put a whole request echo or
 * a validation list thousands of entries long in it, and it is shown and logged as one line.
 */
export function messageOf(value: unknown): string | undefined {
  const text = fullMessageOf(value);
  return text === undefined ? undefined : clip(text, MAX_QUOTED);
}

function fullMessageOf(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const v = value as Record<string, unknown>;
  const err = v['error'];
  if (typeof err === 'string') return err;
  if (typeof err === 'object' && err !== null) {
    const m = (err as Record<string, unknown>)['message'];
    if (typeof m === 'string') return m;
  }
  if (typeof v['message'] === 'string') return v['message'];
  return validationDetail(v['detail']);
}

/** FastAPI/pydantic servers (vLLM, many proxies) answer 4xx with {detail: string | [{loc, msg}]}. */
function validationDetail(detail: unknown): string | undefined {
  if (typeof detail === 'string') return detail;
  if (!Array.isArray(detail)) return undefined;
  const parts = detail.flatMap((d: unknown) => {
    if (typeof d !== 'object' || d === null) return [];
    const { loc, msg } = d as { loc?: unknown; msg?: unknown };
    if (typeof msg !== 'string') return [];
    return [Array.isArray(loc) && loc.length > 0 ? `${loc.join('.')}: ${msg}` : msg];
  });
  return parts.length > 0 ? parts.join('; ') : undefined;
}

export function httpError(
  status: number,
  body: string,
  ctx: {
    preset: Preset;
    url: string;
    keySent: boolean;
    /** The request JSON (or the value it was made from), to name a refused field. */
    sentBody?: string | object;
    /** Values never to quote back (the API key sent). */
    secrets?: readonly string[];
  },
): ProviderError {
  const text = providerErrorText(redactKeys(body, ctx.secrets));
  const said = text ? `: ${text}` : '';
  const where = `preset "${ctx.preset.name}"`;
  if (status === 401 || status === 403) {
    const vars = ctx.preset.apiKeyEnv.length > 0 ? ctx.preset.apiKeyEnv.join(' or ') : 'the api_key_env of the preset';
    const keyFile = ctx.preset.keyFile ? ` (or the key file ${ctx.preset.keyFile})` : '';
    const lead = ctx.keySent
      ? `The provider refused the API key (HTTP ${status})${said}. Check ${vars}${keyFile} for ${where}.`
      : `No API key was sent and the provider requires one (HTTP ${status})${said}. Set ${vars}${keyFile} for ${where}.`;
    return new ProviderError('auth', lead, status);
  }
  if (status === 404) {
    return new ProviderError(
      'not_found',
      `Nothing found at ${ctx.url} (HTTP 404)${said}. Check base_url and model ("${ctx.preset.model}") of ${where}.`,
      status,
    );
  }
  if (status === 413) {
    return new ProviderError(
      'bad_request',
      `The request was too large for the provider (HTTP 413)${said}. /compact shrinks the conversation; a large image can also be the cause.`,
      status,
    );
  }
  if (status === 429) return new ProviderError('rate_limit', `Rate limited by the provider (HTTP 429)${said}.`, status);
  if (status >= 500 || status === 408 || status === 409) {
    return new ProviderError('server', `The provider failed (HTTP ${status})${said}.`, status);
  }
  const refused = status === 400 || status === 422 ? rejectedFieldHint(body, ctx.sentBody, ctx.preset.name) : undefined;
  if (refused) return new ProviderError('bad_request', `${refused} (HTTP ${status}${said})`, status);
  return new ProviderError('bad_request', `The provider rejected the request (HTTP ${status})${said || '.'}`, status);
}

/** Network-level failures as undici reports them (error codes on the error or its cause). */
export function networkError(err: unknown, url: string, partial?: AssistantMessage): ProviderError {
  const code = errorCode(err);
  const detail = err instanceof Error ? err.message : String(err);
  const what = code ? `${code}: ${detail}` : detail;
  return new ProviderError('network', `Could not reach ${url} (${what}).`, undefined, partial);
}

/**
 * A connection that failed after the provider began answering (status and headers received):
 * a reset, a closed socket, a broken chunk. "Could not reach" would send the user to check a
 * URL that worked.
 */
export function midAnswerError(err: unknown, url: string, partial?: AssistantMessage): ProviderError {
  const code = errorCode(err);
  const detail = err instanceof Error ? err.message : String(err);
  const what = code ? `${code}: ${detail}` : detail;
  let host = url;
  try {
    host = new URL(url).host;
  } catch {
    // keep the URL as given
  }
  const kept = partial ? ' What had arrived is kept.' : '';
  return new ProviderError('network', `The connection to ${host} broke mid-answer (${what}).${kept}`, undefined, partial);
}

export function errorCode(err: unknown): string | undefined {
  for (let e: unknown = err, depth = 0; e && depth < 4; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}

/** Shortens provider text quoted in a message. */
export function clip(text: string, max = 200): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

/**
 * A stream event whose data is not JSON. Under `event: error` it is still the server's error
 * (proxies send plain text there), so it is reported, and retried, as one.
 */
export function unreadableEvent(msg: SseMessage, partial: AssistantMessage | undefined): ProviderError {
  if (msg.event === 'error') {
    return new ProviderError('server', `The provider reported an error mid-answer: ${clip(msg.data) || '(no details)'}`, undefined, partial);
  }
  return new ProviderError('malformed', `The provider sent an unreadable stream event: ${clip(msg.data)}`, undefined, partial);
}
