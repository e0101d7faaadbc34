/**
 * Nothing a summary replaces is lost: a session driven past its reclaim point is summarized, the
 * replaced turns are archived with it, the request after the summary carries the framing (a
 * record of the past, the marker, the recall note), and recall — the real tool, through the real
 * registry — finds a detail only the archived turns held; read_offloaded opens the turn in full.
 * The archive survives `-c`.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { assembleSession } from '../../src/agent/assemble-session.js';
import type { LindwyrmEngine } from '../../src/agent/engine.js';
import type { CliOptions } from '../../src/cli/options.js';
import { loadConfig } from '../../src/config/load-config.js';
import { describeToolCall } from '../../src/tools/describe-call.js';
import { createToolRegistry } from '../../src/tools/registry.js';
import { startFakeProvider, type FakeFormat, type FakeProvider, type ScriptedReply } from '../support/fake-provider.js';
import { cliOptions, makeSandbox, readRequest, type Sandbox } from '../agent/support/harness.js';

// A 16,000-token window reclaims at 12,000; a one-token protected zone lets every turn before the
// current one be summarized.
const WINDOW = 16_000;
const SUMMARY_ASK = /Summarize the conversation so far/;
const DETAIL = 'staging answers on port 48213 behind the blue proxy';

let fake: FakeProvider | undefined;
let sandbox: Sandbox | undefined;
const engines: LindwyrmEngine[] = [];
afterEach(async () => {
  for (const e of engines.splice(0)) await e.dispose();
  await fake?.close();
  await sandbox?.cleanup();
  fake = sandbox = undefined;
});

async function open(cli: Partial<CliOptions> = {}): Promise<LindwyrmEngine> {
  const config = await loadConfig({ cwd: sandbox!.project, env: sandbox!.env });
  const sized = { ...config, presets: config.presets.map((p) => (p.name === 'fake' ? { ...p, contextWindow: WINDOW } : p)) };
  const engine = await assembleSession(cliOptions(config.projectRoot, cli), sized, {
    createTools: (opts) => createToolRegistry(opts),
    describe: describeToolCall,
    env: sandbox!.env,
    clientOptions: { retryBaseMs: 1, maxRetries: 0 },
  });
  engines.push(engine);
  return engine;
}

async function start(format: FakeFormat, replies: ScriptedReply[]): Promise<void> {
  fake = await startFakeProvider({ format, replies });
  sandbox = await makeSandbox(format, fake.baseUrl, 'protected_tokens = 1');
}

/** Turn one holds the detail; its reply reports a prompt over the reclaim point, so turn two summarizes first. */
const FIRST_TURN: ScriptedReply = { text: `Noted: ${DETAIL}.`, usage: { input: 13_000, output: 20 } };
const SUMMARY: ScriptedReply = { text: 'SUMMARY: Done: looked at the staging setup (done). Open: none. Latest request: what the port is.' };

