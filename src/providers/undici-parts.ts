/**
 * The few pieces of undici the providers use, loaded from their own modules. undici's package
 * index also evaluates fetch, WebSocket, the cache stores, cookies and the mock agents; on the
 * one-shot path that cost about twice what these parts do (scripts/bench-oneshot.ts). undici is
 * pinned to an exact version in package.json and declares no "exports" map, so these paths are
 * reachable; should a future version move them, the package index is the fallback.
 */
import type { Dispatcher } from 'undici';
import { loadUndiciParts, requestWith, type RequestOptions } from './undici-loader.js';

const parts = loadUndiciParts();

export const Agent = parts.Agent;
export const ProxyAgent = parts.ProxyAgent;
export const Socks5ProxyAgent = parts.Socks5ProxyAgent;

export type { RequestOptions } from './undici-loader.js';

/** undici's top-level request(url, {dispatcher}) without the index. */
export function request(url: string, opts: RequestOptions): Promise<Dispatcher.ResponseData> {
  return requestWith(parts, url, opts);
}
