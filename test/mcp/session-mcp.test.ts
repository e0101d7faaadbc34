/**
 * MCP in a real session: the fake provider over HTTP, the real tool registry and policy, and
 * real MCP servers as child processes — the reference server-everything and a small fault fixture.
 */
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { assembleSession } from '../../src/agent/assemble-session.js';
import type { LindwyrmEngine } from '../../src/agent/engine.js';
import { loadConfig } from '../../src/config/load-config.js';
import type { ApprovalRequest } from '../../src/policy/types.js';
import { describeToolCall } from '../../src/tools/describe-call.js';
import { createToolRegistry } from '../../src/tools/registry.js';
import { startFakeProvider, type FakeProvider, type ScriptedReply } from '../support/fake-provider.js';
import { cliOptions, makeSandbox, readRequest, type Sandbox } from '../agent/support/harness.js';

const require = createRequire(import.meta.url);
const EVERYTHING = require.resolve('@modelcontextprotocol/server-everything/dist/index.js');
const FLAKY = join(import.meta.dirname, 'fixtures', 'flaky-server.mjs');
const q = (s: string): string => JSON.stringify(s);

const everything = (extra = ''): string => `[[mcp.servers]]
name = "everything"
command = ${q(process.execPath)}
args = [${q(EVERYTHING)}, "stdio"]
${extra}
`;
const flaky = (extra = ''): string => `[[mcp.servers]]
name = "flaky"
command = ${q(process.execPath)}
args = [${q(FLAKY)}]
${extra}
`;

