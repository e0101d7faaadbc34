/**
 * When and how long to wait before retrying a failed request: 408, 409, 429, every 5xx and
 * connection failures are transient; the server's own hint (x-should-retry, retry-after-ms,
 * Retry-After in seconds or as an HTTP date) wins over exponential backoff with jitter.
 */

export type HeaderBag = Record<string, string | string[] | undefined>;

export interface BackoffOptions {
  /** First backoff step in ms (default 500); the cap is 16 steps (8 s by default). */
  readonly baseMs: number;
  /** Returns a number in [0, 1); injectable for tests. */
  readonly random?: () => number;
  readonly now?: () => number;
}

/** Server hints above this are distrusted (a misconfigured proxy can say "retry in a day"). */
const MAX_SERVER_DELAY_MS = 60_000;

export function header(headers: HeaderBag, name: string): string | undefined {
  const v = headers[name];
  return Array.isArray(v) ? v[0] : v;
}

export function isRetryableStatus(status: number, headers: HeaderBag): boolean {
  const hint = header(headers, 'x-should-retry');
  if (hint === 'true') return true;
  if (hint === 'false') return false;
  return status === 408 || status === 409 || status === 429 || status >= 500;
}

/** The server's requested delay in ms, or undefined when it gave none that can be trusted. */
export function serverDelayMs(headers: HeaderBag, now: number = Date.now()): number | undefined {
  const ms = header(headers, 'retry-after-ms');
  if (ms !== undefined) {
    const v = Number.parseFloat(ms);
    if (Number.isFinite(v) && v >= 0 && v <= MAX_SERVER_DELAY_MS) return v;
  }
  const after = header(headers, 'retry-after');
  if (after === undefined || after.trim() === '') return undefined;
  let v: number;
  if (/^\s*\d+(\.\d+)?\s*$/.test(after)) v = Number.parseFloat(after) * 1000;
  else {
    const at = Date.parse(after);
    if (Number.isNaN(at)) return undefined;
    v = Math.max(0, at - now);
  }
  return Number.isFinite(v) && v >= 0 && v <= MAX_SERVER_DELAY_MS ? v : undefined;
}

/** Exponential backoff: base·2^attempt, capped at 16·base, times a jitter in [0.75, 1]. */
export function backoffMs(attempt: number, opts: BackoffOptions): number {
  const random = opts.random ?? Math.random;
  const step = Math.min(opts.baseMs * 2 ** attempt, opts.baseMs * 16);
  return step * (1 - random() * 0.25);
}

export function retryDelayMs(attempt: number, headers: HeaderBag | undefined, opts: BackoffOptions): number {
  const fromServer = headers ? serverDelayMs(headers, (opts.now ?? Date.now)()) : undefined;
  return fromServer ?? backoffMs(attempt, opts);
}

/** Sleeps, waking early (and rejecting) when the signal aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new Error('aborted'));
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(new Error('aborted'));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
