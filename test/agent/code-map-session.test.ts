/**
 * The real code map inside a session: its indexing progress reaches the store while it builds
 * and is cleared once it is ready, and an edit by the agent changes neither the system prompt
 * nor the tool list of later requests, while read_symbol answers about the edited code.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { assembleSession } from '../../src/agent/assemble-session.js';
import type { LindwyrmEngine } from '../../src/agent/engine.js';
import type { IndexingProgress } from '../../src/agent/state.js';
import { openCodeMap } from '../../src/codemap/code-map.js';
import { loadConfig } from '../../src/config/load-config.js';
import { describeToolCall } from '../../src/tools/describe-call.js';
import { createToolRegistry } from '../../src/tools/registry.js';
import { startFakeProvider, type FakeFormat, type FakeProvider, type ScriptedReply } from '../support/fake-provider.js';
import { assertValidHistory, cliOptions, makeSandbox, readRequest, type Sandbox } from './support/harness.js';

const LIB = 'export function priceOf(n: number): number {\n  return n * 2;\n}\n';
const APP = "import { priceOf } from './lib.js';\n\nexport function total(items: number[]): number {\n  return items.reduce((s, n) => s + priceOf(n), 0);\n}\n";

let fake: FakeProvider | undefined;
let sandbox: Sandbox | undefined;
let engine: LindwyrmEngine | undefined;
afterEach(async () => {
  await engine?.dispose();
  await fake?.close();
  await sandbox?.cleanup();
  engine = fake = sandbox = undefined;
});

async function open(format: FakeFormat, replies: ScriptedReply[], opts: { waitMs: number; log?: (line: string) => void }) {
  fake = await startFakeProvider({ format, replies });
  sandbox = await makeSandbox(format, fake.baseUrl);
  await writeFile(join(sandbox.project, 'lib.ts'), LIB);
  await writeFile(join(sandbox.project, 'app.ts'), APP);
  const config = await loadConfig({ cwd: sandbox.project, env: sandbox.env });
  let opened: Promise<unknown> = Promise.resolve();
  engine = await assembleSession(cliOptions(config.projectRoot, { allow: ['write'] }), { ...config, codeMap: { enabled: true } }, {
    createTools: (o) => createToolRegistry(o),
    describe: describeToolCall,
    openCodeMap: (o) => {
      const p = openCodeMap({ ...o, cacheDir: join(sandbox!.root, 'cache', 'map') });
      opened = p;
      return p;
    },
    codeMapWaitMs: opts.waitMs,
    env: sandbox.env,
    clientOptions: { retryBaseMs: 1, maxRetries: 0 },
    ...(opts.log ? { log: opts.log } : {}),
  });
  return { engine, opened: () => opened };
}

describe('indexing progress', () => {
  it('reaches the store while the map builds and is cleared when it is ready', async () => {
    const seen: (IndexingProgress | null)[] = [];
    const lines: string[] = [];
    // No wait: the session starts while the index is still building, as a cold start does.
    const { engine: e, opened } = await open('anthropic', [{ text: 'hi' }], { waitMs: 0, log: (l) => lines.push(l) });
    e.store.onEvent((ev) => {
      if (ev.type === 'indexing') seen.push(ev.progress);
    });
    const early = e.store.current().indexing;
    await opened();
    await new Promise((r) => setImmediate(r));
    // Progress arrived either before the engine existed (replayed at start) or as events after.
    const reports = [...(early ? [early] : []), ...seen.filter((p): p is IndexingProgress => p !== null)];
    expect(reports.length).toBeGreaterThan(0);
    expect(reports.at(-1)!.total).toBe(2);
    expect(reports.every((p) => p.done <= p.total)).toBe(true);
    expect(e.store.current().indexing).toBeNull();
    expect(seen.at(-1)).toBeNull();
    expect(lines.some((l) => /^code map: ready in \d+ ms \(2 files\)$/.test(l))).toBe(true);
    // Not one log line per file.
    expect(lines.filter((l) => l.startsWith('code map: indexing')).length).toBeLessThanOrEqual(1);
  });
});

describe.each<FakeFormat>(['anthropic', 'openai'])('the code map across an edit (%s)', (format) => {
  it('keeps the system prompt and tools byte-identical while read_symbol sees the new code', async () => {
    const { engine: e } = await open(
      format,
      [
        { toolCalls: [{ name: 'edit_file', input: { path: 'lib.ts', old_string: 'return n * 2;', new_string: 'return applyTax(n * 3);' } }] },
        {
          toolCalls: [
            { name: 'write_file', input: { path: 'tax.ts', content: 'export function applyTax(n: number): number {\n  return n * 1.2;\n}\n' } },
          ],
        },
        { text: 'Edited.' },
        { toolCalls: [{ name: 'read_symbol', input: { name: 'priceOf' } }] },
        { toolCalls: [{ name: 'read_symbol', input: { name: 'applyTax' } }] },
        { text: 'Read.' },
      ],
      { waitMs: 120_000 },
    );
    expect(await e.submit('triple the price')).toMatchObject({ status: 'finished', result: 'Edited.' });
    expect(await readFile(join(sandbox!.project, 'lib.ts'), 'utf8')).toContain('applyTax(n * 3)');
    expect(await e.submit('show me priceOf')).toMatchObject({ status: 'finished', result: 'Read.' });

    const raws = fake!.requests.map((r) => r.body as Record<string, unknown>);
    expect(raws).toHaveLength(6);
    const systemOf = (b: Record<string, unknown>) =>
      format === 'anthropic' ? JSON.stringify(b['system']) : JSON.stringify((b['messages'] as { role: string }[]).filter((m) => m.role === 'system'));
    const first = raws[0]!;
    expect(systemOf(first)).toContain('priceOf');
    for (const body of raws.slice(1)) {
      expect(systemOf(body)).toBe(systemOf(first));
      expect(JSON.stringify(body['tools'])).toBe(JSON.stringify(first['tools']));
    }
    const turns = fake!.requests.map((r) => readRequest(format, r));
    turns.forEach(assertValidHistory);
    const resultOf = (i: number) => turns[i]!.messages.flatMap((m) => m.toolResults).at(-1)!.content;
    expect(resultOf(4)).toContain('applyTax(n * 3)');
    expect(resultOf(4)).not.toContain('n * 2');
    expect(resultOf(5)).toContain('n * 1.2');
  });
});
