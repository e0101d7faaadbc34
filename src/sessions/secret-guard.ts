/**
 * Last line of defence: a session file must never hold an API key, a header value or a proxy
 * credential. The store is told those values and replaces any occurrence in what it is about to write.
 */

export const REDACTED = '[REDACTED]';

/** Shorter values would match ordinary text and mangle the history for nothing. */
const MIN_SECRET_LENGTH = 6;

export interface SecretMatcher {
  /** The secret values themselves, longest first. */
  readonly values: readonly string[];
  /** The same values as they appear inside a JSON string: a cheap pre-check on serialized text. */
  readonly escaped: readonly string[];
}

/**
 * A proxy URL also yields its password and user:password, which is what would leak if the URL
 * was ever printed without them.
 */
export function secretMatcher(secrets: readonly string[]): SecretMatcher {
  const raw = new Set<string>();
  for (const secret of secrets) {
    if (typeof secret !== 'string') continue;
    raw.add(secret);
    for (const part of urlCredentials(secret)) raw.add(part);
  }
  // Longest first, so a key that contains a shorter secret is removed whole.
  const values = [...raw].filter((v) => v.length >= MIN_SECRET_LENGTH).sort((a, b) => b.length - a.length);
  return { values, escaped: values.map((v) => JSON.stringify(v).slice(1, -1)) };
}

/**
 * Redacts secrets from a JSON text. The text is only parsed when the pre-check fires; then every
 * string (keys included) is cleaned and the value re-serialized, so the result is always valid JSON.
 */
export function redactJson(json: string, matcher: SecretMatcher): { text: string; hits: number } {
  if (!matcher.escaped.some((pattern) => json.includes(pattern))) return { text: json, hits: 0 };
  let hits = 0;
  const clean = (text: string): string => {
    let out = text;
    for (const value of matcher.values) {
      if (!out.includes(value)) continue;
      const parts = out.split(value);
      hits += parts.length - 1;
      out = parts.join(REDACTED);
    }
    return out;
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
    return [];
  }
}
