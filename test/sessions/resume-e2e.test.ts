/**
 * End to end through the public engine API and the fake provider over real HTTP: a session with
 * thinking, a tool call whose result is offloaded, and a summary is saved, resumed by id prefix in
 * a new engine, and the next request carries the same history byte for byte plus the new message.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ToolDefinition } from '../../src/tools/types.js';
import { makeSandbox, startEngine, type Sandbox } from '../agent/support/harness.js';
import { startFakeProvider, type FakeProvider, type ScriptedReply } from '../support/fake-provider.js';

type Json = Record<string, unknown>;

let fake: FakeProvider | undefined;
let sandbox: Sandbox | undefined;
afterEach(async () => {
  await fake?.close();
  await sandbox?.cleanup();
});

const BIG = Array.from({ length: 400 }, (_, i) => `line ${i}: const value${i} = compute(${i}); // some source code`).join('\n');
const schema = { type: 'object' as const, properties: { path: { type: 'string' }, ref: { type: 'string' } } };

/** A bulk reader (its result is offloaded on arrival) and the tool that resolves a stub. */
const tools: ToolDefinition[] = [
  { name: 'read_big', description: 'Reads big.txt.', inputSchema: schema, kind: 'none', bulk: true, run: async () => ({ ok: true, content: BIG, summary: '400 lines' }) },
  {
    name: 'read_offloaded',
    description: 'Reads an offloaded result.',
    inputSchema: schema,
    kind: 'none',
    bulk: false,
    run: async (args, ctx) => {
      const text = await ctx.offload.read(String((args as { ref?: unknown }).ref));
      return text === undefined ? { ok: false, content: 'no such ref', summary: 'missing' } : { ok: true, content: text, summary: 'read' };
    },
  },
];

/** The conversation of a request, without the system prompt (the openai format sends it as a message). */
const messagesOf = (body: unknown): Json[] => (body as { messages: Json[] }).messages.filter((m) => m['role'] !== 'system');
/** Everything a request sends as its messages: the openai system message included. */
const allMessagesOf = (body: unknown): Json[] => (body as { messages: Json[] }).messages;
/** The system prompt as sent: anthropic's `system` field, or openai's system message. */
const systemOf = (body: unknown): string => {
  const b = body as Json & { messages: Json[] };
  return JSON.stringify(b['system'] ?? b.messages.filter((m) => m['role'] === 'system'));
};

describe.each(['anthropic', 'openai'] as const)('resume end to end (%s)', (format) => {
  it('sends the saved history byte for byte plus the new message, and offload stubs still resolve', async () => {
    let ref = '';
    const replies = (req: { body: unknown }, index: number): ScriptedReply => {
      const last = JSON.stringify(messagesOf(req.body).at(-1));
      if (/summar/i.test(last)) return { text: 'Summary: the user asked about big.txt twice.' };
      if (last.includes('read big.txt')) return { thinking: 'Read the file first.', toolCalls: [{ name: 'read_big', input: { path: 'big.txt' } }] };
      if (last.includes('now read it back')) {
        ref = /ref (off_\d+)/.exec(JSON.stringify(messagesOf(req.body)))?.[1] ?? '';
        return ref ? { toolCalls: [{ name: 'read_offloaded', input: { ref } }] } : { text: 'no stub found' };
      }
      return { thinking: `Answering request ${index}.`, text: `Reply ${index}.` };
    };
    fake = await startFakeProvider({ format, replies });
    sandbox = await makeSandbox(format, fake.baseUrl, 'offload_eager_tokens = 1000\nprotected_tokens = 0');
    await writeFile(join(sandbox.project, 'big.txt'), BIG);

    const first = await startEngine(sandbox, tools);
    expect((await first.submit('what is in this project?')).status).toBe('finished');
    expect((await first.submit('and what else?')).status).toBe('finished');
    expect((await first.runSlash('/compact')).output).toMatch(/summar/i);
    expect((await first.submit('read big.txt and tell me what it holds')).status).toBe('finished');
    const id = first.getSnapshot().sessionId;
    const before = fake.requests.at(-1)!;
    const marker = first.runtime.marker;
    await first.dispose();

    const resumed = await startEngine(sandbox, tools, { resume: id.slice(0, 5) });
    expect(resumed.getSnapshot().sessionId).toBe(id);
    // The stubs and the summary carry this marker: the resumed session must recognise them.
    expect(resumed.runtime.marker).toBe(marker);
    expect((await resumed.submit('now read it back')).status).toBe('finished');
    const requestsAfter = fake.requests.slice(fake.requests.indexOf(before) + 1);
    const after = requestsAfter[0]!;
    await resumed.dispose();

    const was = messagesOf(before.body);
    const now = messagesOf(after.body);
    // The same system prompt (the session's marker is restored, not made anew) and tools: the
    // provider's cache still holds the whole prefix.
    expect(systemOf(after.body)).toBe(systemOf(before.body));
    expect(systemOf(before.body)).toMatch(/lw-[0-9a-f]{18}/);
    expect(JSON.stringify((after.body as Json)['tools'])).toBe(JSON.stringify((before.body as Json)['tools']));
    // Everything sent before, in the very same bytes (system message included), then the reply it
    // got, then the new prompt.
    const prefix = JSON.stringify(allMessagesOf(before.body)).slice(1, -1);
    expect(after.raw).toContain(prefix);
    expect(allMessagesOf(after.body).slice(0, allMessagesOf(before.body).length)).toStrictEqual(allMessagesOf(before.body));
    expect(now.slice(0, was.length)).toStrictEqual(was);
    expect(now).toHaveLength(was.length + 2);
    expect(JSON.stringify(now.at(-2))).toContain(`Reply`);
    expect(JSON.stringify(now.at(-1))).toContain('now read it back');
    expect(JSON.stringify(was)).toContain('Summary: the user asked about big.txt twice.');
    expect(JSON.stringify(was)).toContain(`[offloaded ${marker}`);
    if (format === 'anthropic') expect(JSON.stringify(was)).toContain('"signature"');

    // The stub of the offloaded result still resolves after the resume.
    expect(ref).toMatch(/^off_/);
    const answer = JSON.stringify(messagesOf(requestsAfter[1]!.body).at(-1));
    expect(answer).toContain('line 399: const value399');
  });
});
