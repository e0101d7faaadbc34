/**
 * `lwyrm acp` at the byte level: a malformed client message gets a JSON-RPC error response and the
 * agent keeps serving; every line on stdout is a JSON-RPC message even while a dependency writes
 * to stdout; bash runs in the editor's terminal when the editor offers terminal/*.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startFakeProvider, type FakeProvider } from '../support/fake-provider.js';
import type { Sandbox } from '../support/sandbox.js';
import { makeEnv, useBuild } from '../e2e/support/cli.js';
import { initializeParams, startEditor } from './support/acp-client.js';

vi.setConfig({ testTimeout: 60_000 });

const cli = useBuild();

/** A raw JSON-RPC peer: writes lines, reads every stdout line (each must be JSON). */
function rawPeer(child: ChildProcess) {
  const lines: string[] = [];
  const waiting: { match: (m: Record<string, unknown>) => boolean; resolve: (m: Record<string, unknown>) => void }[] = [];
  createInterface({ input: child.stdout! }).on('line', (line) => {
    lines.push(line);
    let message: Record<string, unknown>;
    try {
      message = JSON.parse(line) as Record<string, unknown>;
    } catch {
      return;
    }
    for (const w of [...waiting]) {
      if (w.match(message)) {
        waiting.splice(waiting.indexOf(w), 1);
        w.resolve(message);
      }
    }
  });
  return {
    lines,
    send: (text: string) => child.stdin!.write(`${text}\n`),
    next: (match: (m: Record<string, unknown>) => boolean) => new Promise<Record<string, unknown>>((resolve) => waiting.push({ match, resolve })),
  };
}

