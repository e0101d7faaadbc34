import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { assembleSession } from '../../src/agent/assemble-session.js';
import type { LindwyrmEngine } from '../../src/agent/engine.js';
import { loadConfig } from '../../src/config/load-config.js';
import { describeToolCall } from '../../src/tools/describe-call.js';
import { createToolRegistry } from '../../src/tools/registry.js';
import { startFakeProvider, type FakeFormat, type FakeProvider, type ScriptedReply } from '../support/fake-provider.js';
import { assertValidHistory, cliOptions, makeSandbox, readRequest, type Sandbox } from './support/harness.js';

describe.each<FakeFormat>(['anthropic', 'openai'])('context manager wired into the engine (%s)', (format) => {
  let fake: FakeProvider | undefined;
  let sandbox: Sandbox | undefined;
  let engine: LindwyrmEngine | undefined;

  afterEach(async () => {
    await engine?.dispose();
    await fake?.close();
    await sandbox?.cleanup();
    engine = undefined;
  });

  async function open(replies: ScriptedReply[] | ((req: never, i: number) => ScriptedReply), toml: string) {
    fake = await startFakeProvider({ format, replies: replies as ScriptedReply[] });
    sandbox = await makeSandbox(format, fake.baseUrl, toml);
    const config = await loadConfig({ cwd: sandbox.project, env: sandbox.env });
    engine = await assembleSession(cliOptions(config.projectRoot), config, {
      createTools: (opts) => createToolRegistry(opts),
      describe: describeToolCall,
      env: sandbox.env,
      clientOptions: { retryBaseMs: 1, maxRetries: 0 },
    });
    return engine;
  }

  const results = (i: number) =>
    readRequest(format, fake!.requests[i]!).messages.flatMap((m) => m.toolResults.map((r) => r.content.replace(/^Error: /, '')));

  it('a large read arrives as a stub with the session marker; read_offloaded gives it back whole', async () => {
    let ref = '';
    const e = await open((_req, i) => {
      if (i === 0) return { toolCalls: [{ name: 'read_file', input: { path: 'big.txt' } }] };
      if (i === 1) {
        ref = /off_\d+/.exec(results(1)[0] ?? '')?.[0] ?? 'missing';
        return { toolCalls: [{ name: 'read_offloaded', input: { ref } }] };
      }
      return { text: 'Read it all.' };
    }, 'offload_eager_tokens = 1000');
    const big = Array.from({ length: 800 }, (_, i) => `line ${i} of the big file`).join('\n') + '\n';
    await writeFile(join(sandbox!.project, 'big.txt'), big);
    const outcome = await e.submit('read big.txt');
    expect(outcome.status).toBe('finished');
    const stub = results(1)[0]!;
    expect(stub).toMatch(/^\[offloaded .*read_file big\.txt/);
    expect(stub).toContain(e.runtime.marker);
    expect(stub.length).toBeLessThan(3000);
    const back = results(2)[1]!;
    expect(back).toContain('line 799 of the big file');
    expect(back).not.toMatch(/next page/);
    expect(back).toContain('line 0 of the big file');
  });

  it('/compact asks the model for a summary, keeps the prompt prefix and a valid history', async () => {
    const e = await open(
      [
        { text: 'First answer about the parser.' },
        { toolCalls: [{ name: 'read_file', input: { path: 'a.txt' } }] },
        { text: 'Second answer.' },
        { text: 'The user fixed the parser; a.txt was read.', usage: { input: 0, cacheRead: 0, cacheWrite: 0, output: 777 } },
        { text: 'Third answer.' },
      ],
      'protected_tokens = 10',
    );
    await writeFile(join(sandbox!.project, 'a.txt'), 'alpha\n');
    await e.submit('fix the parser');
    await e.submit('now read a.txt');
    const before = e.runtime.session.usage.output;
    const compact = await e.runSlash('/compact keep the parser decisions');
    // The summary request is billed: it counts in the session's totals.
    expect(e.runtime.session.usage.output - before).toBe(777);
    expect(compact.output).toMatch(/summar/i);
    const summaryRequest = readRequest(format, fake!.requests[3]!);
    expect(summaryRequest.messages.at(-1)!.text).toMatch(/keep the parser decisions/);
    await e.submit('what next?');
    const after = readRequest(format, fake!.requests[4]!);
    assertValidHistory(after);
    expect(after.system).toBe(readRequest(format, fake!.requests[0]!).system);
    expect(after.tools).toBe(readRequest(format, fake!.requests[0]!).tools);
    expect(JSON.stringify(after.messages)).toContain('The user fixed the parser');
    expect(after.messages.at(-1)!.text).toContain('what next?');
  });
});
