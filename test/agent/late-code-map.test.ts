/**
 * A code map that is still indexing does not hold the session back: the first request goes out
 * without it, the prompt stays the same for the session, the map joins at the next prefix
 * rewrite (/clear), and a symbol tool called meanwhile waits for the index and then answers.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { assembleSession } from '../../src/agent/assemble-session.js';
import type { LindwyrmEngine } from '../../src/agent/engine.js';
import type { CodeMapPort } from '../../src/agent/ports.js';
import { loadConfig } from '../../src/config/load-config.js';
import type { ToolDefinition } from '../../src/tools/types.js';
import { startFakeProvider, type FakeFormat, type FakeProvider, type ScriptedReply } from '../support/fake-provider.js';
import { cliOptions, makeSandbox, noteTool, readRequest, toolRunner, type Sandbox } from './support/harness.js';

let fake: FakeProvider | undefined;
let sandbox: Sandbox | undefined;
let engine: LindwyrmEngine | undefined;
afterEach(async () => {
  await engine?.dispose();
  await fake?.close();
  await sandbox?.cleanup();
  engine = fake = sandbox = undefined;
});

const lookupShape: Omit<ToolDefinition, 'run'> = {
  name: 'read_symbol',
  description: 'Reads a symbol.',
  inputSchema: { type: 'object', properties: { name: { type: 'string' } } },
  kind: 'read',
  bulk: false,
};

/** Stands for a write tool: reports the file it changed, as apply-change does. */
const touchTool: ToolDefinition = {
  name: 'touch',
  description: 'Changes a file.',
  inputSchema: { type: 'object', properties: { path: { type: 'string' } } },
  kind: 'none',
  bulk: false,
  run: async (args, ctx) => {
    ctx.onFileChanged?.(String((args as { path?: unknown }).path));
    return { ok: true, content: 'changed', summary: 'changed' };
  },
};

/** A code map that opens only when the test says so, as a cold index finishing. */
function slowCodeMap() {
  let calls = 0;
  const changed: string[] = [];
  const map: CodeMapPort = {
    mapText: () => 'src/app.ts\n  export function app(): void  // THE MAP',
    tools: () => [{ ...lookupShape, run: async (args) => ({ ok: true, content: `source of ${String((args as { name?: unknown }).name)}`, summary: 'read' }) }],
    fileChanged: async (path) => void changed.push(path),
    close: () => void calls++,
  };
  let open!: () => void;
  const opening = new Promise<CodeMapPort>((resolve) => (open = () => resolve(map)));
  return { opening, open, closes: () => calls, changed };
}

async function start(format: FakeFormat, replies: ScriptedReply[], slow: ReturnType<typeof slowCodeMap>, onToolCall?: () => void) {
  fake = await startFakeProvider({ format, replies });
  sandbox = await makeSandbox(format, fake.baseUrl);
  const config = await loadConfig({ cwd: sandbox.project, env: sandbox.env });
  engine = await assembleSession(cliOptions(config.projectRoot), { ...config, codeMap: { ...config.codeMap, enabled: true } }, {
    // The test's runner sees when the model's call reaches a code map tool, before it waits.
    createTools: (opts) =>
      toolRunner([
        noteTool,
        touchTool,
        ...(opts.extraTools ?? []).map((t) => ({ ...t, run: (a: unknown, c: Parameters<ToolDefinition['run']>[1]) => (onToolCall?.(), t.run(a, c)) })),
      ]),
    describe: (name) => name,
    openCodeMap: () => slow.opening,
    codeMapToolShapes: async () => [{ ...lookupShape, run: async () => ({ ok: false, content: 'not a real tool', summary: '' }) }],
    codeMapWaitMs: 20,
    env: sandbox.env,
    clientOptions: { retryBaseMs: 1, maxRetries: 0 },
  });
  return engine;
}

describe.each<FakeFormat>(['anthropic', 'openai'])('a code map still indexing (%s)', (format) => {
  const request = (i: number) => readRequest(format, fake!.requests[i]!);

  it('sends the first request without it, keeps the prompt fixed, and adds the map on /clear', async () => {
    const slow = slowCodeMap();
    const e = await start(format, [{ text: 'one' }, { text: 'two' }, { text: 'three' }], slow);
    expect(await e.submit('first')).toMatchObject({ status: 'finished', result: 'one' });
    expect(request(0).system).not.toContain('THE MAP');
    // The tool list is there from the start: it cannot change mid-session either.
    expect(request(0).tools).toContain('read_symbol');

    slow.open();
    await slow.opening;
    await e.submit('second');
    expect(request(1).system).toBe(request(0).system);
    expect(request(1).tools).toBe(request(0).tools);

    await e.runSlash('/clear');
    await e.submit('third');
    expect(request(2).system).toContain('THE MAP');
    expect(request(2).tools).toBe(request(0).tools);
  });

  it('a symbol tool called before the index is ready waits for it, then answers', async () => {
    const slow = slowCodeMap();
    const e = await start(
      format,
      [{ toolCalls: [{ name: 'read_symbol', input: { name: 'app' } }] }, { text: 'done' }],
      slow,
      () => slow.open(),
    );
    expect(await e.submit('look it up')).toMatchObject({ status: 'finished', result: 'done' });
    const results = request(1).messages.flatMap((m) => m.toolResults);
    expect(results.map((r) => r.content).join('\n')).toContain('source of app');
  });

  it('re-indexes the files the agent changed while the index was still building, once it is ready', async () => {
    const slow = slowCodeMap();
    const e = await start(format, [{ toolCalls: [{ name: 'touch', input: { path: '/p/a.ts' } }, { name: 'touch', input: { path: '/p/b.ts' } }] }, { text: 'done' }], slow);
    expect(await e.submit('change two files')).toMatchObject({ status: 'finished' });
    expect(slow.changed).toEqual([]);
    slow.open();
    await slow.opening;
    for (let i = 0; i < 5 && slow.changed.length < 2; i++) await new Promise((r) => setImmediate(r));
    expect(slow.changed).toEqual(['/p/a.ts', '/p/b.ts']);
  });

  it('closes a map that finishes opening after the session ended', async () => {
    const slow = slowCodeMap();
    const e = await start(format, [{ text: 'one' }], slow);
    await e.submit('first');
    await e.dispose();
    engine = undefined;
    expect(slow.closes()).toBe(0);
    slow.open();
    await slow.opening;
    // The close is chained on the opening; one more turn of the queue lets it run.
    await new Promise((r) => setImmediate(r));
    expect(slow.closes()).toBe(1);
  });
});