describe.each<FakeFormat>(['anthropic', 'openai'])('recall over a summarized session (%s)', (format) => {
  const request = (i: number) => readRequest(format, fake!.requests[i]!);
  const toolResults = (i: number) => request(i).messages.flatMap((m) => m.toolResults.map((r) => r.content));

  it('archives the turns a summary replaces, frames the summary as the past, and recall finds what only the archive holds', async () => {
    await start(format, [
      FIRST_TURN,
      SUMMARY,
      { toolCalls: [{ name: 'recall', input: { query: 'port "blue proxy"' } }] },
      { toolCalls: [{ name: 'read_offloaded', input: { ref: 'arc_0001' } }] },
      { toolCalls: [{ name: 'recall', input: { query: '/port \\d{5}/' } }] },
      { text: 'It is 48213.' },
    ]);
    const e = await open();
    await e.submit(`Remember this: ${DETAIL}.`);
    const outcome = await e.submit('Which port was it again?');
    expect(outcome).toMatchObject({ status: 'finished', result: 'It is 48213.' });

    // Request 1 asks for the summary of turn one, with the prompt that asks for a record of the past.
    expect(SUMMARY_ASK.test(fake!.requests[1]!.raw)).toBe(true);
    expect(fake!.requests[1]!.raw).toMatch(/Done:.*\(done\).*Open:.*\(open\).*Latest request:/s);

    // What is sent after the summary: the framing with the marker, the summary, the recall note,
    // then the current prompt — and not the detail, which only the archive holds now.
    const after = request(2);
    const first = after.messages[0]!;
    const marker = /Earlier conversation (lw-[0-9a-f]+),/.exec(first.text)?.[1];
    expect(marker).toBeDefined();
    expect(first.text).toContain(`[Earlier conversation ${marker}, condensed to free context. This is a record of what already happened, written by lindwyrm, not a message from the user:]`);
    expect(first.text).toContain('SUMMARY: Done: looked at the staging setup (done).');
    expect(first.text).toContain(`[End of the record ${marker}. Work it lists as done was completed: do not do it again`);
    expect(first.text).toMatch(/The turn it replaces is archived word for word \(arc_0001\): the recall tool searches it by words/);
    expect(first.text).toMatch(/the user's most recent message there is the current request\.\]/);
    expect(first.text.endsWith('Which port was it again?')).toBe(true);
    expect(JSON.stringify(fake!.requests[2]!.body)).not.toContain('48213');

    // recall found it in the archive, with its ref and a line number.
    const recalled = toolResults(3).at(-1)!;
    expect(recalled).toMatch(/1 archived text match "port" "blue proxy"/);
    expect(recalled).toMatch(/arc_0001 \(archived turn\)/);
    expect(recalled).toMatch(/^\s+\d+ {2}.*48213 behind the blue proxy/m);
    // read_offloaded opens the archived turn in full, in the conversation's own words.
    const opened = toolResults(4).at(-1)!;
    expect(opened).toContain(`USER:\nRemember this: ${DETAIL}.`);
    expect(opened).toContain(`ASSISTANT:\nNoted: ${DETAIL}.`);
    expect(opened).not.toContain(marker!);
    // A regex works too.
    expect(toolResults(5).at(-1)).toMatch(/port 48213/);

    // The tool list is the same on every request, the summary's and the first one included.
    const tools = fake!.requests.map((_, i) => request(i).tools);
    expect(new Set(tools).size).toBe(1);
    expect(tools[0]).toContain('"recall"');
  });

  it('keeps the archive across -c: a resumed session recalls what was summarized in an earlier run', async () => {
    await start(format, [FIRST_TURN, SUMMARY, { text: 'Port noted.' }, { toolCalls: [{ name: 'recall', input: { query: '48213' } }] }, { text: 'It was 48213.' }]);
    const first = await open({ save: true });
    await first.submit(`Remember this: ${DETAIL}.`);
    await first.submit('Thanks.');
    const sessionId = first.runtime.session.id;
    await first.dispose();
    engines.splice(0);

    const resumed = await open({ save: true, continueLast: true });
    expect(resumed.runtime.session.id).toBe(sessionId);
    expect((await resumed.runSlash('/context')).output).toContain('archived: 1 summarized turn(s), word for word; recall searches them');
    expect(await resumed.submit('Which port?')).toMatchObject({ status: 'finished', result: 'It was 48213.' });
    const recalled = toolResults(4).at(-1)!;
    expect(recalled).toMatch(/arc_0001 \(archived turn\), 2 hits/);
    expect(recalled).toContain('48213');
  });
});

describe('recall before anything was summarized', () => {
  it('says nothing is archived yet, instead of failing', async () => {
    await start('anthropic', [{ toolCalls: [{ name: 'recall', input: { query: 'anything' } }] }, { text: 'ok' }]);
    const e = await open();
    await e.submit('hello');
    const result = readRequest('anthropic', fake!.requests[1]!).messages.flatMap((m) => m.toolResults.map((r) => r.content)).at(-1);
    expect(result).toMatch(/Nothing is archived in this session yet/);
  });
});
