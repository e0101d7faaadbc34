import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { assembleSession } from '../../src/agent/assemble-session.js';
import type { LindwyrmEngine } from '../../src/agent/engine.js';
import { openCodeMap } from '../../src/codemap/code-map.js';
import type { CliOptions } from '../../src/cli/options.js';
import { loadConfig } from '../../src/config/load-config.js';
import { describeToolCall } from '../../src/tools/describe-call.js';
import { createToolRegistry } from '../../src/tools/registry.js';
import { startFakeProvider, type FakeFormat, type FakeProvider, type ScriptedReply } from '../support/fake-provider.js';
import { assertValidHistory, cliOptions, makeSandbox, readRequest, type Sandbox } from './support/harness.js';

const PRICES = 'def total(items):\n    result = 0\n    for item in items:\n        result = result + item["price"]\n    return result\n';

describe.each<FakeFormat>(['anthropic', 'openai'])('engine with the real tools over %s', (format) => {
  let fake: FakeProvider | undefined;
  let sandbox: Sandbox | undefined;
  let engine: LindwyrmEngine | undefined;

  afterEach(async () => {
    await engine?.dispose();
    await fake?.close();
    await sandbox?.cleanup();
    engine = undefined;
  });

  async function open(replies: ScriptedReply[], cli: Partial<CliOptions> = {}, toml = '', codeMap = false) {
    fake = await startFakeProvider({ format, replies });
    sandbox = await makeSandbox(format, fake.baseUrl, toml);
    await writeFile(join(sandbox.project, 'prices.py'), PRICES);
    await writeFile(join(sandbox.project, 'lib.ts'), 'export function priceOf(n: number): number {\n  return n * 2;\n}\n');
    const config = await loadConfig({ cwd: sandbox.project, env: sandbox.env });
    const withMap = codeMap ? { ...config, codeMap: { enabled: true } } : config;
    engine = await assembleSession(cliOptions(config.projectRoot, cli), withMap, {
      createTools: (opts) => createToolRegistry(opts),
      describe: describeToolCall,
      openCodeMap: ({ projectRoot, config: c }) => openCodeMap({ projectRoot, cacheDir: join(sandbox!.root, 'cache', 'map'), config: c }),
      // These tests read the map's contents: loading TypeScript alone can outlast the start-up wait
      // on a busy machine (the wait itself is test/agent/late-code-map.test.ts's subject).
      codeMapWaitMs: 120_000,
      env: sandbox.env,
      clientOptions: { retryBaseMs: 1, maxRetries: 0 },
    });
    return engine;
  }

  const results = (i: number) =>
    readRequest(format, fake!.requests[i]!).messages.flatMap((m) => m.toolResults.map((r) => r.content.replace(/^Error: /, '')));

  it('reads, edits and runs a command in one turn', async () => {
    const e = await open(
      [
        { text: 'Reading.', toolCalls: [{ name: 'read_file', input: { path: 'prices.py' } }] },
        {
          toolCalls: [
            {
              name: 'edit_file',
              input: { path: 'prices.py', old_string: PRICES.slice(PRICES.indexOf('    result = 0')), new_string: '    return sum(i["price"] for i in items)\n' },
            },
            { name: 'bash', input: { command: 'cat prices.py && echo exit-ok' } },
          ],
        },
        { text: 'Done: total() is one line now.' },
      ],
      { allow: ['write', 'bash'] },
    );
    const outcome = await e.submit('rewrite total() with sum()');
    expect(outcome).toMatchObject({ status: 'finished', result: 'Done: total() is one line now.', steps: 2 });
    expect(await readFile(join(sandbox!.project, 'prices.py'), 'utf8')).toBe('def total(items):\n    return sum(i["price"] for i in items)\n');
    expect(results(1).join('')).toContain('result = 0');
    const last = results(2);
    expect(last).toHaveLength(3);
    expect(last[2]).toContain('exit-ok');
    assertValidHistory(readRequest(format, fake!.requests[2]!));
    const titles = e.store.current().blocks.flatMap((b) => (b.kind === 'tool' ? [b.title] : []));
    expect(titles[0]).toBe('read_file prices.py');
  });

  it('q at an approval stops the turn; the call is recorded and the session carries on', async () => {
    const e = await open([
      { toolCalls: [{ name: 'write_file', input: { path: 'a.txt', content: 'x' } }, { name: 'read_file', input: { path: 'prices.py' } }] },
      { text: 'Understood.' },
    ]);
    e.subscribe(() => {
      const pending = e.getSnapshot().pendingApproval;
      if (pending) e.answer(pending.id, 'quit');
    });
    const first = await e.submit('write a file');
    expect(first.status).toBe('interrupted');
    const second = await e.submit('never mind');
    expect(second.status).toBe('finished');
    assertValidHistory(readRequest(format, fake!.requests[1]!));
    expect(results(1)).toHaveLength(2);
  });

  it('puts the code map in the system prompt and its tools in the tool list, byte-stable', async () => {
    const e2 = await open([{ toolCalls: [{ name: 'read_file', input: { path: 'lib.ts' } }] }, { text: 'ok' }], {}, '', true);
    await e2.submit('look');
    const r0 = readRequest(format, fake!.requests[0]!);
    const r1 = readRequest(format, fake!.requests[1]!);
    expect(r0.tools).toContain('read_symbol');
    expect(r0.system).toContain('Code map of the project');
    expect(r0.system).toContain('priceOf');
    expect(r0.system).toBe(r1.system);
    expect(r0.tools).toBe(r1.tools);
  });
});
