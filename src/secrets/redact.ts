/**
 * The one redaction module: every place a secret could leave the process — a session file, an
 * audit line, a provider's error message that quotes the key it refused — replaces the values
 * through here. What replaces them differs by where it goes (a session file says [REDACTED], an
 * audit line names the variable), the matching does not.
 */

/** What a session file holds in place of a secret. */
export const REDACTED = '[REDACTED]';

/** Shorter values would match ordinary text and mangle what they are cut out of. */
export const MIN_SECRET_LENGTH = 6;

export interface SecretMatcher {
  /** The secret values themselves, longest first. */
  readonly values: readonly string[];
  /** The same values as they appear inside a JSON string: a cheap pre-check on serialized text. */
  readonly escaped: readonly string[];
}

/**
 * The values to look for. A proxy URL also yields its password and user:password, which is what
 * would leak if the URL was ever printed without them. Longest first, so a key that contains a
 * shorter secret is removed whole.
 */
export function secretMatcher(secrets: readonly string[], minLength: number = MIN_SECRET_LENGTH): SecretMatcher {
  const raw = new Set<string>();
  for (const secret of secrets) {
    if (typeof secret !== 'string') continue;
    raw.add(secret);
    for (const part of urlCredentials(secret)) raw.add(part);
  }
  const values = [...raw].filter((v) => v.length >= minLength).sort((a, b) => b.length - a.length);
  return { values, escaped: values.map((v) => JSON.stringify(v).slice(1, -1)) };
}

/** `text` with every secret replaced by `mark` (or what `mark` says for that value); the count. */
export function redactText(text: string, matcher: SecretMatcher, mark: string | ((value: string) => string) = REDACTED): { text: string; hits: number } {
  let out = text;
  let hits = 0;
  for (const value of matcher.values) {
    if (!out.includes(value)) continue;
    const parts = out.split(value);
    hits += parts.length - 1;
    out = parts.join(typeof mark === 'string' ? mark : mark(value));
  }
  return { text: out, hits };
}

/**
 * Redacts secrets from a JSON text. The text is only parsed when the pre-check fires; then every
 * string (keys included) is cleaned and the value re-serialized, so the result is always valid JSON.
 */
export function redactJson(json: string, matcher: SecretMatcher): { text: string; hits: number } {
  if (!matcher.escaped.some((pattern) => json.includes(pattern))) return { text: json, hits: 0 };
  let hits = 0;
  const clean = (text: string): string => {
    const r = redactText(text, matcher);
    hits += r.hits;
    return r.text;
  };
  const walk = (value: unknown): unknown => {
    if (typeof value === 'string') return clean(value);
    if (Array.isArray(value)) return value.map(walk);
    if (typeof value === 'object' && value !== null) {
      // No prototype: a '__proto__' key stays a plain key.
      const out = Object.create(null) as Record<string, unknown>;
      for (const [k, v] of Object.entries(value)) out[clean(k)] = walk(v);
      return out;
    }
    return value;
  };
  const text = JSON.stringify(walk(JSON.parse(json)));
  return { text, hits };
}

/**
 * Whether a string of `value` (keys included) holds a secret: redactJson of its JSON would change
 * something exactly when this is true. Looks without serializing (the value may be megabytes).
 */
export function holdsSecret(value: unknown, matcher: SecretMatcher): boolean {
  if (matcher.values.length === 0) return false;
  const has = (text: string): boolean => matcher.values.some((v) => text.includes(v));
  const walk = (v: unknown): boolean => {
    if (typeof v === 'string') return has(v);
    if (typeof v !== 'object' || v === null) return false;
    if (Array.isArray(v)) return v.some(walk);
    return Object.entries(v).some(([k, item]) => has(k) || walk(item));
  };
  return walk(value);
}

/** Keys are long; the redaction of messages and log lines leaves shorter values alone. */
const MIN_KEY_LENGTH = 8;

/** A provider's message with the keys it was sent replaced ('invalid key sk-…' reaches stderr and CI logs). */
export function redactKeys(text: string, keys: readonly string[] = []): string {
  return redactText(text, secretMatcher(keys, MIN_KEY_LENGTH), '[redacted]').text;
}

/**
 * A log line with the values of these variables replaced by `[NAME redacted]`: a command can
 * carry a key the model found and pasted.
 */
export function redactEnvValues(text: string, names: readonly string[], env: Readonly<Record<string, string | undefined>> = process.env): string {
  const byValue = new Map<string, string>();
  for (const name of names) {
    const value = env[name];
    if (value !== undefined && !byValue.has(value)) byValue.set(value, name);
  }
  return redactText(text, secretMatcher([...byValue.keys()], MIN_KEY_LENGTH), (value) => `[${byValue.get(value) ?? 'secret'} redacted]`).text;
}

function urlCredentials(value: string): string[] {
  if (!value.includes('@') || !value.includes('://')) return [];
  try {
    const url = new URL(value);
    const out: string[] = [];
    const password = decodeURIComponent(url.password);
    const username = decodeURIComponent(url.username);
    if (password) out.push(password, url.password, `${username}:${password}`, `${url.username}:${url.password}`);
    return out;
  } catch {
    return []; // not a URL after all: nothing more in it to look for
  }
}
