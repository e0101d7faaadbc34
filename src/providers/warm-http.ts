/**
 * undici compiles its HTTP parser (WebAssembly) on its first connection, and its request path
 * runs cold once: on a busy machine that was tens of milliseconds between a prompt's Enter and
 * its request. A full-screen session warms both while the input is idle, with one request over
 * loopback to a server of its own — never to the provider, which sees nothing of it.
 */
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { Agent, request } from './undici-parts.js';
import { ignoreError } from '../diagnostics/ignore-error.js';

/** One throwaway request to 127.0.0.1; never fails (a warm-up that cannot run changes nothing). */
export async function warmHttpClient(): Promise<void> {
  const server = createServer((socket) => {
    socket.once('data', () => socket.end('HTTP/1.1 204 No Content\r\nConnection: close\r\n\r\n'));
    socket.on('error', () => undefined);
  });
  const agent = new Agent({ connections: 1 });
  try {
    await new Promise<void>((resolve, reject) => server.once('error', reject).listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const res = await request(`http://127.0.0.1:${port}/`, { method: 'GET', dispatcher: agent, headersTimeout: 5000, bodyTimeout: 5000 });
    await res.body.dump();
  } catch {
    // Cold it stays: the first prompt pays the compile, as before.
  } finally {
    await agent.close().catch(ignoreError('close the warm-up client'));
    server.close();
  }
}
