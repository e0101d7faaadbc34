/**
 * A minimal SOCKS5 server (no auth, CONNECT only) on 127.0.0.1 for proxy tests. Like the CONNECT
 * proxy, it sends every connection to 127.0.0.1 at the requested port and records what the
 * client asked for — a domain name when the client let the proxy resolve it.
 */
import { connect, createServer, type AddressInfo, type Socket } from 'node:net';
import type { TestProxy } from './connect-proxy.js';

export async function startSocks5Server(): Promise<TestProxy> {
  const targets: string[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    client.on('error', () => client.destroy());
    let buf = Buffer.alloc(0);
    let stage: 'greeting' | 'request' | 'piping' = 'greeting';
    const onData = (chunk: Buffer): void => {
      buf = Buffer.concat([buf, chunk]);
      if (stage === 'greeting') {
        if (buf.length < 2 || buf.length < 2 + (buf[1] ?? 0)) return;
        buf = buf.subarray(2 + (buf[1] ?? 0));
        client.write(Buffer.from([5, 0])); // no authentication
        stage = 'request';
      }
      if (stage === 'request') {
        const parsed = parseRequest(buf);
        if (!parsed) return;
        client.off('data', onData);
        stage = 'piping';
        targets.push(`${parsed.host}:${parsed.port}`);
        const upstream = connect(parsed.port, '127.0.0.1', () => {
          client.write(Buffer.from([5, 0, 0, 1, 127, 0, 0, 1, 0, 0]));
          const rest = buf.subarray(parsed.length);
          if (rest.length > 0) upstream.write(rest);
          upstream.pipe(client);
          client.pipe(upstream);
        });
        sockets.add(upstream);
        upstream.on('close', () => {
          sockets.delete(upstream);
          client.destroy();
        });
        upstream.on('error', () => client.destroy());
        client.on('close', () => upstream.destroy());
      }
    };
    client.on('data', onData);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `socks5h://127.0.0.1:${port}`,
    port,
    targets,
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}

/** VER CMD RSV ATYP DST.ADDR DST.PORT; undefined until the whole request has arrived. */
function parseRequest(b: Buffer): { host: string; port: number; length: number } | undefined {
  if (b.length < 5) return undefined;
  const atyp = b[3];
  let host: string;
  let at: number;
  if (atyp === 1) {
    if (b.length < 10) return undefined;
    host = Array.from(b.subarray(4, 8)).join('.');
    at = 8;
  } else if (atyp === 3) {
    const len = b[4] ?? 0;
    if (b.length < 5 + len + 2) return undefined;
    host = b.subarray(5, 5 + len).toString('latin1');
    at = 5 + len;
  } else if (atyp === 4) {
    if (b.length < 22) return undefined;
    host = b.subarray(4, 20).toString('hex');
    at = 20;
  } else return undefined;
  return { host, port: b.readUInt16BE(at), length: at + 2 };
}
