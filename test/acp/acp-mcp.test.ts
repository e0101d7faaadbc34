/**
 * The editor's MCP servers over ACP, driven by the official ACP library's client side: session/new
 * starts them through lindwyrm's own MCP client, as the user's own servers (their readOnlyHint
 * believed, every other tool asked through session/request_permission), their prompts offered as
 * commands; an HTTP+SSE server is named, not started; the servers end with the agent.
 * Run `npm run build` first.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startFakeProvider, type FakeProvider, type ScriptedReply } from '../support/fake-provider.js';
import type { Sandbox } from '../support/sandbox.js';
import { makeEnv, useBuild } from '../e2e/support/cli.js';
import { readRequest } from '../agent/support/harness.js';
import { FLAKY } from '../mcp/support/mcp-session.js';
import { initializeParams, startEditor, textOf } from './support/acp-client.js';
import { loadConfig } from '../../src/config/load-config.js';
import { mcpEntriesFromClient, withEditorServers } from '../../src/acp/mcp-servers.js';

vi.setConfig({ testTimeout: 60_000 });

const cli = useBuild();
const TOKEN = 'editor-secret-4f9a2c';

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.filter((d) => d.isFile()).map((d) => join(d.parentPath, d.name));
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe("the editor's MCP servers over ACP", () => {
  let fake: FakeProvider | undefined;
  let e: Sandbox | undefined;

  afterEach(async () => {
    await fake?.close();
    await e?.cleanup();
    fake = e = undefined;
  });

  async function setup(replies: ScriptedReply[], configToml = ''): Promise<Sandbox> {
    fake = await startFakeProvider({ format: 'anthropic', replies });
    e = await makeEnv('anthropic', fake.baseUrl, { configToml });
    return e;
  }

  it('starts them with session/new under the user-level trust rules, and stops them with the agent', async () => {
    const env = await setup([
      {
        toolCalls: [
          { name: 'mcp__flaky__big', input: {}, id: 'call_big' },
          { name: 'mcp__flaky__ok', input: { text: `token ${TOKEN}` }, id: 'call_ok' },
        ],
      },
      { text: 'Both ran.' },
    ],
    // Off: the server's start marker is written outside the project, and its exit is watched by its
    // host pid (test/mcp/sandboxed-server.test.ts runs servers inside the sandbox).
    'sandbox = "off"');
    const marker = join(env.root, 'flaky-started');
    const editor = startEditor(cli(), env, { answers: ['allow_once'] });
    const stop = await editor.run(async (ctx) => {
      const init = await ctx.request('initialize', initializeParams());
      expect(init.agentCapabilities?.mcpCapabilities).toMatchObject({ http: true, sse: false });
      const { sessionId } = await ctx.request('session/new', {
        cwd: env.project,
        mcpServers: [
          // The project is not trusted: the editor's servers start anyway (they are the user's).
          { name: 'flaky', command: process.execPath, args: [FLAKY], env: [{ name: 'API_TOKEN', value: TOKEN }, { name: 'START_MARKER', value: marker }] },
          { type: 'sse', name: 'old', url: 'http://127.0.0.1:9/sse', headers: [] },
        ],
      });
      // Its prompts are commands the editor offers.
      const commands = await editor.waitForUpdate((u) => u.sessionUpdate === 'available_commands_update');
      const names = commands.sessionUpdate === 'available_commands_update' ? commands.availableCommands.map((c) => c.name) : [];
      expect(names).toContain('flaky:review');
      await editor.waitForUpdate((u) => u.sessionUpdate === 'agent_thought_chunk' && u.content.type === 'text' && /"old".*HTTP\+SSE/.test(u.content.text));
      return ctx.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'use the server' }] });
    });
    expect(stop.stopReason).toBe('end_turn');
    expect(textOf(editor.updates, 'agent_message_chunk')).toContain('Both ran.');
    const offered = ((fake!.requests[0]!.body as { tools: { name: string }[] }).tools ?? []).map((t) => t.name);
    expect(offered).toEqual(expect.arrayContaining(['mcp__flaky__ok', 'mcp__flaky__big', 'read_resource']));
    expect(offered.some((n) => n.startsWith('mcp__old__'))).toBe(false);
    // big carries readOnlyHint and ran without a question; ok has none and was asked (default confirm).
    expect(editor.permissions.map((p) => p.toolCall.toolCallId)).toEqual(['call_ok']);
    expect(editor.permissions[0]!.options.find((o) => o.kind === 'allow_always')?.name).toBe('Always allow mcp__flaky__ok in this session');
    const [big, ok] = readRequest('anthropic', fake!.requests[1]!).messages.flatMap((m) => m.toolResults.map((r) => r.content));
    expect(big).toMatch(/offloaded|row 0/);
    expect(ok).toMatch(/ok from pid \d+/);
    // The agent was stopped: so is the server it started (below). What the session saved is on disk
    // now; the editor's env values under secret names are redacted from it.
    await editor.exited;
    const saved = (await filesUnder(join(env.root, 'data', 'lindwyrm', 'sessions'))).filter((f) => f.endsWith('.jsonl') || f.endsWith('.json'));
    expect(saved.length).toBeGreaterThan(0);
    for (const file of saved) expect(await readFile(file, 'utf8')).not.toContain(TOKEN);
    const pid = Number((await readFile(marker, 'utf8')).trim().split('\n')[0]);
    const end = Date.now() + 5_000;
    while (alive(pid) && Date.now() < end) await new Promise((r) => setTimeout(r, 50));
    expect(alive(pid)).toBe(false);
  });

  it("takes the editor's entries as the user's own servers, under names lindwyrm accepts", async () => {
    const env = await setup([]);
    const base = await loadConfig({ cwd: env.project, env: env.env });
    const configured = { ...base, mcpServers: [{ name: 'github', origin: 'user' as const, command: 'gh-mcp', args: [], env: {}, headers: {}, allow: ['get_*'], deny: [], enabled: true, cwd: env.project, sandbox: true }] };
    const entries = mcpEntriesFromClient([
      { name: 'GitHub MCP', command: '/bin/gh', args: ['serve'], env: [{ name: 'GITHUB_TOKEN', value: '${NOT_A_REFERENCE}' }] },
      { name: 'github', command: '/bin/other', args: [], env: [] },
      { type: 'http', name: 'docs__v2', url: 'https://docs.example/mcp', headers: [{ name: 'Authorization', value: 'Bearer abc' }] },
    ]);
    const { config, notices } = withEditorServers(configured, entries);
    const servers = config.mcpServers ?? [];
    expect(servers.map((x) => x.name)).toEqual(['github', 'GitHub-MCP', 'docs_v2']);
    // The configured github keeps its rules; the editor's github is named, not started.
    expect(servers[0]!.allow).toEqual(['get_*']);
    expect(notices.join('\n')).toMatch(/"github" is also in your lindwyrm config/);
    expect(servers[1]).toMatchObject({ origin: 'user', command: '/bin/gh', args: ['serve'], env: { GITHUB_TOKEN: '${NOT_A_REFERENCE}' }, literalValues: true, cwd: env.project });
    expect(servers[2]).toMatchObject({ origin: 'user', url: 'https://docs.example/mcp', headers: { Authorization: 'Bearer abc' } });
    expect(() => mcpEntriesFromClient([{ type: 'http', name: 'x', url: 'file:///etc/passwd', headers: [] }])).toThrow(/http:\/\/ or https:\/\/ url/);
  });
});
