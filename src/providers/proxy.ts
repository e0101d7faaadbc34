/**
 * Which proxy, if any, a request goes through. Off by default; HTTP_PROXY and friends count only
 * when a setting says "system", so a stray shell variable cannot reroute API traffic. Order:
 * --proxy, then the preset's value, then the global one. Loopback is always direct — a proxy
 * would resolve "localhost" on its own side — and --proxy otherwise overrides everything,
 * no_proxy included.
 */
import type { Dispatcher } from 'undici';
import { Agent, ProxyAgent, Socks5ProxyAgent } from './undici-parts.js';
import type { ProxySetting } from '../config/types.js';
import { ProviderError } from './types.js';
import { bareHost, isLoopback, matchesNoProxy } from './proxy-hosts.js';

// Host matching lives apart, without undici: the config reader needs it before anything is drawn.
export { bareHost, isLoopback, matchesNoProxy } from './proxy-hosts.js';

export type ProxyChoice =
  | { readonly kind: 'direct'; readonly why: string }
  | { readonly kind: 'proxy'; readonly url: string; readonly source: string };

export interface ProxyInput {
  readonly target: string;
  /** --proxy or /proxy; false (/proxy off) means direct whatever the presets say. */
  readonly cliProxy?: string | false;
  readonly presetProxy: ProxySetting;
  readonly globalProxy: ProxySetting;
  readonly noProxy: readonly string[];
  readonly env: Readonly<Record<string, string | undefined>>;
}

const SCHEMES = new Set(['http:', 'https:', 'socks5:', 'socks5h:']);

export function chooseProxy(input: ProxyInput): ProxyChoice {
  const target = new URL(input.target);
  const host = bareHost(target.hostname);
  if (isLoopback(host)) return { kind: 'direct', why: 'loopback is always reached directly' };
  if (input.cliProxy === false) return { kind: 'direct', why: 'the proxy was turned off with /proxy off' };

  let setting: ProxySetting;
  let source: string;
  if (input.cliProxy) [setting, source] = [input.cliProxy, '--proxy'];
  else if (input.presetProxy !== undefined) [setting, source] = [input.presetProxy, 'preset proxy'];
  else [setting, source] = [input.globalProxy, 'global proxy'];

  if (setting === undefined || setting === false || setting === '') return { kind: 'direct', why: 'no proxy configured' };

  const fromCli = source === '--proxy';
  let url: string | undefined;
  const noProxy = fromCli ? [] : [...input.noProxy];
  if (setting === 'system') {
    url = systemProxy(target.protocol, input.env);
    noProxy.push(...splitList(input.env['NO_PROXY'] ?? input.env['no_proxy']));
    source = `${source} "system" (environment)`;
    if (!url) return { kind: 'direct', why: 'proxy = "system" but no proxy variable is set' };
  } else url = setting;

  if (matchesNoProxy(host, noProxy)) return { kind: 'direct', why: `${host} is listed in no_proxy` };
  validateProxyUrl(url, source);
  return { kind: 'proxy', url, source };
}

function systemProxy(protocol: string, env: ProxyInput['env']): string | undefined {
  const pick = (...names: string[]): string | undefined => {
    for (const n of names) {
      const v = env[n];
      if (v && v.trim().length > 0) return v.trim();
    }
    return undefined;
  };
  const specific = protocol === 'https:' ? pick('HTTPS_PROXY', 'https_proxy') : pick('HTTP_PROXY', 'http_proxy');
  return specific ?? pick('ALL_PROXY', 'all_proxy');
}

function splitList(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}

/** Proxy URLs can carry credentials: whatever shows or logs one gets it without its password. */
export function redactProxyUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return url;
  }
}

/** Throws a clear error unless `url` is an http, https or SOCKS5 proxy URL; `source` names where it was set. */
export function validateProxyUrl(url: string, source: string): void {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new ProviderError('bad_request', `The ${source} "${url}" is not a URL (expected http://, https://, socks5:// or socks5h://).`);
  }
  if (!SCHEMES.has(parsed.protocol)) {
    throw new ProviderError('bad_request', `The ${source} "${url}" uses ${parsed.protocol}; supported are http://, https://, socks5:// and socks5h://.`);
  }
}

/**
 * undici prints an ExperimentalWarning the first time a Socks5ProxyAgent is built; on stderr it
 * would scribble over the full-screen UI, so that one warning is swallowed.
 */
function quietly<T>(build: () => T): T {
  const original = process.emitWarning;
  process.emitWarning = ((warning: string | Error, ...rest: unknown[]) => {
    if (String(warning instanceof Error ? warning.message : warning).includes('SOCKS5 proxy support is experimental')) return;
    (original as (...args: unknown[]) => void).call(process, warning, ...rest);
  }) as typeof process.emitWarning;
  try {
    return build();
  } finally {
    process.emitWarning = original;
  }
}

export interface DispatcherOptions {
  readonly connectTimeoutMs?: number;
}

export function createDispatcher(choice: ProxyChoice, opts: DispatcherOptions = {}): Dispatcher {
  const connect = { timeout: opts.connectTimeoutMs ?? 10_000 };
  // Streams run for minutes; undici's own body/headers timeouts are replaced by our idle timer.
  const timeouts = { bodyTimeout: 0, headersTimeout: 0 };
  if (choice.kind === 'direct') return new Agent({ connect, ...timeouts });
  const url = new URL(choice.url);
  if (url.protocol === 'socks5:' || url.protocol === 'socks5h:') {
    // undici hands the hostname to the proxy either way, so socks5 and socks5h behave alike.
    url.protocol = 'socks5:';
    return quietly(() => new Socks5ProxyAgent(url.toString(), timeouts));
  }
  return new ProxyAgent({ uri: choice.url, ...timeouts });
}
