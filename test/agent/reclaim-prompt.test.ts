/**
 * What a reclaim means for the prompt and the transcript: a failed summary is told to the user,
 * and the code map in the system prompt is refreshed only where the prefix changes anyway (a
 * summary, /clear), never between ordinary requests.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { assembleSession } from '../../src/agent/assemble-session.js';
import type { LindwyrmEngine } from '../../src/agent/engine.js';
import type { CodeMapPort } from '../../src/agent/ports.js';
import { loadConfig } from '../../src/config/load-config.js';
import { startFakeProvider, type FakeFormat, type FakeProvider, type ScriptedReply } from '../support/fake-provider.js';
import { cliOptions, makeSandbox, noteTool, readRequest, toolRunner, type Sandbox } from './support/harness.js';

// A 16,000-token window reclaims at 12,000; a one-token protected zone lets the turn before the
// current one be summarized.
const WINDOW = 16_000;

const SUMMARY_ASK = /Summarize the conversation so far/;

let fake: FakeProvider | undefined;
let sandbox: Sandbox | undefined;
let engine: LindwyrmEngine | undefined;
afterEach(async () => {
  await engine?.dispose();
  await fake?.close();
  await sandbox?.cleanup();
  engine = fake = sandbox = undefined;
});

/** A code map whose text the test changes, as edits to the project would. */
function fakeCodeMap(): CodeMapPort & { version: number } {
  const map = {
    version: 1,
    mapText: () => `src/app.ts\n  export function app(): void  // MAP v${map.version}`,
    tools: () => [],
    fileChanged: async () => undefined,
    close: () => undefined,
  };
  return map;
}

async function open(format: FakeFormat, replies: ScriptedReply[], map?: CodeMapPort): Promise<LindwyrmEngine> {
  fake = await startFakeProvider({ format, replies });
  sandbox = await makeSandbox(format, fake.baseUrl, 'protected_tokens = 1');
  const config = await loadConfig({ cwd: sandbox.project, env: sandbox.env });
  const sized = { ...config, presets: config.presets.map((p) => (p.name === 'fake' ? { ...p, contextWindow: WINDOW } : p)) };
  const withMap = map ? { ...sized, codeMap: { enabled: true } } : sized;
  engine = await assembleSession(cliOptions(config.projectRoot), withMap, {
    createTools: () => toolRunner([noteTool]),
    describe: (name) => name,
    ...(map ? { openCodeMap: async () => map } : {}),
    env: sandbox.env,
    clientOptions: { retryBaseMs: 1, maxRetries: 0 },
  });
  return engine;
}

const notices = (e: LindwyrmEngine) => e.store.current().blocks.flatMap((b) => (b.kind === 'notice' ? [b] : []));

describe.each<FakeFormat>(['anthropic', 'openai'])('reclaim and the prompt (%s)', (format) => {
  const systemOf = (i: number) => readRequest(format, fake!.requests[i]!).system;

  it('tells the user, as a warning, when the summary request fails; the turn goes on', async () => {
    const e = await open(
      format,
      [
        // The first reply reports a prompt over the reclaim point (12,000 of 16,000).
        { text: 'first', usage: { input: 13_000, output: 5 } },
        { fault: { kind: 'status', status: 400 } },
        { text: 'second' },
      ],
    );
    await e.submit('hello');
    expect(await e.submit('and again')).toMatchObject({ status: 'finished', result: 'second' });
    expect(SUMMARY_ASK.test(fake!.requests[1]!.raw)).toBe(true);
    const failed = notices(e).filter((n) => /Summarizing the earlier conversation failed/.test(n.text));
    expect(failed).toHaveLength(1);
    expect(failed[0]!.level).toBe('warning');
    // Nothing was replaced: the main request carries both turns.
    expect(readRequest(format, fake!.requests[2]!).messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
  });

  it('keeps the code map text fixed between requests, and refreshes it after a summary and on /clear', async () => {
    const map = fakeCodeMap();
    const e = await open(
      format,
      [
        { text: 'one', usage: { input: 13_000, output: 5 } },
        { text: 'SUMMARY: one turn so far.' },
        { text: 'two' },
        { text: 'three' },
        { text: 'SUMMARY: two turns.' },
        { text: 'four' },
        { text: 'five' },
      ],
      map,
    );
    await e.submit('first');
    expect(systemOf(0)).toContain('MAP v1');
    map.version = 2;
    // Over the reclaim point: the turn summarizes first. The summary request still shares the old
    // prefix (its cache); the request after it carries the refreshed map.
    await e.submit('second');
    expect(SUMMARY_ASK.test(fake!.requests[1]!.raw)).toBe(true);
    expect(systemOf(1)).toBe(systemOf(0));
    expect(systemOf(2)).toContain('MAP v2');
    expect(systemOf(2)).not.toContain('MAP v1');
    expect(notices(e).some((n) => /Summarized/.test(n.text) && n.level === 'info')).toBe(true);

    // An edit alone does not move the prefix.
    map.version = 3;
    await e.submit('third');
    expect(systemOf(3)).toBe(systemOf(2));

    // /compact summarizes: the next request has the current map.
    expect((await e.runSlash('/compact')).output).toMatch(/Summarized/);
    await e.submit('fourth');
    expect(systemOf(5)).toContain('MAP v3');

    map.version = 4;
    await e.runSlash('/clear');
    await e.submit('fifth');
    expect(systemOf(6)).toContain('MAP v4');
  });
});
