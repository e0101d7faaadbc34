/**
 * MCP in a real session: the fake provider over HTTP, the real tool registry and policy, and
 * real MCP servers as child processes — the reference server-everything and a small fault fixture.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ApprovalDecision } from '../../src/policy/types.js';
import type { ScriptedReply } from '../support/fake-provider.js';
import { readRequest } from '../agent/support/harness.js';
import { everything, flaky, FLAKY, openMcpSession, q, type McpSession, type OpenOptions } from './support/mcp-session.js';

describe('MCP servers in a session', () => {
  let s: McpSession | undefined;

  afterEach(async () => {
    await s?.close();
    s = undefined;
  });

  async function open(replies: ScriptedReply[], userToml: string, opts: OpenOptions & { answer?: ApprovalDecision } = {}) {
    s = await openMcpSession(replies, userToml, { ...opts, ...(opts.answer ? { answers: [opts.answer] } : {}) });
    return s;
  }

  const toolResults = (i: number): string[] => s!.toolResults(i);
  const toolNames = (i: number): string[] => s!.toolNames(i);

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
    expect(s!.asked.map((a) => a.tool)).toEqual(['mcp__everything__toggle-simulated-logging']);
    expect(s!.asked[0]!.kind).toBe('mcp');
  });

  it('runs a readOnlyHint tool of a user-configured server without asking', async () => {
    const { engine: e } = await open([{ toolCalls: [{ name: 'mcp__everything__get-sum', input: { a: 2, b: 3 } }] }, { text: 'done' }], everything());
    await e.submit('add');
    expect(toolResults(1)[0]).toMatch(/5/);
    expect(s!.asked).toEqual([]);
  });

  it('does not start an untrusted project\'s servers and names them in the startup warning', async () => {
    const marker = join((await import('node:os')).tmpdir(), `lw-mcp-marker-${process.pid}-${Date.now()}`);
    const projectToml = `[[mcp.servers]]\nname = "evil"\ncommand = ${q(process.execPath)}\nargs = [${q(FLAKY)}]\nenv = { START_MARKER = ${q(marker)} }\n`;
    const { config } = await open([{ text: 'hi' }], '', { projectToml });
    expect(config.mcpServers ?? []).toEqual([]);
    expect(config.warnings.join('\n')).toMatch(/mcp\.servers \(evil: not started\)/);
    await s!.engine.submit('hello');
    expect(toolNames(0).some((n) => n.startsWith('mcp__'))).toBe(false);
    expect(existsSync(marker)).toBe(false);
  });

  it('starts a trusted project\'s server, and does not believe its readOnlyHint', async () => {
    const projectToml = `[[mcp.servers]]\nname = "proj"\ncommand = ${q(process.execPath)}\nargs = [${q(FLAKY)}]\n`;
    const { engine: e } = await open([{ toolCalls: [{ name: 'mcp__proj__big', input: {} }] }, { text: 'ok' }], '', { projectToml, trusted: true });
    await e.submit('go');
    expect(s!.asked.map((a) => a.tool)).toEqual(['mcp__proj__big']);
    expect(s!.asked[0]!.reason).toMatch(/readOnlyHint not believed/);
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
    const raw = s!.fake.requests.map((r) => JSON.stringify([(r.body as { tools: unknown }).tools, (r.body as { system: unknown }).system]));
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
      // Outside the sandbox: a restart is told by the server's host pid (in its own PID namespace
      // every start would be pid 2).
      flaky('allow = ["*"]\nsandbox = false'),
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
    // Each failure says how it failed, as data: what the transcript, audit log and one-shot read.
    const failures = e.getSnapshot().blocks.flatMap((b) => (b.kind === 'tool' ? [b.failure ?? 'ok'] : []));
    expect(failures).toEqual(['ok', 'failed', 'ok', 'timeout', 'failed', 'ok']);
    const panel = (await e.runSlash('/mcp')).output ?? '';
    expect(panel).toMatch(/flaky \(stdio\) — (ready|failed)/);
  });

  it('offers the server\'s prompts as /SERVER:PROMPT commands and its resources to read_resource', async () => {
    const { engine: e } = await open(
      [{ toolCalls: [{ name: 'read_resource', input: { server: 'everything', uri: 'demo://resource/static/document/architecture.md' } }] }, { text: 'read' }, { text: 'prompted' }],
      everything(),
    );
    await e.submit('read it');
    expect(toolResults(1)[0]).toContain('Everything Server');
    // The prompts are in the engine's command list, which the view's help and completion follow.
    const listed = e.getSnapshot().commands?.find((c) => c.name === '/everything:args-prompt');
    expect(listed).toMatchObject({ source: 'MCP server everything' });
    expect(listed?.args).toMatch(/<city>/);
    const sent = await e.runSlash('/everything:args-prompt Paris');
    expect(sent.error).toBeFalsy();
    expect(sent.kind).toBe('prompt');
    expect(sent.prompt).toContain('Paris');
    // The reply is sent as the user's prompt (the view does it, or an editor over ACP).
    await e.submit(sent.prompt!);
    const last = readRequest('anthropic', s!.fake.requests[2]!).messages.at(-1)!;
    expect(last.text).toContain('Paris');
    expect((await e.runSlash('/everything:args-prompt')).output).toMatch(/missing city/);
    expect((await e.runSlash('/everything:nope')).error).toBe(true);
  });

  it('never lets --allow or a kind grant cover an MCP tool; [a]lways grants that one tool', async () => {
    const { engine: e } = await open(
      [
        { toolCalls: [{ name: 'mcp__flaky__ok', input: { text: 'one' } }] },
        { toolCalls: [{ name: 'mcp__flaky__ok', input: { text: 'two' } }] },
        { toolCalls: [{ name: 'mcp__flaky__grow', input: {} }] },
        { text: 'done' },
      ],
      flaky(),
      { answers: ['always', 'no'], cli: { allow: ['read', 'write', 'delete', 'bash'] } },
    );
    await e.submit('go');
    // Asked for ok despite every --allow; not again for ok after [a]lways; asked anew for grow.
    expect(s!.asked.map((a) => [a.tool, a.kind])).toEqual([
      ['mcp__flaky__ok', 'mcp'],
      ['mcp__flaky__grow', 'mcp'],
    ]);
    expect(s!.asked[0]!.command).toContain('"text": "one"');
    expect(toolResults(2)[1]).toContain('ok from pid');
    expect(toolResults(3)[2]).toMatch(/declined mcp__flaky__grow/);
    const tools = e.getSnapshot().blocks.flatMap((b) => (b.kind === 'tool' ? [b] : []));
    expect(tools.map((b) => [b.status, b.failure])).toEqual([
      ['ok', undefined],
      ['ok', undefined],
      ['denied', 'denied'],
    ]);
  });

  it('puts a large result on disk behind a stub, like any bulk tool\'s', async () => {
    const { engine: e } = await open([{ toolCalls: [{ name: 'mcp__flaky__big', input: {} }] }, { text: 'seen' }], flaky());
    await e.submit('big');
    const [stub] = toolResults(1);
    expect(stub).toMatch(/offloaded/);
    expect(stub!.length).toBeLessThan(20_000);
    // A readOnlyHint of the user's own server: run without asking.
    expect(s!.asked).toEqual([]);
  });

  it('in a read-only session runs only the tools the user\'s servers mark readOnlyHint', async () => {
    const { engine: e } = await open(
      [{ toolCalls: [{ name: 'mcp__flaky__ok', input: {} }, { name: 'mcp__flaky__big', input: {} }] }, { text: 'done' }],
      flaky('allow = ["*"]'),
    );
    e.session.setReadOnly(true);
    await e.submit('try both');
    const [ok, big] = toolResults(1);
    expect(ok).toMatch(/read-only mode/);
    expect(big).toMatch(/offloaded|row 0/);
    // The schemas did not change with the mode: the prompt cache holds.
    expect(toolNames(0)).toContain('mcp__flaky__ok');
  });

  it('withholds the tools that may change things under --read-only', async () => {
    const { engine: e } = await open([{ text: 'hi' }], flaky('allow = ["*"]'), { cli: { readOnly: true } });
    await e.submit('hello');
    expect(toolNames(0)).toContain('mcp__flaky__big');
    expect(toolNames(0)).not.toContain('mcp__flaky__ok');
    expect(toolNames(0)).toContain('read_resource');
  });
});
