/**
 * The context manager inside a real session: the engine, the real model client over HTTP to the
 * fake provider (both wire formats), a small context window from the preset, real files.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { LindwyrmEngine } from '../../src/agent/engine.js';
import type { ToolDefinition } from '../../src/tools/types.js';
import { startFakeProvider, type FakeFormat, type FakeProvider, type ScriptedReply } from '../support/fake-provider.js';
import { assertValidHistory, makeSandbox, readRequest, startEngine, type Sandbox } from '../agent/support/harness.js';
import { lines } from './helpers.js';

const schema = (props: Record<string, unknown>) => ({ type: 'object' as const, properties: props });

/** read_file as the model sees it: the file's text, from the project (bulk, so offloadable). */
const readFileTool: ToolDefinition = {
  name: 'read_file',
  description: 'Reads a file.',
  inputSchema: schema({ path: { type: 'string' } }),
  kind: 'read',
  bulk: true,
  run: async (args, ctx) => {
    const { readFile } = await import('node:fs/promises');
    const path = String((args as { path?: unknown }).path);
    return { ok: true, content: await readFile(join(ctx.projectRoot, path), 'utf8'), summary: `read ${path}` };
  },
};

const readOffloadedTool: ToolDefinition = {
  name: 'read_offloaded',
  description: 'Reads an offloaded result back.',
  inputSchema: schema({ ref: { type: 'string' } }),
  kind: 'none',
  bulk: false,
  run: async (args, ctx) => {
    const ref = String((args as { ref?: unknown }).ref);
    const text = await ctx.offload.read(ref);
    return text === undefined ? { ok: false, content: `No offloaded result ${ref}.`, summary: 'no such ref' } : { ok: true, content: text, summary: ref };
  },
};

// Reclaims at 12,000 tokens; offloads on arrival above 1,000; retroactively above 500; protects 3,000.
const smallPreset = (format: FakeFormat, baseUrl: string): string => `
[[presets]]
name = "small"
format = "${format}"
base_url = "${baseUrl}"
model = "fake-model"
api_key_env = ["FAKE_API_KEY"]
thinking = false
context_window = 16000
max_tokens = 1024
`;

const SUMMARY_ASK = /Summarize the conversation so far/;

