/**
 * lindwyrm's MCP client against servers nobody here wrote: the reference server-everything over
 * stdio and streamable HTTP, server-filesystem over stdio; plus the stateless 2026-07-28
 * revision negotiated with a server that speaks it, and OAuth tokens kept 0600.
 */
import { createServer, type Server } from 'node:http';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { McpClient } from '../../src/mcp/client.js';
import { createHttpTransport } from '../../src/mcp/http-transport.js';
import { createTokenStore } from '../../src/mcp/oauth/token-store.js';
import { createStdioTransport } from '../../src/mcp/stdio-transport.js';

const require = createRequire(import.meta.url);
const EVERYTHING = require.resolve('@modelcontextprotocol/server-everything/dist/index.js');
const FILESYSTEM = require.resolve('@modelcontextprotocol/server-filesystem/dist/index.js');

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'lw-mcp-ref-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const stdio = (args: string[], cwd = dir) =>
  createStdioTransport({ name: 'everything', sandboxed: false, command: process.execPath, args, env: { PATH: process.env['PATH'] ?? '' }, cwd, logFile: join(dir, 'logs', 'server.log') });

describe('server-everything over stdio', () => {
  it('negotiates down to 2025-11-25 and lists, calls, reads and gets a prompt', async () => {
    const client = await McpClient.connect({ transport: stdio([EVERYTHING, 'stdio']), timeoutMs: 20_000 });
    try {
      expect(client.facts.stateless).toBe(false);
      expect(client.facts.protocolVersion).toBe('2025-11-25');
      const tools = await client.listTools();
      expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(['echo', 'get-sum']));
      expect(tools.find((t) => t.name === 'echo')?.annotations?.readOnlyHint).toBe(true);
      expect((await client.callTool('echo', { message: 'hi' })).content).toEqual([{ type: 'text', text: 'Echo: hi' }]);
      const resources = await client.listResources();
      expect(resources.length).toBeGreaterThan(0);
      const contents = await client.readResource(resources[0]!.uri);
      expect(String(contents[0]?.['text'] ?? contents[0]?.['blob'])).not.toBe('');
      const prompt = await client.getPrompt('args-prompt', { city: 'Lyon' });
      expect(JSON.stringify(prompt.messages)).toContain('Lyon');
      // A call the server refuses is an error answer, and the connection stays.
      await expect(client.callTool('no-such-tool', {})).resolves.toMatchObject({ isError: true });
      expect(client.broken).toBe(false);
    } finally {
      await client.close();
    }
    // Its stderr went to the log file, not to the terminal.
    expect(await readFile(join(dir, 'logs', 'server.log'), 'utf8')).toContain('[lindwyrm]');
  });
});

describe('server-everything over streamable HTTP', () => {
  let child: ChildProcess | undefined;
  let url = '';
  beforeAll(async () => {
    const port = 20000 + Math.floor(Math.random() * 20000);
    child = spawn(process.execPath, [EVERYTHING, 'streamableHttp'], { env: { ...process.env, PORT: String(port) }, stdio: ['ignore', 'ignore', 'pipe'] });
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('server-everything did not start')), 15_000);
      child!.stderr!.on('data', (d: Buffer) => {
        if (d.toString().includes('listening')) {
          clearTimeout(timer);
          resolve();
        }
      });
    });
    url = `http://127.0.0.1:${port}/mcp`;
  });
  afterAll(() => {
    child?.kill();
  });

  it('keeps a session, answers over SSE, and ends the session on close', async () => {
    const transport = createHttpTransport({ url, headers: {} });
    const client = await McpClient.connect({ transport, timeoutMs: 20_000 });
    try {
      expect(client.facts.protocolVersion).toBe('2025-11-25');
      expect(transport.sessionId).toMatch(/.+/);
      const tools = await client.listTools();
      expect(tools.length).toBeGreaterThan(5);
      const sum = await client.callTool('get-sum', { a: 40, b: 2 });
      expect(JSON.stringify(sum.content)).toContain('42');
    } finally {
      await client.close();
    }
  });
});

