/**
 * The few pieces of undici the providers use, loaded from their own modules. undici's package
 * index also evaluates fetch, WebSocket, the cache stores, cookies and the mock agents; on the
 * one-shot path that cost about twice what these parts do (scripts/bench-oneshot.ts). undici is
 * pinned to an exact version in package.json and declares no "exports" map, so these paths are
 * reachable; should a future version move them, the package index is the fallback.
 */
import { createRequire } from 'node:module';
import type { Agent as AgentClass, Dispatcher, ProxyAgent as ProxyAgentClass, Socks5ProxyAgent as Socks5Class } from 'undici';

const load = createRequire(import.meta.url);

type RequestFn = (this: Dispatcher, opts: Dispatcher.RequestOptions) => Promise<Dispatcher.ResponseData>;

interface Parts {
  readonly Agent: typeof AgentClass;
  readonly ProxyAgent: typeof ProxyAgentClass;
  readonly Socks5ProxyAgent: typeof Socks5Class;
  readonly request: RequestFn;
}

function loadParts(): Parts {
  try {
    // The index gives every dispatcher its request/connect/stream methods this way; ProxyAgent
    // relies on it (its tunnel calls client.connect), so the same wiring is done here.
    const api = load('undici/lib/api/index.js') as Record<string, unknown> & { request: RequestFn };
    const base = load('undici/lib/dispatcher/dispatcher.js') as { prototype: object };
    Object.assign(base.prototype, api);
    return {
      Agent: load('undici/lib/dispatcher/agent.js') as typeof AgentClass,
      ProxyAgent: load('undici/lib/dispatcher/proxy-agent.js') as typeof ProxyAgentClass,
      Socks5ProxyAgent: load('undici/lib/dispatcher/socks5-proxy-agent.js') as typeof Socks5Class,
      request: api.request,
    };
  } catch {
    const whole = load('undici') as typeof import('undici');
    return {
      Agent: whole.Agent,
      ProxyAgent: whole.ProxyAgent,
      Socks5ProxyAgent: whole.Socks5ProxyAgent,
      request: whole.Dispatcher.prototype.request as RequestFn,
    };
  }
}

const parts = loadParts();

export const Agent = parts.Agent;
export const ProxyAgent = parts.ProxyAgent;
export const Socks5ProxyAgent = parts.Socks5ProxyAgent;

export type RequestOptions = Omit<Dispatcher.RequestOptions, 'origin' | 'path'> & { readonly dispatcher: Dispatcher };

/** undici's top-level request(url, {dispatcher}) without the index: the URL split into origin and path. */
export function request(url: string, opts: RequestOptions): Promise<Dispatcher.ResponseData> {
  const { dispatcher, ...rest } = opts;
  const u = new URL(url);
  return parts.request.call(dispatcher, { ...rest, origin: u.origin, path: `${u.pathname}${u.search}` });
}
