/**
 * The loopback redirect (RFC 8252): a one-request HTTP server on 127.0.0.1 that receives the
 * authorization code, checks the state, and closes.
 */
import { createServer, type Server } from 'node:http';

export interface Loopback {
  readonly redirectUri: string;
  /** The code, once the browser comes back with the right state. */
  waitForCode(state: string, timeoutMs: number): Promise<string>;
  close(): void;
}

export async function openLoopback(preferredPort = 0): Promise<Loopback> {
  let deliver: ((url: URL) => void) | undefined;
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (url.pathname !== '/callback') {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
    const failed = url.searchParams.get('error');
    res.end(`<!doctype html><p>${failed ? 'Authorization failed. You can close this tab.' : 'lindwyrm is authorized. You can close this tab.'}</p>`);
    deliver?.(url);
  });
  const port = await new Promise<number>((resolve, reject) => {
    const listen = (p: number): void => {
      server.once('error', (error: NodeJS.ErrnoException) => {
        // The port a stored registration names is taken: any free port, and a new registration.
        if (error.code === 'EADDRINUSE' && p !== 0) listen(0);
        else reject(error);
      });
      server.listen(p, '127.0.0.1', () => {
        const address = server.address();
        resolve(typeof address === 'object' && address ? address.port : p);
      });
    };
    listen(preferredPort);
  });
  return {
    redirectUri: `http://127.0.0.1:${port}/callback`,
    waitForCode(state, timeoutMs) {
      return new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no answer from the browser within ${Math.round(timeoutMs / 1000)} s`)), timeoutMs);
        deliver = (url) => {
          if (url.searchParams.get('state') !== state) return;
          clearTimeout(timer);
          const code = url.searchParams.get('code');
          const error = url.searchParams.get('error');
          if (code) resolve(code);
          else reject(new Error(`the authorization server answered ${error ?? 'without a code'}`));
        };
      });
    },
    close() {
      server.closeAllConnections?.();
      server.close();
    },
  };
}
