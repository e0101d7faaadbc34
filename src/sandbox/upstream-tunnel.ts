/**
 * The egress proxy's own way out: straight to the host, or through the HTTP(S) proxy that
 * lindwyrm's proxy settings choose for it (proxy, no_proxy, "system"), as model traffic does.
 * A SOCKS proxy setting is not chained: those hosts are reached directly.
 */
import { connect, type Socket } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import type { Config } from '../config/types.js';
import { chooseProxy } from '../providers/proxy.js';

/** The proxy URL to chain through for host:port, or undefined for a direct connection. */
export type UpstreamChooser = (host: string, port: number) => string | undefined;

export function upstreamFromConfig(config: Config, env: Readonly<Record<string, string | undefined>>): UpstreamChooser {
  return (host, port) => {
    try {
      const name = host.includes(':') ? `[${host}]` : host;
      const choice = chooseProxy({ target: `https://${name}:${port}/`, presetProxy: undefined, globalProxy: config.proxy, noProxy: config.noProxy, env });
      return choice.kind === 'proxy' && /^https?:/.test(choice.url) ? choice.url : undefined;
    } catch {
      return undefined;
    }
  };
}

function authorization(url: URL): string {
  if (!url.username) return '';
  const pair = `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`;
  return `Proxy-Authorization: Basic ${Buffer.from(pair).toString('base64')}\r\n`;
}

/** A connected socket to host:port, tunnelled through `proxyUrl` when given. */
export function openTunnel(host: string, port: number, proxyUrl: string | undefined): Promise<Socket> {
  return new Promise((resolve, reject) => {
    if (proxyUrl === undefined) {
      const socket = connect({ host, port });
      socket.once('connect', () => resolve(socket));
      socket.once('error', reject);
      return;
    }
    const proxy = new URL(proxyUrl);
    const proxyPort = Number(proxy.port || (proxy.protocol === 'https:' ? 443 : 80));
    const socket: Socket =
      proxy.protocol === 'https:' ? tlsConnect({ host: proxy.hostname, port: proxyPort, servername: proxy.hostname }) : connect({ host: proxy.hostname, port: proxyPort });
    const authority = host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
    socket.once(proxy.protocol === 'https:' ? 'secureConnect' : 'connect', () => {
      socket.write(`CONNECT ${authority} HTTP/1.1\r\nHost: ${authority}\r\n${authorization(proxy)}\r\n`);
    });
    let head = Buffer.alloc(0);
    const onData = (chunk: Buffer): void => {
      head = Buffer.concat([head, chunk]);
      const end = head.indexOf('\r\n\r\n');
      if (end === -1) return;
      socket.off('data', onData);
      const status = head.subarray(0, head.indexOf('\r\n')).toString('latin1');
      if (!/^HTTP\/1\.[01] 200/.test(status)) {
        socket.destroy();
        reject(new Error(`the proxy ${proxy.host} answered ${status}`));
        return;
      }
      const rest = head.subarray(end + 4);
      if (rest.length > 0) socket.unshift(rest);
      resolve(socket);
    };
    socket.on('data', onData);
    socket.once('error', reject);
  });
}
