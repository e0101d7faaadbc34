/**
 * Servers whose lists change mid-session, in a real session: tool schemas stay frozen (the prompt
 * prefix byte-stable) until the session rewrites the prefix anyway — a summary mid-turn, /clear,
 * /model — and then apply with a notice; prompts become /SERVER:PROMPT commands as they appear.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { LindwyrmEngine } from '../../src/agent/engine.js';
import type { ScriptedReply } from '../support/fake-provider.js';
import { flaky, openMcpSession, until, type McpSession, type OpenOptions } from './support/mcp-session.js';

const CHANGED = /MCP tool lists changed and now apply: flaky \(\+1\)/;

describe('MCP list changes in a session', () => {
  let s: McpSession | undefined;

  afterEach(async () => {
    await s?.close();
    s = undefined;
  });

  async function open(replies: ScriptedReply[], userToml: string, opts: OpenOptions = {}): Promise<LindwyrmEngine> {
    s = await openMcpSession(replies, userToml, opts);
    return s.engine;
  }
  const notices = (e: LindwyrmEngine): string[] => e.getSnapshot().blocks.flatMap((b) => (b.kind === 'notice' ? [b.text] : []));
  /** The prefix of request i: its tools and system prompt, as sent. */
  const prefix = (i: number): string => {
    const body = s!.fake.requests[i]!.body as { tools: unknown; system: unknown };
    return JSON.stringify([body.tools, body.system]);
  };
  /** Until the server's list_changed has been handled: /mcp names it as pending. */
  const changeSeen = async (e: LindwyrmEngine): Promise<void> => {
    let panel = '';
    const end = Date.now() + 5_000;
    while (!/Changed since the session started.*flaky/.test(panel)) {
      if (Date.now() > end) throw new Error(`the change was never noticed: ${panel}`);
      panel = (await e.runSlash('/mcp')).output ?? '';
      await new Promise((r) => setTimeout(r, 20));
    }
  };

  it('keeps the tools of the session until /clear, then applies the change with a notice', async () => {
    const e = await open([{ toolCalls: [{ name: 'mcp__flaky__grow', input: {} }] }, { text: 'grown' }, { text: 'still the same tools' }, { text: 'after clear' }], flaky('allow = ["*"]'));
    await e.submit('grow');
    await changeSeen(e);
    await e.submit('next turn');
    // Byte for byte the same prefix as the first request: the provider's cache keeps hitting.
    expect(prefix(2)).toBe(prefix(0));
    expect(s!.toolNames(2)).not.toContain('mcp__flaky__grown');
    expect(notices(e).some((n) => CHANGED.test(n))).toBe(false);
    await e.runSlash('/clear');
    await e.submit('after');
    expect(notices(e).some((n) => CHANGED.test(n))).toBe(true);
    expect(s!.toolNames(3)).toContain('mcp__flaky__grown');
  });

  it('applies a change at a summary in the middle of a turn: the rest of the turn can call the new tool', async () => {
    const e = await open(
      [
        { text: 'hello back' },
        // Over the reclaim point (12,000 of a 16,000 window): the next request summarizes first.
        { toolCalls: [{ name: 'mcp__flaky__grow', input: {} }], usage: { input: 13_000, output: 5 } },
        { text: 'SUMMARY: the user said hello.' },
        { toolCalls: [{ name: 'mcp__flaky__grown', input: {} }] },
        { text: 'used it' },
      ],
      `protected_tokens = 1\nmcp_schema_budget = 100000\n${flaky('allow = ["*"]')}`,
      { window: 16_000 },
    );
    await e.submit('hello');
    expect((await e.submit('grow and use it')).status).toBe('finished');
    expect(/Summarize the conversation so far/.test(s!.fake.requests[2]!.raw)).toBe(true);
    // The summary still shares the old prefix; the request after it carries the new tool.
    expect(s!.toolNames(2)).toEqual(s!.toolNames(1));
    expect(s!.toolNames(1)).not.toContain('mcp__flaky__grown');
    expect(s!.toolNames(3)).toContain('mcp__flaky__grown');
    expect(notices(e).some((n) => CHANGED.test(n))).toBe(true);
    // The new tool was called in the same turn and reached the server (which does not implement it).
    expect(s!.toolResults(4).at(-1)).toMatch(/mcp__flaky__grown failed: the server answered with error -32602/);
  });

  it('applies a change when /model switches presets, which rewrites the prefix anyway', async () => {
    const e = await open(
      [{ toolCalls: [{ name: 'mcp__flaky__grow', input: {} }] }, { text: 'grown' }, { text: 'on the other preset' }],
      flaky('allow = ["*"]'),
      { presetToml: (url) => `\n[[presets]]\nname = "other"\nformat = "anthropic"\nbase_url = "${url}"\nmodel = "fake-model-2"\napi_key_env = ["FAKE_API_KEY"]\ncontext_window = 100000\n` },
    );
    await e.submit('grow');
    await changeSeen(e);
    expect((await e.runSlash('/model other')).error).toBeFalsy();
    await e.submit('go on');
    expect(s!.toolNames(2)).toContain('mcp__flaky__grown');
    expect(notices(e).some((n) => CHANGED.test(n))).toBe(true);
  });

  it("registers a server's prompts as commands as they appear; each is sent as the user's prompt", async () => {
    const e = await open([{ toolCalls: [{ name: 'mcp__flaky__add_prompt', input: {} }] }, { text: 'added' }], flaky('allow = ["*"]'));
    const names = (): string[] => (e.getSnapshot().commands ?? []).map((c) => c.name);
    expect(names()).toContain('/flaky:review');
    expect(names()).not.toContain('/flaky:later');
    // A server's description is escaped where help shows it.
    const review = e.getSnapshot().commands?.find((c) => c.name === '/flaky:review');
    expect(review?.help).not.toContain('\u001b');
    expect(review?.help).toContain('\\x1b');
    expect(review?.args).toBe('<file>');
    expect((await e.runSlash('/flaky:review src/app.ts')).prompt).toBe('Review src/app.ts for bugs.');
    await e.submit('add one');
    await until(() => names().includes('/flaky:later'), 'the new prompt to be registered');
    expect((await e.runSlash('/flaky:later')).prompt).toMatch(/The later prompt, from pid \d+/);
    // /help lists it with where it comes from.
    expect((await e.runSlash('/help')).output).toMatch(/\/flaky:later/);
  });

  it('shows every server in /context with its status, tools and token cost', async () => {
    const e = await open([], `${flaky('allow = ["*"]')}\n${flaky('', 'second')}`);
    const text = (await e.runSlash('/context')).output ?? '';
    expect(text).toMatch(/MCP: [\d,]+ tokens of tool schemas \(budget [\d,]+\)/);
    expect(text).toMatch(/ {2}flaky: ready, 8 tools, [\d,]+ tokens/);
    expect(text).toMatch(/ {2}second: ready, 8 tools, [\d,]+ tokens/);
  });
});
