/**
 * Host matching for the proxy rules (no_proxy, loopback) and the sandbox's network patterns, in a
 * module of its own: the config reader uses it, and loading undici (proxy.ts) on that path cost
 * the first frame tens of milliseconds.
 */
import { isIP } from 'node:net';

/**
 * The host as the rules compare it: no brackets, no trailing root dot, and an IPv4-mapped IPv6
 * address as plain IPv4 — URL parsing turns [::ffff:127.0.0.1] into [::ffff:7f00:1].
 */
export function bareHost(hostname: string): string {
  let h = hostname.toLowerCase();
  if (h.startsWith('[') && h.endsWith(']')) h = h.slice(1, -1);
  if (h.endsWith('.') && h.length > 1) h = h.slice(0, -1);
  if (isIP(h) === 6) {
    const b = ipBytes(h);
    if (b && b.length === 16 && b.slice(0, 10).every((x) => x === 0) && b[10] === 0xff && b[11] === 0xff) return b.slice(12).join('.');
  }
  return h;
}

export function isLoopback(host: string): boolean {
  const h = bareHost(host);
  if (h === 'localhost' || h.endsWith('.localhost')) return true;
  if (isIP(h) === 4) return h.startsWith('127.');
  if (isIP(h) === 6) return ipBytes(h)?.every((x, i) => x === (i === 15 ? 1 : 0)) ?? false;
  return false;
}

/** no_proxy entries: an exact host, a domain suffix (".internal"), a CIDR, or "*" for everything. */
export function matchesNoProxy(host: string, entries: readonly string[]): boolean {
  const h = bareHost(host);
  for (const raw of entries) {
    const e = raw.trim().toLowerCase();
    if (e.length === 0) continue;
    if (e === '*') return true;
    if (e.includes('/')) {
      if (inCidr(h, e)) return true;
    } else if (e.startsWith('.')) {
      if (h.endsWith(e)) return true;
    } else if (bareHost(e) === h) return true;
  }
  return false;
}

function inCidr(host: string, cidr: string): boolean {
  const [net, bitsText] = cidr.split('/');
  const bits = Number(bitsText);
  if (!net || !Number.isInteger(bits)) return false;
  const a = ipBytes(host);
  const b = ipBytes(bareHost(net));
  if (!a || !b || a.length !== b.length || bits < 0 || bits > a.length * 8) return false;
  for (let i = 0; i < bits; i++) {
    const byte = i >> 3;
    const mask = 0x80 >> (i & 7);
    if (((a[byte] ?? 0) & mask) !== ((b[byte] ?? 0) & mask)) return false;
  }
  return true;
}

function ipBytes(ip: string): number[] | undefined {
  const kind = isIP(ip);
  if (kind === 4) return ip.split('.').map(Number);
  if (kind !== 6) return undefined;
  const [head, tail] = ip.includes('::') ? ip.split('::') : [ip, undefined];
  const parse = (s: string | undefined): number[] => (s ? s.split(':').flatMap(group) : []);
  const left = parse(head);
  const right = parse(tail);
  const fill = tail === undefined ? [] : new Array<number>(16 - left.length - right.length).fill(0);
  return [...left, ...fill, ...right];
}

/** One IPv6 group as two bytes; an embedded IPv4 tail (::ffff:1.2.3.4) as four. */
function group(g: string): number[] {
  if (g.includes('.')) return g.split('.').map(Number);
  const v = Number.parseInt(g, 16);
  return [(v >> 8) & 0xff, v & 0xff];
}