describe('lwyrm acp on the wire', () => {
  let fake: FakeProvider | undefined;
  let e: Sandbox | undefined;
  let child: ChildProcess | undefined;

  afterEach(async () => {
    child?.kill('SIGKILL');
    await fake?.close();
    await e?.cleanup();
    fake = e = child = undefined;
  });

  it('answers malformed messages with errors and keeps serving', async () => {
    fake = await startFakeProvider({ format: 'anthropic', replies: [] });
    e = await makeEnv('anthropic', fake.baseUrl);
    child = spawn(process.execPath, [cli(), 'acp'], { cwd: e.project, env: e.env, stdio: ['pipe', 'pipe', 'pipe'] });
    const peer = rawPeer(child);

    peer.send('{"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": 1');
    expect(await peer.next((m) => m['id'] === null)).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32700 } });
    peer.send('[{"jsonrpc":"2.0","id":2,"method":"initialize","params":{}}]');
    expect(await peer.next((m) => m['id'] === null)).toMatchObject({ error: { code: -32600 } });
    peer.send('{"jsonrpc":"2.0","id":3,"method":"session/new","params":{"cwd":"/","mcpServers":[]}}');
    expect(await peer.next((m) => m['id'] === 3)).toMatchObject({ error: { code: -32600, message: expect.stringMatching(/initialize first/) } });
    peer.send('{"jsonrpc":"2.0","id":4,"method":"no/such_method","params":{}}');
    expect(await peer.next((m) => m['id'] === 4)).toMatchObject({ error: { code: -32601 } });
    peer.send('{"jsonrpc":"2.0","id":5,"method":"initialize","params":{"protocolVersion":"one"}}');
    expect(await peer.next((m) => m['id'] === 5)).toMatchObject({ error: { code: -32602 } });

    peer.send(JSON.stringify({ jsonrpc: '2.0', id: 6, method: 'initialize', params: initializeParams() }));
    expect(await peer.next((m) => m['id'] === 6)).toMatchObject({ result: { protocolVersion: 1 } });
    peer.send(JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'session/new', params: { cwd: 'relative/dir', mcpServers: [] } }));
    expect(await peer.next((m) => m['id'] === 7)).toMatchObject({ error: { code: -32602, message: expect.stringMatching(/absolute/) } });
    peer.send(JSON.stringify({ jsonrpc: '2.0', id: 8, method: 'session/prompt', params: { sessionId: 'nope', prompt: [] } }));
    expect(await peer.next((m) => m['id'] === 8)).toMatchObject({ error: { code: -32002 } });
    peer.send(JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'session/new', params: { cwd: e.project, mcpServers: [] } }));
    const created = await peer.next((m) => m['id'] === 9);
    expect(created).toMatchObject({ result: { sessionId: expect.any(String) } });
    for (const line of peer.lines) expect(() => JSON.parse(line), line).not.toThrow();
  });

  it('says what it cannot do: a missing API key, an MCP server that does not start', async () => {
    fake = await startFakeProvider({ format: 'anthropic', replies: [] });
    e = await makeEnv('anthropic', fake.baseUrl);
    const noKey = startEditor(cli(), { ...e, env: { ...e.env, FAKE_API_KEY: undefined } });
    await expect(
      noKey.run(async (ctx) => {
        await ctx.request('initialize', initializeParams());
        return ctx.request('session/new', { cwd: e!.project, mcpServers: [] });
      }),
    ).rejects.toMatchObject({ code: -32000, message: expect.stringContaining('FAKE_API_KEY') });

    const editor = startEditor(cli(), e);
    await editor.run(async (ctx) => {
      await ctx.request('initialize', initializeParams());
      await ctx.request('session/new', { cwd: e!.project, mcpServers: [{ name: 'github', command: '/usr/bin/true', args: [], env: [{ name: 'TOKEN', value: 'x' }] }] });
      await editor.waitForUpdate((u) => u.sessionUpdate === 'agent_thought_chunk' && u.content.type === 'text' && u.content.text.includes('github'));
      await expect(ctx.request('session/new', { cwd: e!.project, mcpServers: [{ name: 'broken' }] as never })).rejects.toMatchObject({ code: -32602 });
    });
  });

  it('keeps stdout to protocol messages while something else writes to it', async () => {
    fake = await startFakeProvider({ format: 'anthropic', replies: [{ text: 'Hello\nthere\u2028with\u001b[31m odd characters' }] });
    e = await makeEnv('anthropic', fake.baseUrl);
    // A dependency that prints while the agent serves requests.
    const preload = join(e.root, 'noisy-dependency.mjs');
    // It starts once the program is running (it has replaced stdout's write): lindwyrm cannot
    // guard stdout before its own code runs, and a preload runs before it.
    await writeFile(
      preload,
      [
        'const original = process.stdout.write;',
        'const wait = setInterval(() => {',
        '  if (process.stdout.write === original) return;',
        '  clearInterval(wait);',
        '  setInterval(() => { console.log("stray output from a dependency"); process.stdout.write("more stray\\n"); }, 5).unref();',
        '}, 1);',
        'wait.unref();',
      ].join('\n'),
    );
    const editor = startEditor(cli(), { ...e, env: { ...e.env, NODE_OPTIONS: `--import=${pathToFileURL(preload).href}` } });
    const lines: string[] = [];
    editor.child.stdout!.on('data', (c: Buffer) => lines.push(...c.toString().split('\n').filter(Boolean)));
    await editor.run(async (ctx) => {
      await ctx.request('initialize', initializeParams());
      const { sessionId } = await ctx.request('session/new', { cwd: e!.project, mcpServers: [] });
      await ctx.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'hi' }] });
      await ctx.request('session/set_mode', { sessionId, modeId: 'read-only' });
    });
    await editor.exited;
    expect(editor.stderr()).toContain('stray output from a dependency');
    expect(lines.length).toBeGreaterThan(3);
    for (const line of lines) expect(JSON.parse(line), line).toMatchObject({ jsonrpc: '2.0' });
  });

  it('runs bash in the editor\'s terminal when it offers terminal/*', async () => {
    fake = await startFakeProvider({
      format: 'anthropic',
      replies: [{ toolCalls: [{ name: 'bash', input: { command: 'echo from-terminal; echo $FAKE_API_KEY-hidden > key.txt' }, id: 'call_t' }] }, { text: 'ran' }],
    });
    e = await makeEnv('anthropic', fake.baseUrl);
    const editor = startEditor(cli(), e, { terminal: true, args: ['--allow', 'bash'] });
    await editor.run(async (ctx) => {
      await ctx.request('initialize', initializeParams({ terminal: true }));
      const { sessionId } = await ctx.request('session/new', { cwd: e!.project, mcpServers: [] });
      await ctx.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'run it' }] });
    });
    expect(editor.terminals).toHaveLength(1);
    expect(editor.terminals[0]!.command).toBe('env');
    expect(editor.terminals[0]!.args).toEqual(expect.arrayContaining(['-u', 'FAKE_API_KEY', 'NO_COLOR=1']));
    expect(editor.terminals[0]!.released).toBe(true);
    // The editor's environment has the key; the command ran without it.
    expect(await readFile(join(e.project, 'key.txt'), 'utf8')).toBe('-hidden\n');
    const update = editor.updates.map((n) => n.update).filter((u) => u.sessionUpdate === 'tool_call_update' && u.toolCallId === 'call_t');
    expect(update.some((u) => u.sessionUpdate === 'tool_call_update' && u.content?.some((c) => c.type === 'terminal'))).toBe(true);
    const sent = JSON.stringify(fake.requests[1]!.body);
    expect(sent).toContain('from-terminal');
    expect(sent).toContain('[exit code 0]');
  });
});