describe('server-filesystem over stdio', () => {
  it('reads a file inside its allowed folder and refuses one outside', async () => {
    await writeFile(join(dir, 'note.txt'), 'hello from disk\n');
    const client = await McpClient.connect({ transport: stdio([FILESYSTEM, dir]), timeoutMs: 20_000 });
    try {
      const tools = (await client.listTools()).map((t) => t.name);
      expect(tools).toContain('read_text_file');
      const ok = await client.callTool('read_text_file', { path: join(dir, 'note.txt') });
      expect(JSON.stringify(ok.content)).toContain('hello from disk');
      const outside = await client.callTool('read_text_file', { path: '/etc/hostname' });
      expect(outside.isError).toBe(true);
    } finally {
      await client.close();
    }
  });
});

describe('the stateless 2026-07-28 revision', () => {
  let server: Server;
  const seen: { method: string; header?: string; meta?: unknown; session?: string }[] = [];
  let url = '';
  beforeAll(async () => {
    // Shaped like the conformance suite's stateless mock: server/discover, _meta on every request.
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        const msg = JSON.parse(body) as { id?: number; method: string; params?: Record<string, unknown> };
        seen.push({ method: msg.method, header: req.headers['mcp-protocol-version'] as string, meta: msg.params?.['_meta'], session: req.headers['mcp-session-id'] as string });
        const answer = (result: unknown) => res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id: msg.id, result }));
        if (msg.method === 'server/discover') return answer({ supportedVersions: ['2026-07-28'], capabilities: { tools: {} }, _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'stateless', version: '1' } } });
        if (msg.method === 'tools/list') return answer({ tools: [{ name: 'hello', inputSchema: { type: 'object' } }], ttlMs: 0, cacheScope: 'private' });
        if (msg.method === 'tools/call') return answer({ content: [{ type: 'text', text: 'hi there' }], resultType: 'complete' });
        res.writeHead(400, { 'Content-Type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id: msg.id, error: { code: -32601, message: 'no' } }));
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    const address = server.address();
    url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/mcp`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it('speaks it when offered: no initialize, no session, protocol version in header and _meta', async () => {
    const client = await McpClient.connect({ transport: createHttpTransport({ url, headers: {} }), timeoutMs: 5_000 });
    expect(client.facts).toMatchObject({ protocolVersion: '2026-07-28', stateless: true, serverInfo: { name: 'stateless' } });
    expect((await client.callTool('hello', {})).content).toEqual([{ type: 'text', text: 'hi there' }]);
    await client.close();
    expect(seen.map((s) => s.method)).toEqual(['server/discover', 'tools/call']);
    for (const s of seen) {
      expect(s.header).toBe('2026-07-28');
      expect(s.session).toBeUndefined();
      expect(s.meta).toMatchObject({ 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientInfo': { name: 'lindwyrm' } });
    }
  });
});

describe('OAuth token store', () => {
  it('writes 0600 files and hands tokens back only for the issuer and resource they were issued for', async () => {
    const store = createTokenStore(join(dir, 'auth'));
    await store.save({ issuer: 'https://as.example', resource: 'https://mcp.example/mcp', tokens: { accessToken: 't1', tokenEndpoint: 'https://as.example/token' } });
    const files = await (await import('node:fs/promises')).readdir(join(dir, 'auth'));
    expect(files).toHaveLength(1);
    expect((await stat(join(dir, 'auth', files[0]!))).mode & 0o777).toBe(0o600);
    expect((await store.load('https://mcp.example/mcp'))?.tokens?.accessToken).toBe('t1');
    expect(await store.load('https://mcp.example/mcp', 'https://evil.example')).toBeUndefined();
    expect(await store.load('https://other.example/mcp')).toBeUndefined();
  });
});
