/**
 * sandbox_network entries: which hosts a sandboxed command may reach through the egress proxy.
 * The spelling is no_proxy's (an exact host, a ".suffix", a CIDR, "*"), plus "*.suffix" as people
 * write it elsewhere; matching is the proxy module's, so model traffic and commands agree.
 */
import { isIP } from 'node:net';
import { bareHost, isLoopback, matchesNoProxy } from '../providers/proxy-hosts.js';

const HOST_NAME = /^[a-z0-9_]([a-z0-9_-]*[a-z0-9_])?(\.[a-z0-9_]([a-z0-9_-]*[a-z0-9_])?)*$/;

export type ParsedPattern = { readonly ok: true; readonly pattern: string } | { readonly ok: false; readonly expected: string };

/** One entry as written in a config file, normalised (lower case, "*.x" as ".x") or refused. */
export function parseHostPattern(raw: string): ParsedPattern {
  const text = raw.trim().toLowerCase();
  if (text === '*') return { ok: true, pattern: '*' };
  if (/^[a-z][a-z0-9+.-]*:\/\//.test(text)) return { ok: false, expected: 'a host name such as "github.com", not a URL' };
  if (text.includes('/')) {
    const [net, bits] = text.split('/');
    const width = isIP(bareHost(net ?? ''));
    const n = Number(bits);
    if (width !== 0 && Number.isInteger(n) && n >= 0 && n <= (width === 4 ? 32 : 128)) return { ok: true, pattern: text };
    return { ok: false, expected: 'a CIDR range such as "10.0.0.0/8"' };
  }
  if (isIP(bareHost(text)) !== 0) return { ok: true, pattern: bareHost(text) };
  const suffix = text.startsWith('*.') ? text.slice(1) : text;
  const name = suffix.startsWith('.') ? suffix.slice(1) : suffix;
  if (/:\d+$/.test(name)) return { ok: false, expected: 'a host without a port (every port of a listed host is open)' };
  if (!HOST_NAME.test(name)) return { ok: false, expected: 'a host name ("github.com"), a suffix (".github.com" or "*.github.com"), an IP address or a CIDR range' };
  return { ok: true, pattern: suffix };
}

export function hostAllowed(host: string, patterns: readonly string[]): boolean {
  return matchesNoProxy(host, patterns);
}

/**
 * Loopback names the allowlist names explicitly. Loopback inside the sandbox is its own; listing
 * "localhost" or "127.0.0.1" is the one way to mean the host's, through the proxy.
 */
export function listedLoopback(patterns: readonly string[]): string[] {
  return patterns.filter((p) => !p.includes('/') && !p.startsWith('.') && p !== '*' && isLoopback(p));
}
