/**
 * Loads the few pieces of undici the providers use from undici's own modules, with the package
 * index as the fallback (why: undici-parts.ts). Kept apart from undici-parts.ts, which loads at
 * import, so a test can run the fallback in a process that never loaded the internals.
 */
import { createRequire } from 'node:module';
import type { Agent as AgentClass, Dispatcher, ProxyAgent as ProxyAgentClass, Socks5ProxyAgent as Socks5Class } from 'undici';

export type Load = (id: string) => unknown;

export type RequestFn = (this: Dispatcher, opts: Dispatcher.RequestOptions) => Promise<Dispatcher.ResponseData>;

export interface UndiciParts {
  readonly Agent: typeof AgentClass;
  readonly ProxyAgent: typeof ProxyAgentClass;
  readonly Socks5ProxyAgent: typeof Socks5Class;
  readonly request: RequestFn;
  /** Which way they were loaded: 'modules' (the fast path) or 'index' (the fallback). */
  readonly source: 'modules' | 'index';
}

/** undici's own module paths, relative to the package (7.30.2). */
export const UNDICI_MODULES = {
  api: 'undici/lib/api/index.js',
  dispatcher: 'undici/lib/dispatcher/dispatcher.js',
  agent: 'undici/lib/dispatcher/agent.js',
  proxyAgent: 'undici/lib/dispatcher/proxy-agent.js',
  socks5ProxyAgent: 'undici/lib/dispatcher/socks5-proxy-agent.js',
} as const;

function isFunction(v: unknown): boolean {
  return typeof v === 'function';
}

/**
 * `load` and `modules` are parameters so a test can make the internal paths fail (or point
 * elsewhere) without touching node_modules; the program uses the defaults.
 */
export function loadUndiciParts(load: Load = createRequire(import.meta.url), modules: typeof UNDICI_MODULES = UNDICI_MODULES): UndiciParts {
  try {
    const api = load(modules.api) as Record<string, unknown> & { request: RequestFn };
    const base = load(modules.dispatcher) as { prototype: object };
    const found = {
      Agent: load(modules.agent) as typeof AgentClass,
      ProxyAgent: load(modules.proxyAgent) as typeof ProxyAgentClass,
      Socks5ProxyAgent: load(modules.socks5ProxyAgent) as typeof Socks5Class,
      request: api.request,
    };
    // A future undici that keeps a file but changes what it exports must not half-work.
    if (!Object.values(found).every(isFunction) || !isFunction(base)) throw new Error('undici internals changed shape');
    // The index gives every dispatcher its request/connect/stream methods this way; ProxyAgent
    // relies on it (its tunnel calls client.connect), so the same wiring is done here, and only
    // once everything it needs was found.
    Object.assign(base.prototype, api);
    return { ...found, source: 'modules' };
  } catch {
    const whole = load('undici') as typeof import('undici');
    return {
      Agent: whole.Agent,
      ProxyAgent: whole.ProxyAgent,
      Socks5ProxyAgent: whole.Socks5ProxyAgent,
      request: whole.Dispatcher.prototype.request as RequestFn,
      source: 'index',
    };
  }
}

export type RequestOptions = Omit<Dispatcher.RequestOptions, 'origin' | 'path'> & { readonly dispatcher: Dispatcher };

/** undici's top-level request(url, {dispatcher}) through the given parts: the URL split into origin and path. */
export function requestWith(parts: Pick<UndiciParts, 'request'>, url: string, opts: RequestOptions): Promise<Dispatcher.ResponseData> {
  const { dispatcher, ...rest } = opts;
  const u = new URL(url);
  return parts.request.call(dispatcher, { ...rest, origin: u.origin, path: `${u.pathname}${u.search}` });
}
