/**
 * One-shot mode on a project never indexed: the run answers without waiting for the index, lets
 * it finish and write its cache after the answer, and the next run starts with the map in its
 * prompt. An index that does not finish in time is abandoned without leaving a cache behind.
 * The built CLI as a child process, the fake provider over HTTP, a temp project and HOME. A
 * gated code map plugin (test/support/gated-plugin.ts) decides when the index is done.
 */
import { existsSync } from 'node:fs';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startFakeProvider, type FakeProvider } from '../support/fake-provider.js';
import { writeGatedPlugin } from '../support/gated-plugin.js';
import type { Sandbox } from '../support/sandbox.js';
import { readRequest } from '../agent/support/harness.js';
import { makeEnv, start, useBuild, waitFor } from './support/cli.js';

vi.setConfig({ testTimeout: 60_000 });

const cli = useBuild();

const LIB = 'export function priceOf(n: number): number {\n  return n * 2;\n}\n';
const APP = "import { priceOf } from './lib.js';\n\nexport function total(items: number[]): number {\n  return items.reduce((s, n) => s + priceOf(n), 0);\n}\n";
const MAP_HEADING = 'Code map of the project';
const WAITING = /code map: still indexing; waiting up to \d+ ms/;

let fake: FakeProvider | undefined;
let e: Sandbox | undefined;
afterEach(async () => {
  await fake?.close();
  await e?.cleanup();
  fake = e = undefined;
});

/** A project with the code map on and a plugin whose one file is indexed only once `gate` exists. */
async function setup(): Promise<{ env: Sandbox; gate: string }> {
  fake = await startFakeProvider({ format: 'anthropic', replies: (_req, i) => ({ text: `Answer ${i}.` }) });
  e = await makeEnv('anthropic', fake.baseUrl, { codeMap: true });
  const { gate, plugin } = await writeGatedPlugin(e.root);
  // A top-level key: it goes before the config's tables.
  await writeFile(e.configPath, `plugins = [${JSON.stringify(plugin)}]\n${await readFile(e.configPath, 'utf8')}`);
  await writeFile(join(e.project, 'lib.ts'), LIB);
  await writeFile(join(e.project, 'app.ts'), APP);
  await writeFile(join(e.project, 'slow.gated'), 'indexed once the gate opens\n');
  return { env: e, gate };
}

async function filesUnder(dir: string): Promise<string[]> {
  if (!existsSync(dir)) return [];
  return (await readdir(dir, { recursive: true, withFileTypes: true })).filter((d) => d.isFile()).map((d) => d.name);
}

const systemOf = (i: number): string => readRequest('anthropic', fake!.requests[i]!).system;

describe('lwyrm -p on a project never indexed', () => {
  it('finishes the index after the answer and writes its cache; the next run has the map at once', async () => {
    const { env, gate } = await setup();
    const cacheDir = join(env.root, 'cache');

    const first = start(cli(), env, ['-p', 'what is here?', '-v']);
    // The answer is out and the run is waiting for the index: now let the index finish.
    await waitFor(first.stderr, WAITING, first.child);
    // stdout and stderr are two pipes: the answer's last write can reach us just after the log line
    // written after it. The run cannot end before the gate opens, so this still shows the answer
    // complete while the index waits.
    await waitFor(first.stdout, /\n$/, first.child);
    expect(first.stdout()).toBe('Answer 0.\n');
    await writeFile(gate, '');
    const r1 = await first.done;
    expect(r1.status).toBe(0);
    expect(r1.stdout).toBe('Answer 0.\n');
    expect(r1.stderr).toMatch(/code map: cache written \d+ ms after the answer/);
    // The first request went without the map: the index was not ready.
    expect(systemOf(0)).not.toContain(MAP_HEADING);
    const cached = await filesUnder(cacheDir);
    expect(cached.some((n) => /^index-[0-9a-f]+\.json$/.test(n))).toBe(true);
    expect(cached.some((n) => /^maps-[0-9a-f]+\.json$/.test(n))).toBe(true);
    expect(cached.filter((n) => n.endsWith('.tmp'))).toEqual([]);

    const r2 = await start(cli(), env, ['-p', 'and now?', '-v']).done;
    expect(r2.status).toBe(0);
    expect(r2.stdout).toBe('Answer 1.\n');
    expect(r2.stderr).not.toMatch(WAITING);
    expect(systemOf(1)).toContain(MAP_HEADING);
    expect(systemOf(1)).toContain('priceOf');
  });

  it('abandons an index not done in time: the answer and exit status as usual, no cache written', async () => {
    const { env } = await setup();
    const r = await start(cli(), env, ['-p', 'what is here?', '--json', '-v']).done;
    expect(r.status).toBe(0);
    const lines = r.stdout.split('\n').filter(Boolean);
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toMatchObject({ status: 'finished', result: 'Answer 0.' });
    expect(r.stderr).toMatch(WAITING);
    expect(r.stderr).toMatch(/code map: not ready within \d+ ms; abandoned/);
    const cached = await filesUnder(join(env.root, 'cache'));
    expect(cached.filter((n) => n.startsWith('index-') || n.endsWith('.tmp'))).toEqual([]);
  });
});
