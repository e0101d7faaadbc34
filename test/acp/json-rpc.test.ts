/** The JSON-RPC layer on its own: framing, errors for bad lines, requests both ways. */
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createConnection, RpcError } from '../../src/acp/json-rpc.js';

function pair() {
  const input = new PassThrough();
  const out: Record<string, unknown>[] = [];
  const raw: string[] = [];
  const conn = createConnection({
    input,
    write: (line) => {
      raw.push(line);
      out.push(JSON.parse(line) as Record<string, unknown>);
    },
  });
  const send = (m: unknown) => input.write(`${typeof m === 'string' ? m : JSON.stringify(m)}\n`);
  const tick = () => new Promise((r) => setTimeout(r, 10));
  return { input, out, raw, conn, send, tick };
}

describe('JSON-RPC connection', () => {
  it('answers requests, reports handler errors with their code, and survives bad lines', async () => {
    const p = pair();
    p.conn.onRequest('echo', async (params) => ({ got: params }));
    p.conn.onRequest('boom', async () => {
      throw new RpcError(-32602, 'bad params here');
    });
    p.conn.onRequest('crash', async () => {
      throw new Error('something broke');
    });
    p.send('not json at all');
    p.send('{"jsonrpc":"2.0","id":1}');
    p.send('{"jsonrpc":"1.0","id":2,"method":"echo"}');
    p.send({ jsonrpc: '2.0', id: 3, method: 'echo', params: [1, 2] });
    p.send({ jsonrpc: '2.0', id: 4, method: 'missing', params: {} });
    p.send({ jsonrpc: '2.0', id: 5, method: 'boom', params: {} });
    p.send({ jsonrpc: '2.0', id: 6, method: 'crash', params: {} });
    p.send({ jsonrpc: '2.0', id: 'seven', method: 'echo', params: { a: 'line\nbreak\u2028' } });
    await p.tick();
    const byId = (id: unknown) => p.out.find((m) => m['id'] === id);
    expect(p.out[0]).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32700 } });
    expect(p.out[1]).toMatchObject({ id: 1, error: { code: -32600 } });
    expect(byId(2)).toMatchObject({ error: { code: -32600 } });
    expect(byId(3)).toMatchObject({ error: { code: -32602 } });
    expect(byId(4)).toMatchObject({ error: { code: -32601, message: 'Method not found: missing' } });
    expect(byId(5)).toMatchObject({ error: { code: -32602, message: 'bad params here' } });
    expect(byId(6)).toMatchObject({ error: { code: -32603, message: 'something broke' } });
    expect(byId('seven')).toMatchObject({ result: { got: { a: 'line\nbreak\u2028' } } });
    // One message, one line, whatever the strings hold.
    for (const line of p.raw) {
      expect(line.indexOf('\n')).toBe(line.length - 1);
      // Nor anything a Unicode-aware line splitter (Python's splitlines) would cut at.
      expect(line.split(/[\u0085\u2028\u2029]/)).toHaveLength(1);
    }
  });

  it('matches responses to its own requests, errors included, and rejects the rest when input ends', async () => {
    const p = pair();
    const ok = p.conn.request('fs/read_text_file', { path: '/a' });
    const bad = p.conn.request('fs/read_text_file', { path: '/b' });
    const hanging = p.conn.request('terminal/wait_for_exit', {});
    await p.tick();
    const [r1, r2] = p.out;
    expect(r1).toMatchObject({ method: 'fs/read_text_file', params: { path: '/a' } });
    p.send({ jsonrpc: '2.0', id: r2!['id'], error: { code: -32002, message: 'no such file' } });
    p.send({ jsonrpc: '2.0', id: r1!['id'], result: { content: 'A' } });
    await expect(ok).resolves.toEqual({ content: 'A' });
    await expect(bad).rejects.toMatchObject({ code: -32002, message: 'no such file' });
    p.input.end();
    await p.conn.closed;
    await expect(hanging).rejects.toThrow(/closed/);
  });

  it('runs notifications without answering them', async () => {
    const p = pair();
    const seen: unknown[] = [];
    p.conn.onNotification('session/cancel', (params) => void seen.push(params));
    p.send({ jsonrpc: '2.0', method: 'session/cancel', params: { sessionId: 's' } });
    p.send({ jsonrpc: '2.0', method: 'unknown/notification', params: {} });
    await p.tick();
    expect(seen).toEqual([{ sessionId: 's' }]);
    expect(p.out).toEqual([]);
  });
});