describe('MCP servers in a session', () => {
  let fake: FakeProvider | undefined;
  let sandbox: Sandbox | undefined;
  let engine: LindwyrmEngine | undefined;
  const asked: ApprovalRequest[] = [];

  afterEach(async () => {
    await engine?.dispose();
    await fake?.close();
    await sandbox?.cleanup();
    engine = undefined;
    asked.length = 0;
  });

  async function open(replies: ScriptedReply[], userToml: string, opts: { projectToml?: string; trusted?: boolean; answer?: 'yes' | 'no' } = {}) {
    fake = await startFakeProvider({ format: 'anthropic', replies });
    sandbox = await makeSandbox('anthropic', fake.baseUrl, '');
    const trust = opts.trusted ? `trusted_projects = [${q(sandbox.project)}]\n` : '';
    const { readFile } = await import('node:fs/promises');
    const base = await readFile(sandbox.configPath, 'utf8');
    // Top-level keys first, then the tables: TOML puts a key after a table header into that table.
    const firstTable = userToml.search(/^\[/m);
    const cut = firstTable === -1 ? userToml.length : firstTable;
    await writeFile(sandbox.configPath, `${trust}${userToml.slice(0, cut)}${base}\n${userToml.slice(cut)}`);
    if (opts.projectToml !== undefined) await writeFile(join(sandbox.project, '.lindwyrm.toml'), opts.projectToml);
    const config = await loadConfig({ cwd: sandbox.project, env: sandbox.env });
    engine = await assembleSession(cliOptions(config.projectRoot), config, {
      createTools: (o) => createToolRegistry(o),
      describe: describeToolCall,
      env: sandbox.env,
      clientOptions: { retryBaseMs: 1, maxRetries: 0 },
      approver: async (req) => {
        asked.push(req);
        return opts.answer ?? 'no';
      },
      mcp: { startupTimeoutMs: 20_000, callTimeoutMs: 1_500 },
    });
    return { engine, config };
  }

  const toolResults = (i: number): string[] =>
    readRequest('anthropic', fake!.requests[i]!).messages.flatMap((m) => m.toolResults.map((r) => r.content));
  const toolNames = (i: number): string[] => ((fake!.requests[i]!.body as { tools?: { name: string }[] }).tools ?? []).map((t) => t.name);

  it('judges each MCP tool by the policy: allow and deny globs, a believed readOnlyHint, confirm by default', async () => {
    const { engine: e } = await open(
      [
        {
          toolCalls: [
            { name: 'mcp__everything__echo', input: { message: 'hello' } },
            { name: 'mcp__everything__get-env', input: {} },
            { name: 'mcp__everything__get-sum', input: { a: 2, b: 3 } },
            { name: 'mcp__everything__toggle-simulated-logging', input: {} },
          ],
        },
        { text: 'done' },
      ],
      everything('allow = ["echo"]\ndeny = ["get-*"]'),
    );
    await e.submit('use the tools');
    expect(toolNames(0)).toContain('mcp__everything__echo');
    expect(toolNames(0)).toContain('read_resource');
    const [echo, env, sum, toggle] = toolResults(1);
    expect(echo).toContain('Echo: hello');
    // deny wins over the readOnlyHint get-env carries.
    expect(env).toMatch(/Denied by policy \(mcp\.servers everything deny "get-\*"\)/);
    // get-sum is denied by the same glob; the readOnlyHint path is checked with a tool the glob misses below.
    expect(sum).toMatch(/Denied/);
    // No annotation, no rule: the user is asked (and said no).
    expect(toggle).toMatch(/declined/);
    expect(asked.map((a) => a.tool)).toEqual(['mcp__everything__toggle-simulated-logging']);
    expect(asked[0]!.kind).toBe('mcp');
  });

  it('runs a readOnlyHint tool of a user-configured server without asking', async () => {
    const { engine: e } = await open([{ toolCalls: [{ name: 'mcp__everything__get-sum', input: { a: 2, b: 3 } }] }, { text: 'done' }], everything());
    await e.submit('add');
    expect(toolResults(1)[0]).toMatch(/5/);
    expect(asked).toEqual([]);
  });

  it('does not start an untrusted project\'s servers and names them in the startup warning', async () => {
    const marker = join((await import('node:os')).tmpdir(), `lw-mcp-marker-${process.pid}-${Date.now()}`);
    const projectToml = `[[mcp.servers]]\nname = "evil"\ncommand = ${q(process.execPath)}\nargs = [${q(FLAKY)}]\nenv = { START_MARKER = ${q(marker)} }\n`;
    const { config } = await open([{ text: 'hi' }], '', { projectToml });
    expect(config.mcpServers ?? []).toEqual([]);
    expect(config.warnings.join('\n')).toMatch(/mcp\.servers \(evil: not started\)/);
    await engine!.submit('hello');
    expect(toolNames(0).some((n) => n.startsWith('mcp__'))).toBe(false);
    expect(existsSync(marker)).toBe(false);
  });

  it('starts a trusted project\'s server, and does not believe its readOnlyHint', async () => {
    const projectToml = `[[mcp.servers]]\nname = "proj"\ncommand = ${q(process.execPath)}\nargs = [${q(FLAKY)}]\n`;
    const { engine: e } = await open([{ toolCalls: [{ name: 'mcp__proj__big', input: {} }] }, { text: 'ok' }], '', { projectToml, trusted: true });
    await e.submit('go');
    expect(asked.map((a) => a.tool)).toEqual(['mcp__proj__big']);
    expect(asked[0]!.reason).toMatch(/readOnlyHint not believed/);
  });

  it('switches to the search tools over the schema budget, keeps the prompt byte-stable, and still calls tools by name', async () => {
    const { engine: e } = await open(
      [
        { toolCalls: [{ name: 'mcp_search_tools', input: { query: 'resource operation 7' } }] },
        { toolCalls: [{ name: 'mcp_describe_tool', input: { name: 'mcp__flaky__resource_op_07' } }] },
        { toolCalls: [{ name: 'mcp__flaky__resource_op_07', input: { owner: 'a', repo: 'b' } }] },
        { text: 'done' },
        { text: 'again' },
      ],
      `mcp_schema_budget = 1500\n${flaky('allow = ["*"]\nenv = { MANY_TOOLS = "50" }')}`,
    );
    await e.submit('find and run op 7');
    await e.submit('and again');
    const names = toolNames(0);
    expect(names).toContain('mcp_search_tools');
    expect(names).toContain('mcp_describe_tool');
    expect(names.some((n) => n.startsWith('mcp__'))).toBe(false);
    const [found] = toolResults(1);
    expect(found).toContain('mcp__flaky__resource_op_07');
    expect(toolResults(2)[1]).toContain('"owner"');
    expect(toolResults(3)[2]).toContain('resource_op_07 done');
    // Every request carries the same tools and system prompt, byte for byte.
    const raw = fake!.requests.map((r) => JSON.stringify([(r.body as { tools: unknown }).tools, (r.body as { system: unknown }).system]));
    expect(new Set(raw).size).toBe(1);
    // 56 tools' schemas are withheld: what stays resident is a few hundred tokens.
    const mcpCtx = (await e.runSlash('/context')).output ?? '';
    const resident = Number(/MCP: ([\d,]+) tokens resident/.exec(mcpCtx)?.[1]?.replace(/,/g, ''));
    expect(resident).toBeGreaterThan(0);
    expect(resident).toBeLessThan(2000);
  });

  it('a crash mid-call is a tool error, the session goes on, and the server restarts on the next call', async () => {
    const { engine: e } = await open(
      [
        { toolCalls: [{ name: 'mcp__flaky__ok', input: { text: 'first' } }] },
        { toolCalls: [{ name: 'mcp__flaky__crash', input: {} }] },
        { toolCalls: [{ name: 'mcp__flaky__ok', input: { text: 'second' } }] },
        { toolCalls: [{ name: 'mcp__flaky__hang', input: {} }] },
        { toolCalls: [{ name: 'mcp__flaky__garbage', input: {} }] },
        { toolCalls: [{ name: 'mcp__flaky__escape', input: {} }] },
        { text: 'survived' },
      ],
      flaky('allow = ["*"]'),
    );
    const outcome = await e.submit('exercise the faults');
    expect(outcome.status).toBe('finished');
    const pid = (text: string | undefined): string => /pid (\d+)/.exec(text ?? '')?.[1] ?? '';
    const first = toolResults(1)[0];
    expect(toolResults(2)[1]).toMatch(/mcp__flaky__crash failed: MCP server flaky the server exited \(code 3\)\. It will be restarted/);
    const second = toolResults(3)[2];
    expect(second).toContain('ok from pid');
    expect(pid(second)).not.toBe(pid(first));
    expect(toolResults(4)[3]).toMatch(/no answer to tools\/call within 2 s|within 1 s/);
    expect(toolResults(5)[4]).toMatch(/failed: MCP server flaky/);
    expect(toolResults(6)[5]).toContain('\u001b[31m');
    // The transcript shows it escaped; the user sees one line per fault.
    const blocks = JSON.stringify(e.getSnapshot().blocks);
    expect(blocks).not.toContain('\u001b[31m');
    expect(blocks).toContain('\\\\x1b[31m');
    const panel = (await e.runSlash('/mcp')).output ?? '';
    expect(panel).toMatch(/flaky \(stdio\) — (ready|failed)/);
  });

  it('applies a changed tool list only at the next prefix rewrite, with a notice', async () => {
    const { engine: e } = await open([{ toolCalls: [{ name: 'mcp__flaky__grow', input: {} }] }, { text: 'grown' }, { text: 'still the same tools' }, { text: 'after clear' }], flaky('allow = ["*"]'));
    await e.submit('grow');
    await new Promise((r) => setTimeout(r, 300));
    await e.submit('next turn');
    expect(toolNames(2)).toEqual(toolNames(0));
    expect(toolNames(2)).not.toContain('mcp__flaky__grown');
    expect((await e.runSlash('/mcp')).output).toMatch(/Changed since the session started.*flaky/);
    await e.runSlash('/clear');
    await e.submit('after');
    expect(JSON.stringify(e.getSnapshot().blocks)).toMatch(/MCP tool lists changed and now apply: flaky \(\+1\)/);
    expect(toolNames(3)).toContain('mcp__flaky__grown');
  });

  it('offers the server\'s prompts as /SERVER:PROMPT and its resources to read_resource', async () => {
    const { engine: e } = await open(
      [{ toolCalls: [{ name: 'read_resource', input: { server: 'everything', uri: 'demo://resource/static/document/architecture.md' } }] }, { text: 'read' }, { text: 'prompted' }],
      everything(),
    );
    await e.submit('read it');
    expect(toolResults(1)[0]).toContain('Everything Server');
    const sent = await e.runSlash('/everything:args-prompt Paris');
    expect(sent.error).toBeFalsy();
    await new Promise((r) => setTimeout(r, 500));
    while (e.busy()) await new Promise((r) => setTimeout(r, 50));
    const last = readRequest('anthropic', fake!.requests[2]!).messages.at(-1)!;
    expect(last.text).toContain('Paris');
    expect((await e.runSlash('/everything:nope')).error).toBe(true);
  });
});
