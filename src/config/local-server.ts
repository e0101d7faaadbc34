/**
 * Local model servers — Ollama, LM Studio, a llama.cpp server: which one a preset points at,
 * plain JSON requests to their own APIs, and what to tell the user when one is not running.
 */
import { userAgent } from '../providers/user-agent.js';
import type { Preset } from './types.js';

export type LocalServerKind = 'ollama' | 'lmstudio' | 'llamacpp';

export const SERVER_NAME: Readonly<Record<LocalServerKind, string>> = { ollama: 'Ollama', lmstudio: 'LM Studio', llamacpp: 'the llama.cpp server' };

const START: Readonly<Record<LocalServerKind, string>> = {
  ollama: 'start it with `ollama serve` (or open the Ollama app)',
  lmstudio: 'start it with `lms server start` (or the Developer tab of LM Studio)',
  llamacpp: 'start it with `llama-server -m MODEL.gguf -c 16384`',
};

export class LocalServerError extends Error {
  /** A runtime problem, not a usage error. */
  readonly exitCode = 1;
  constructor(message: string) {
    super(message);
    this.name = 'LocalServerError';
  }
}

/**
 * Presets worth asking: Ollama's native format, and OpenAI-format presets without a key that look
 * like a local server by name or port (ollama / 11434, lmstudio / 1234, llama… / 8080, local…). A
 * preset with a key is a hosted API, or a gateway in front of one, even on this machine; anything
 * else is used as configured, without requests the user did not ask for.
 */
export function isLocalCandidate(preset: Preset): boolean {
  if (preset.format === 'ollama') return true;
  return preset.format === 'openai' && preset.keyOptional && (likelyKind(preset) !== undefined || preset.name.toLowerCase().includes('local'));
}

/** The server's address without the API route (`/v1`), where its own endpoints live. */
export function serverRoot(baseUrl: string): string {
  return baseUrl.replace(/\/+$/, '').replace(/\/(?:v1|api\/v\d+)$/, '');
}

/** The kind a preset most likely points at, from its name and port, before anything is asked. */
export function likelyKind(preset: Preset): LocalServerKind | undefined {
  if (preset.format === 'ollama') return 'ollama';
  const name = preset.name.toLowerCase();
  const port = portOf(preset.baseUrl);
  if (name.includes('ollama') || port === '11434') return 'ollama';
  if (name.includes('lmstudio') || name.includes('lm-studio') || port === '1234') return 'lmstudio';
  if (name.includes('llama') || port === '8080') return 'llamacpp';
  return undefined;
}

export function notRunning(preset: Preset, url: string, kind: LocalServerKind | undefined, needModel: boolean): LocalServerError {
  const who = kind ? SERVER_NAME[kind] : 'the model server';
  const start = kind ? START[kind] : 'start it';
  const orName = needModel ? `; or name the model with -m ${preset.name}:MODEL` : '';
  return new LocalServerError(`cannot reach ${url} for preset "${preset.name}": is ${who} running? ${capital(start)}, then try again${orName}`);
}

export type JsonReply =
  | { readonly ok: true; readonly status: number; readonly body: unknown }
  | { readonly ok: false; readonly status?: number; readonly body?: unknown; readonly refused: boolean; readonly reason: string };

/** GET (or POST with `post`) a JSON endpoint; never throws. */
export async function getJson(url: string, opts: { post?: unknown; timeoutMs?: number } = {}): Promise<JsonReply> {
  let response: Response;
  try {
    const headers: Record<string, string> = { 'user-agent': userAgent(), ...(opts.post === undefined ? {} : { 'content-type': 'application/json' }) };
    response = await fetch(url, {
      method: opts.post === undefined ? 'GET' : 'POST',
      headers,
      ...(opts.post === undefined ? {} : { body: JSON.stringify(opts.post) }),
      signal: AbortSignal.timeout(opts.timeoutMs ?? 3000),
    });
  } catch (err) {
    const code = causeCode(err);
    return { ok: false, refused: code === 'ECONNREFUSED' || code === 'ENOTFOUND' || code === 'EHOSTUNREACH', reason: code ?? (err instanceof Error ? err.message : String(err)) };
  }
  let body: unknown;
  try {
    body = JSON.parse(await response.text());
  } catch {
    body = undefined;
  }
  if (!response.ok) return { ok: false, status: response.status, body, refused: false, reason: `HTTP ${response.status}` };
  if (body === undefined) return { ok: false, status: response.status, refused: false, reason: 'not JSON' };
  return { ok: true, status: response.status, body };
}

/**
 * Which server an OpenAI-format preset talks to, from the endpoints only it has: Ollama's
 * /api/version, LM Studio's /api/v0/models (or /api/v1/models), llama.cpp's /props. All are asked at once;
 * `refused` when nothing listens at all.
 */
export async function detectServer(preset: Preset): Promise<{ kind?: LocalServerKind; refused: boolean }> {
  if (preset.format === 'ollama') return { kind: 'ollama', refused: false };
  const root = serverRoot(preset.baseUrl);
  const [ollama, lmstudio, lmstudio1, llamacpp] = await Promise.all([
    getJson(`${root}/api/version`, { timeoutMs: 2000 }),
    getJson(`${root}/api/v0/models`, { timeoutMs: 2000 }),
    getJson(`${root}/api/v1/models`, { timeoutMs: 2000 }),
    getJson(`${root}/props`, { timeoutMs: 2000 }),
  ]);
  const found: LocalServerKind[] = [];
  if (ollama.ok && typeof field(ollama.body, 'version') === 'string') found.push('ollama');
  const v1 = lmstudio1.ok ? field(lmstudio1.body, 'models') : undefined;
  if ((lmstudio.ok && Array.isArray(field(lmstudio.body, 'data'))) || (Array.isArray(v1) && v1.some((m: unknown) => field(m, 'loaded_instances') !== undefined))) found.push('lmstudio');
  if (llamacpp.ok && typeof field(llamacpp.body, 'default_generation_settings') === 'object') found.push('llamacpp');
  const hint = likelyKind(preset);
  const kind = hint && found.includes(hint) ? hint : found[0];
  return { ...(kind ? { kind } : {}), refused: !ollama.ok && ollama.refused && !lmstudio.ok && lmstudio.refused };
}

/** A property of a JSON object, or undefined. */
export function field(value: unknown, key: string): unknown {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>)[key] : undefined;
}

export function positiveInt(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isInteger(value) && value > 0 ? value : undefined;
}

function causeCode(err: unknown): string | undefined {
  for (let e: unknown = err, depth = 0; e && depth < 4; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}

function portOf(url: string): string {
  try {
    return new URL(url).port;
  } catch {
    return '';
  }
}

function capital(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
