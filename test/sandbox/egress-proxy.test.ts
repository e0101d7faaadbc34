/** The egress proxy over its unix socket, with a real client (curl's CONNECT, spoken by hand). */
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, request, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { egressAllowed, parseAuthority, startEgressProxy, type EgressEvent, type EgressProxy } from '../../src/sandbox/egress-proxy.js';
import { startConnectProxy } from '../support/connect-proxy.js';

let dir: string;
let target: Server;
let port = 0;
let proxy: EgressProxy;
const events: EgressEvent[] = [];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'lwyrm-egress-'));
  target = createServer((req, res) => res.end(`target saw ${req.method} ${req.url}`));
  await new Promise<void>((r) => target.listen(0, '127.0.0.1', r));
  port = (target.address() as AddressInfo).port;
  proxy = await startEgressProxy({ listen: { socketPath: join(dir, 'p.sock') }, allowed: ['127.0.0.1', '.example.org'], onEvent: (e) => events.push(e) });
});
afterAll(async () => {
  await proxy.close();
  await new Promise<void>((r) => target.close(() => r()));
  await rm(dir, { recursive: true, force: true });
});

/** Sends raw bytes over the proxy socket and collects the answer until the proxy closes or `until` shows. */
function exchange(send: string, until?: RegExp): Promise<string> {
  return new Promise((resolve) => {
    const s = connect(join(dir, 'p.sock'));
    let got = '';
    s.on('data', (d) => {
      got += d.toString();
      if (until?.test(got)) s.destroy();
    });
    s.on('close', () => resolve(got));
    s.write(send);
  });
}

describe('the egress proxy', () => {
  it('tunnels CONNECT to a listed host', async () => {
    const answer = await exchange(`CONNECT 127.0.0.1:${port} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\nGET /tunnelled HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`, /target saw/);
    expect(answer).toContain('200 Connection Established');
    expect(answer).toContain('target saw GET /tunnelled');
  });

  it('refuses other hosts with 403 and their name, records each once', async () => {
    const answer = await exchange('CONNECT evil.example.com:443 HTTP/1.1\r\nHost: evil.example.com:443\r\n\r\n');
    expect(answer).toMatch(/^HTTP\/1\.1 403/);
    expect(answer).toContain('evil.example.com is not in sandbox_network');
    await exchange('CONNECT evil.example.com:443 HTTP/1.1\r\n\r\n');
    expect(proxy.refused()).toEqual(['evil.example.com']);
    expect(events.filter((e) => e.host === 'evil.example.com')).toEqual([{ host: 'evil.example.com', port: 443, allowed: false }]);
  });

  it('forwards plain http:// requests in absolute form, and refuses unlisted ones', async () => {
    const ok = await new Promise<string>((resolve) => {
      const req = request({ socketPath: join(dir, 'p.sock'), path: `http://127.0.0.1:${port}/plain?q=1`, headers: { host: `127.0.0.1:${port}` } }, (res) => {
        let body = '';
        res.on('data', (d) => (body += d));
        res.on('end', () => resolve(`${res.statusCode} ${body}`));
      });
      req.end();
    });
    expect(ok).toBe('200 target saw GET /plain?q=1');
    const refused = await exchange('GET http://other.test/ HTTP/1.1\r\nHost: other.test\r\nConnection: close\r\n\r\n');
    expect(refused).toMatch(/^HTTP\/1\.1 403/);
  });

  it('a listed host that cannot be reached gives 502 with the reason', async () => {
    const answer = await exchange('CONNECT 127.0.0.1:1 HTTP/1.1\r\n\r\n');
    expect(answer).toMatch(/^HTTP\/1\.1 502/);
  });
});

describe('the egress proxy behind lindwyrm\'s own proxy setting', () => {
  it('chains CONNECT through the upstream proxy the settings choose', async () => {
    const corporate = await startConnectProxy();
    const chained = await startEgressProxy({
      listen: { socketPath: join(dir, 'chained.sock') },
      allowed: ['.internal.test'],
      onEvent: () => undefined,
      upstream: () => corporate.url,
    });
    try {
      const answer = await new Promise<string>((resolve) => {
        const s = connect(join(dir, 'chained.sock'));
        let got = '';
        s.on('data', (d) => {
          got += d.toString();
          if (/target saw/.test(got)) s.destroy();
        });
        s.on('close', () => resolve(got));
        // The name does not resolve here: only the upstream proxy (which maps it to 127.0.0.1) can reach it.
        s.write(`CONNECT api.internal.test:${port} HTTP/1.1\r\n\r\nGET /via-upstream HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
      });
      expect(answer).toContain('target saw GET /via-upstream');
      expect(corporate.targets).toEqual([`api.internal.test:${port}`]);
    } finally {
      await chained.close();
      await corporate.close();
    }
  });
});

describe('egress host matching', () => {
  it('uses the proxy module\'s rules: exact, suffix, CIDR, "*"', () => {
    expect(egressAllowed('registry.npmjs.org', ['registry.npmjs.org'])).toBe(true);
    expect(egressAllowed('evil.npmjs.org', ['registry.npmjs.org'])).toBe(false);
    expect(egressAllowed('api.github.com', ['.github.com'])).toBe(true);
    expect(egressAllowed('10.1.2.3', ['10.0.0.0/8'])).toBe(true);
    expect(egressAllowed('anything.test', ['*'])).toBe(true);
  });

  it('reaches the host\'s loopback only by a name listed exactly, never through "*" or a CIDR', () => {
    expect(egressAllowed('127.0.0.1', ['*'])).toBe(false);
    expect(egressAllowed('127.0.0.1', ['127.0.0.0/8'])).toBe(false);
    expect(egressAllowed('localhost', ['127.0.0.1'])).toBe(false);
    expect(egressAllowed('127.0.0.1', ['127.0.0.1'])).toBe(true);
    expect(egressAllowed('::1', ['::1'])).toBe(true);
  });

  it('parses CONNECT authorities, IPv6 included', () => {
    expect(parseAuthority('example.com:443')).toEqual({ host: 'example.com', port: 443 });
    expect(parseAuthority('[::1]:8080')).toEqual({ host: '::1', port: 8080 });
    expect(parseAuthority('example.com')).toBeUndefined();
    expect(parseAuthority('example.com:99999')).toBeUndefined();
  });
});