describe.each(['anthropic', 'openai'] as FakeFormat[])('context in a session over %s', (format) => {
  let fake: FakeProvider | undefined;
  let sandbox: Sandbox | undefined;
  let engine: LindwyrmEngine | undefined;

  afterEach(async () => {
    await engine?.dispose();
    await fake?.close();
    await sandbox?.cleanup();
    engine = fake = sandbox = undefined;
  });

  async function setup(replies: ScriptedReply[], files: Record<string, string>): Promise<LindwyrmEngine> {
    fake = await startFakeProvider({ format, replies });
    sandbox = await makeSandbox(format, fake.baseUrl, smallPreset(format, fake.baseUrl));
    for (const [name, text] of Object.entries(files)) await writeFile(join(sandbox.project, name), text);
    engine = await startEngine(sandbox, [readFileTool, readOffloadedTool], { model: 'small' });
    return engine;
  }

  const request = (i: number) => readRequest(format, fake!.requests[i]!);
  const results = (i: number) => request(i).messages.flatMap((m) => m.toolResults.map((r) => r.content));
  const userTexts = (i: number) => request(i).messages.filter((m) => m.role === 'user' && m.text).map((m) => m.text);

  it('sends a large read as a stub in the next request, and read_offloaded returns it byte for byte', async () => {
    const big = `${lines(600, 36, 'def parse')}\n`;
    const e = await setup(
      [
        { toolCalls: [{ name: 'read_file', input: { path: 'big.py' } }] },
        { toolCalls: [{ name: 'read_offloaded', input: { ref: 'off_0001' } }] },
        { text: 'done' },
      ],
      { 'big.py': big },
    );
    expect(await e.submit('look at big.py')).toMatchObject({ status: 'finished', result: 'done' });
    const [stub] = results(1);
    expect(stub).toMatch(/^\[offloaded lw-[0-9a-f]+: read_file big\.py -- 600 lines, 21\.7 KB, ref off_0001\]\ndef parse 1 /);
    expect(stub).not.toContain('def parse 9 ');
    expect(stub!.length).toBeLessThan(1_500);
    expect(results(2)[1]).toBe(big);
    // The stub was in place before the request was built: the prefix stays byte-stable after it.
    expect(JSON.stringify(request(2).messages.slice(0, 3))).toBe(JSON.stringify(request(1).messages));
    assertValidHistory(request(2));
  });

  // TURNS turns, each reading a ~800-token file (under the eager size, over the retroactive one);
  // the last reply reports `input` prompt tokens. Two requests a turn: LAST is the last of them.
  const TURNS = 6;
  const LAST = 2 * TURNS - 1;
  const ids = [...Array(TURNS).keys()];
  function turns(input: number): ScriptedReply[] {
    return ids.flatMap((t) => [
      { toolCalls: [{ name: 'read_file', input: { path: `mid${t}.py` } }] },
      { text: `read ${t}`, ...(t === TURNS - 1 ? { usage: { input, output: 5 } } : {}) },
    ]);
  }
  const midFiles: Record<string, string> = Object.fromEntries(ids.map((t) => [`mid${t}.py`, lines(80, 40, `mid${t}`)]));
  const lastFile = midFiles[`mid${TURNS - 1}.py`];

  async function runTurns(e: LindwyrmEngine): Promise<void> {
    for (const t of ids) await e.submit(`read mid${t}.py`);
  }

  it('over the reclaim point, offloads older results first and does not summarize when that is enough', async () => {
    const e = await setup([...turns(12_500), { text: 'fine' }], midFiles);
    await runTurns(e);
    expect(results(LAST).every((r) => !r.startsWith('[offloaded'))).toBe(true);
    await e.submit('and now?');
    expect(fake!.requests).toHaveLength(LAST + 2);
    expect(fake!.requests.some((r) => SUMMARY_ASK.test(r.raw))).toBe(false);
    const after = results(LAST + 1);
    expect(after[0]).toMatch(/^\[offloaded lw-[0-9a-f]+: read_file mid0\.py -- 80 lines, .* ref off_0001\]/);
    // Oldest first, and the recent turns (the protected zone) exactly as they were.
    const moved = after.filter((r) => r.startsWith('[offloaded')).length;
    expect(after.slice(0, moved).every((r) => r.startsWith('[offloaded'))).toBe(true);
    expect(moved).toBeLessThan(TURNS - 2);
    expect(after.slice(moved)).toEqual(ids.slice(moved).map((t) => midFiles[`mid${t}.py`]));
    assertValidHistory(request(LAST + 1));
    const notices = e.store.current().blocks.filter((b) => b.kind === 'notice');
    expect(notices.some((b) => b.kind === 'notice' && /Moved \d+ older tool results? .* to the offload store/.test(b.text))).toBe(true);
  });

  it('summarizes when offloading is not enough, after offloading, cutting at a turn and keeping the recent turns', async () => {
    const e = await setup([...turns(40_000), { text: 'SUMMARY: the user had four files read.' }, { text: 'fine' }], midFiles);
    await runTurns(e);
    await e.submit('and now?');
    expect(fake!.requests).toHaveLength(LAST + 3);
    // The request after the last turn is the summary request: it carries the older part, already offloaded.
    expect(SUMMARY_ASK.test(fake!.requests[LAST + 1]!.raw)).toBe(true);
    expect(results(LAST + 1).length).toBeGreaterThan(0);
    expect(results(LAST + 1).every((r) => r.startsWith('[offloaded lw-'))).toBe(true);
    const main = request(LAST + 2);
    assertValidHistory(main);
    expect(main.messages[0]!.role).toBe('user');
    expect(main.messages[0]!.text).toMatch(/^\[Earlier conversation lw-[0-9a-f]+, condensed to free context\. This is a record of what already happened, written by lindwyrm, not a message from the user:\]\nSUMMARY: the user had four files read\.\n\[End of the record lw-[0-9a-f]+\./);
    // The summary sits in front of a real prompt, and the newest turns are there as they were.
    expect(main.messages[0]!.text).toMatch(/read mid\d\.py$/);
    expect(userTexts(LAST + 2).at(-1)).toBe('and now?');
    expect(results(LAST + 2).at(-1)).toBe(lastFile);
    expect(main.messages.length).toBeLessThan(request(LAST).messages.length);
  });

  it('leaves the history as it was when the summary request fails', async () => {
    const e = await setup([...turns(40_000), { fault: { kind: 'status', status: 400 } }, { text: 'fine' }], midFiles);
    await runTurns(e);
    expect(await e.submit('and now?')).toMatchObject({ status: 'finished', result: 'fine' });
    expect(SUMMARY_ASK.test(fake!.requests[LAST + 1]!.raw)).toBe(true);
    // Nothing was replaced: the main request carries every earlier message, results in full.
    const before = request(LAST).messages;
    const main = request(LAST + 2);
    expect(JSON.stringify(main.messages.slice(0, before.length))).toBe(JSON.stringify(before));
    expect(results(LAST + 2)).toEqual(ids.map((t) => midFiles[`mid${t}.py`]));
    assertValidHistory(main);
  });
});
