/**
 * Lossless offload through the real engine, tools and fake provider: a 20,000-line output is
 * stored whole although max_tool_output_chars clips what the context keeps, every count agrees,
 * and a model that follows only what each read_offloaded page says walks the snapshot to its end.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { assembleSession } from '../../src/agent/assemble-session.js';
import type { LindwyrmEngine } from '../../src/agent/engine.js';
import { loadConfig } from '../../src/config/load-config.js';
import { describeToolCall } from '../../src/tools/describe-call.js';
import { createToolRegistry } from '../../src/tools/registry.js';
import { startFakeProvider, type FakeFormat, type FakeProvider, type RecordedRequest, type ScriptedReply } from '../support/fake-provider.js';
import { cliOptions, makeSandbox, readRequest, type Sandbox } from './support/harness.js';

const SEQ = Array.from({ length: 20_000 }, (_, i) => `${i + 1}\n`).join('');

describe.each<FakeFormat>(['anthropic', 'openai'])('lossless offload (%s)', (format) => {
  let fake: FakeProvider | undefined;
  let sandbox: Sandbox | undefined;
  let engine: LindwyrmEngine | undefined;

  afterEach(async () => {
    await engine?.dispose();
    await fake?.close();
    await sandbox?.cleanup();
    engine = fake = sandbox = undefined;
  });

  async function open(replies: (req: RecordedRequest, i: number) => ScriptedReply): Promise<LindwyrmEngine> {
    fake = await startFakeProvider({ format, replies });
    sandbox = await makeSandbox(format, fake.baseUrl);
    const config = await loadConfig({ cwd: sandbox.project, env: sandbox.env });
    engine = await assembleSession(cliOptions(config.projectRoot, { allow: ['bash'] }), config, {
      createTools: (opts) => createToolRegistry(opts),
      describe: describeToolCall,
      env: sandbox.env,
      clientOptions: { retryBaseMs: 1, maxRetries: 0 },
    });
    return engine;
  }

  const lastResult = (req: RecordedRequest): string => {
    const results = readRequest(format, req).messages.flatMap((m) => m.toolResults.map((r) => r.content));
    return results.at(-1) ?? '';
  };

  /** A model that reads the stub, then asks for exactly the page each footer names, until the end. */
  function walker(first: ScriptedReply, pages: string[]) {
    return (req: RecordedRequest, i: number): ScriptedReply => {
      if (i === 0) return first;
      const text = lastResult(req);
      if (i > 1) pages.push(text);
      const next = /next page: read_offloaded\(ref="(off_\d+)", offset=(\d+)\)\]$/.exec(text);
      if (next) return { toolCalls: [{ name: 'read_offloaded', input: { ref: next[1], offset: Number(next[2]) } }] };
      const ref = i === 1 ? /ref (off_\d+)\]/.exec(text)?.[1] : undefined;
      if (ref) return { toolCalls: [{ name: 'read_offloaded', input: { ref } }] };
      return { text: 'Read it all.' };
    };
  }

  it('stores all 20,000 lines of `seq 1 20000` although the context copy is clipped, with one set of counts', async () => {
    const pages: string[] = [];
    const e = await open(walker({ toolCalls: [{ name: 'bash', input: { command: 'seq 1 20000' } }] }, pages));
    const outcome = await e.submit('count to 20000');
    expect(outcome.status).toBe('finished');

    const stub = lastResult(fake!.requests[1]!);
    const ref = /ref (off_\d+)\]/.exec(stub)![1]!;
    // The snapshot on disk is the whole output and its status line, nothing cut.
    const snapshot = await readFile(join(sandbox!.env['XDG_DATA_HOME']!, 'lindwyrm', 'offload', e.runtime.session.id, `${ref}.txt`), 'utf8');
    expect(snapshot).toBe(`${SEQ}[exit code 0]`);
    expect(stub).toMatch(/bash seq 1 20000 -- 20001 lines, /);
    expect(stub).toContain('all 20001 lines');
    expect(stub).not.toMatch(/cut/);
    // The transcript counts the same output: 20,000 lines, the last six shown.
    const tool = e.store.current().blocks.find((b) => b.kind === 'tool');
    expect(tool?.kind === 'tool' && tool.outputLines).toBe(20_000);
    expect(tool?.kind === 'tool' && tool.resultSummary).toBe('exit 0, 20000 lines of output');

    // Followed page by page, the snapshot comes back line for line, to its end, with no page repeated.
    expect(pages.length).toBeGreaterThan(3);
    const got: string[] = [];
    let expectFirst = 1;
    for (const page of pages) {
      const footer = /\n\[(off_\d+): lines (\d+)-(\d+) of (\d+)[^\]]*\]$/.exec(page)!;
      expect(footer, page.slice(-200)).not.toBeNull();
      expect(Number(footer[2])).toBe(expectFirst);
      expect(Number(footer[4])).toBe(20_001);
      const body = page.slice(0, footer.index).split('\n');
      // Each page holds exactly the lines its footer names, whole, and stays under the cap.
      expect(body).toHaveLength(Number(footer[3]) - Number(footer[2]) + 1);
      expect(page.length).toBeLessThanOrEqual(e.runtime.config.maxToolOutputChars);
      got.push(...body);
      expectFirst = Number(footer[3]) + 1;
    }
    expect(pages.at(-1)).toMatch(/; that is the end\]$/);
    expect(got.join('\n')).toBe(snapshot);
  });

  it('walks an 88 KB snapshot to its end by following only what each page says', async () => {
    const pages: string[] = [];
    const lines = Array.from({ length: 1262 }, (_, i) => `${String(i + 1).padStart(5, '0')} ${'x'.repeat(14 + ((i * 37) % 100))}`);
    const text = lines.join('\n') + '\n';
    expect(text.length).toBeGreaterThan(85_000);
    expect(text.length).toBeLessThan(92_000);
    const e = await open(walker({ toolCalls: [{ name: 'read_file', input: { path: 'big.log' } }] }, pages));
    await writeFile(join(sandbox!.project, 'big.log'), text);
    const outcome = await e.submit('read big.log');
    expect(pages.length).toBeGreaterThanOrEqual(3);
    // No page asked twice: the loop detector never stops the turn.
    expect(outcome.status).toBe('finished');
    const shown = pages.map((p) => p.replace(/\n\[off_\d+: lines [^\]]*\]$/, '')).join('\n').split('\n');
    // read_file numbered the lines: the walk gives back every one of them, in order.
    expect(shown.map((l) => l.replace(/^ *\d+\t/, ''))).toEqual(lines);
    expect(pages.at(-1)).toMatch(/lines \d+-1262 of 1262; that is the end\]$/);
  });
});
