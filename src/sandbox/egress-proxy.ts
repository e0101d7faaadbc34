/**
 * The egress proxy: the one way out of a sandbox with no network of its own. An HTTP proxy
 * (CONNECT for https and anything tunnelled, absolute-form requests for plain http) that opens
 * only the hosts sandbox_network lists, and says which host was refused and why. It listens on
 * a unix socket that a forwarder inside the sandbox bridges to (Linux), or on loopback (macOS).
 */
import { createServer, request, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { PassThrough, type Duplex } from 'node:stream';
import { bareHost, isLoopback } from '../providers/proxy-hosts.js';
import { hostAllowed, listedLoopback } from './host-patterns.js';
import { openTunnel, type UpstreamChooser } from './upstream-tunnel.js';

export interface EgressEvent {
  readonly host: string;
  readonly port: number;
  readonly allowed: boolean;
}

export interface EgressProxy {
  /** The socket path, or the loopback port when listening on TCP. */
  readonly socketPath?: string;
  readonly port?: number;
  /** Hosts refused so far, in order, each once. */
  refused(): readonly string[];
  close(): Promise<void>;
}

export interface EgressOptions {
  readonly listen: { readonly socketPath: string } | { readonly port: 0 };
  readonly allowed: readonly string[];
  /** Called once per host and verdict: the audit log line. */
  readonly onEvent: (event: EgressEvent) => void;
  /** The proxy to chain through per host (lindwyrm's proxy settings); default direct. */
  readonly upstream?: UpstreamChooser;
}

/** "host:port" or "[v6]:port" of a CONNECT line. */
export function parseAuthority(text: string): { host: string; port: number } | undefined {
  const m = /^\[([^\]]+)\]:(\d+)$/.exec(text) ?? /^([^:[\]]+):(\d+)$/.exec(text);
  const port = Number(m?.[2]);
  if (!m?.[1] || !Number.isInteger(port) || port < 1 || port > 65535) return undefined;
  return { host: bareHost(m[1]), port };
}

/** Loopback counts only when listed by name: "*" and suffixes never reach the host's own services. */
export function egressAllowed(host: string, allowed: readonly string[]): boolean {
  if (isLoopback(host)) return listedLoopback(allowed).some((name) => bareHost(name) === bareHost(host));
  return hostAllowed(host, allowed);
}

const HOP_BY_HOP = ['proxy-connection', 'proxy-authorization', 'connection', 'keep-alive', 'te', 'trailer', 'upgrade'];

export async function startEgressProxy(opts: EgressOptions): Promise<EgressProxy> {
  const refused: string[] = [];
  const seen = new Set<string>();
  const sockets = new Set<Socket>();
  const judge = (host: string, port: number): boolean => {
    const allowed = egressAllowed(host, opts.allowed);
    const key = `${allowed}\0${host}\0${port}`;
    if (!seen.has(key)) {
      seen.add(key);
      opts.onEvent({ host, port, allowed });
      if (!allowed && !refused.includes(host)) refused.push(host);
    }
    return allowed;
  };
  const refusal = (host: string): string => `lindwyrm sandbox: ${host} is not in sandbox_network, so the connection was refused\n`;

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let target: URL;
    try {
      target = new URL(req.url ?? '');
    } catch {
      res.writeHead(400, { 'content-type': 'text/plain' }).end('lindwyrm sandbox: send requests through this proxy with an absolute URL\n');
      return;
    }
    const host = bareHost(target.hostname);
    const port = Number(target.port || (target.protocol === 'https:' ? 443 : 80));
    if (target.protocol !== 'http:' || !judge(host, port)) {
      res.writeHead(403, { 'content-type': 'text/plain' }).end(target.protocol !== 'http:' ? 'lindwyrm sandbox: only http:// goes as a plain request; use CONNECT\n' : refusal(host));
      return;
    }
    const headers = { ...req.headers };
    for (const h of HOP_BY_HOP) delete headers[h];
    const via = opts.upstream?.(host, port);
    // http.request takes the socket later through the callback: the tunnel needs a round trip.
    const createConnection = (_o: unknown, done: (error: Error | null, socket: Duplex) => void): undefined => {
      openTunnel(host, port, via).then((socket) => done(null, socket), (error: Error) => done(error, new PassThrough()));
      return undefined;
    };
    const upstream = request({ host, port, method: req.method, path: `${target.pathname}${target.search}`, headers, ...(via ? { createConnection } : {}) }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', (error) => {
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
      res.end(`lindwyrm sandbox: ${host}:${port} could not be reached: ${error.message}\n`);
    });
    req.pipe(upstream);
  });

  server.on('connect', (req: IncomingMessage, client: Socket, head: Buffer) => {
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    client.on('error', () => undefined);
    const target = parseAuthority(req.url ?? '');
    if (target === undefined) {
      client.end('HTTP/1.1 400 Bad Request\r\nContent-Type: text/plain\r\n\r\nlindwyrm sandbox: CONNECT needs host:port\n');
      return;
    }
    if (!judge(target.host, target.port)) {
      client.end(`HTTP/1.1 403 Forbidden\r\nContent-Type: text/plain\r\nConnection: close\r\n\r\n${refusal(target.host)}`);
      return;
    }
    let upstream: Socket | undefined;
    openTunnel(target.host, target.port, opts.upstream?.(target.host, target.port)).then(
      (socket) => {
        upstream = socket;
        sockets.add(socket);
        socket.on('close', () => sockets.delete(socket));
        socket.on('error', () => client.destroy());
        if (client.destroyed) return void socket.destroy();
        client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
        if (head.length > 0) socket.write(head);
        socket.pipe(client);
        client.pipe(socket);
      },
      (error: Error) => {
        if (client.writable) {
          client.end(`HTTP/1.1 502 Bad Gateway\r\nContent-Type: text/plain\r\n\r\nlindwyrm sandbox: ${target.host}:${target.port} could not be reached: ${error.message}\n`);
        }
      },
    );
    client.on('close', () => upstream?.destroy());
  });
  server.on('clientError', (_error, socket) => socket.destroy());

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    if ('socketPath' in opts.listen) server.listen(opts.listen.socketPath, resolve);
    else server.listen(0, '127.0.0.1', resolve);
  });
  const address = server.address();
  return {
    ...('socketPath' in opts.listen ? { socketPath: opts.listen.socketPath } : {}),
    ...(typeof address === 'object' && address !== null ? { port: address.port } : {}),
    refused: () => refused,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
