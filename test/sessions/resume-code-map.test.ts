/**
 * A resumed session sends the system prompt it was saved with, code map included, byte for byte,
 * though the code changed in between: the provider's prompt cache still hits. The symbol tools
 * answer about the current code. A session file without the saved map resumes as before (with
 * the map as it is now). Real session wiring (the real tool registry and code map), the fake
 * provider over HTTP, a temp project and HOME.
 */
import { readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { assembleSession } from '../../src/agent/assemble-session.js';
import type { LindwyrmEngine } from '../../src/agent/engine.js';
import { realSessionDeps } from '../../src/agent/start-session.js';
import type { CliOptions } from '../../src/cli/options.js';
import { loadConfig } from '../../src/config/load-config.js';
import { cliOptions, makeSandbox, readRequest, type Sandbox } from '../agent/support/harness.js';
import { startFakeProvider, type FakeFormat, type FakeProvider, type ScriptedReply } from '../support/fake-provider.js';

// A cold index loads the parsers first; on a loaded 2-core machine that can take seconds.
vi.setConfig({ testTimeout: 60_000 });

const LIB = 'export function priceOf(n: number): number {\n  return n * 2;\n}\n';
const APP = "import { priceOf } from './lib.js';\n\nexport function total(items: number[]): number {\n  return items.reduce((s, n) => s + priceOf(n), 0);\n}\n";
const DISCOUNT = '\nexport function discountedPriceOf(n: number, rate: number): number {\n  return priceOf(n) * (1 - rate);\n}\n';
const MAP_HEADING = 'Code map of the project';

let fake: FakeProvider | undefined;
let sandbox: Sandbox | undefined;
const engines: LindwyrmEngine[] = [];
afterEach(async () => {
  for (const e of engines.splice(0)) await e.dispose();
  await fake?.close();
  await sandbox?.cleanup();
  fake = sandbox = undefined;
});

async function setup(format: FakeFormat, replies: (req: { body: unknown }, i: number) => ScriptedReply): Promise<void> {
  fake = await startFakeProvider({ format, replies });
  sandbox = await makeSandbox(format, fake.baseUrl);
  await writeFile(join(sandbox.project, 'lib.ts'), LIB);
  await writeFile(join(sandbox.project, 'app.ts'), APP);
}

/** A session through the CLI's own wiring, with the code map on; `waitMs` bounds the wait for the index. */
async function open(cli: Partial<CliOptions>, waitMs: number): Promise<LindwyrmEngine> {
  const config = await loadConfig({ cwd: sandbox!.project, env: sandbox!.env });
  const engine = await assembleSession(cliOptions(config.projectRoot, cli), { ...config, codeMap: { enabled: true } }, {
    ...realSessionDeps(),
    codeMapWaitMs: waitMs,
    env: sandbox!.env,
    clientOptions: { retryBaseMs: 1, maxRetries: 0 },
  });
  engines.push(engine);
  return engine;
}

async function close(engine: LindwyrmEngine): Promise<void> {
  engines.splice(engines.indexOf(engine), 1);
  await engine.dispose();
}

/** The project's session folder (one per project under the temp data dir). */
async function sessionFolder(): Promise<string> {
  const dir = join(sandbox!.root, 'data', 'lindwyrm', 'sessions');
  const [project] = await readdir(dir);
  return join(dir, project!);
}

const systemOf = (format: FakeFormat, i: number): string => readRequest(format, fake!.requests[i]!).system;

describe.each<FakeFormat>(['anthropic', 'openai'])('resume with the code map (%s)', (format) => {
  it('sends the saved system prompt byte for byte after the code changed; the tools see the new code', async () => {
    await setup(format, (req, i) => {
      const last = JSON.stringify(req.body);
      if (last.includes('look up the discount') && !last.includes('discountedPriceOf(n: number')) {
        return { toolCalls: [{ name: 'read_symbol', input: { name: 'discountedPriceOf' } }] };
      }
      return { text: `Reply ${i}.` };
    });
    const first = await open({}, 120_000);
    expect((await first.submit('what is here?')).status).toBe('finished');
    const id = first.getSnapshot().sessionId;
    await close(first);
    const before = systemOf(format, 0);
    expect(before).toContain(MAP_HEADING);
    expect(before).toContain('priceOf');

    // The code changes between the two sessions: today's map would differ from the saved one.
    await writeFile(join(sandbox!.project, 'lib.ts'), LIB + DISCOUNT);

    const resumed = await open({ resume: id }, 120_000);
    expect(resumed.runtime.codeMapText).not.toContain('discountedPriceOf');
    expect((await resumed.submit('look up the discount')).status).toBe('finished');
    expect(fake!.requests).toHaveLength(3);
    expect(systemOf(format, 1)).toBe(before);
    expect(systemOf(format, 2)).toBe(before);
    // The symbol tools answer about the code as it is now.
    const result = readRequest(format, fake!.requests[2]!).messages.flatMap((m) => m.toolResults).at(-1)!.content;
    expect(result).toContain('return priceOf(n) * (1 - rate);');

    // A new session in the same project takes the map as it is now.
    const fresh = await open({}, 120_000);
    expect(fresh.runtime.system).toContain('discountedPriceOf');
  });
});

describe('resume with the code map: other cases', () => {
  it('a session file without the saved map resumes with the map as it is now', async () => {
    await setup('anthropic', (_req, i) => ({ text: `Reply ${i}.` }));
    const first = await open({}, 120_000);
    expect((await first.submit('what is here?')).status).toBe('finished');
    const id = first.getSnapshot().sessionId;
    await close(first);

    // Make it a file from before the field existed: no map file, no pointer in the index.
    const folder = await sessionFolder();
    const metaPath = join(folder, `${id}.meta.json`);
    const meta = JSON.parse(await readFile(metaPath, 'utf8')) as Record<string, unknown>;
    expect(meta['codeMap']).toMatchObject({ sha256: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(JSON.stringify(meta)).not.toContain('priceOf');
    delete meta['codeMap'];
    await writeFile(metaPath, JSON.stringify(meta));
    await rm(join(folder, `${id}.map.json`));

    await writeFile(join(sandbox!.project, 'lib.ts'), LIB + DISCOUNT);
    const resumed = await open({ resume: id }, 120_000);
    expect((await resumed.submit('and now?')).status).toBe('finished');
    expect(systemOf('anthropic', 1)).toContain('discountedPriceOf');
    // Saved again, it carries its map from now on.
    await close(resumed);
    expect(JSON.parse(await readFile(metaPath, 'utf8'))).toHaveProperty('codeMap');
  });

  it('a session that started before the index was ready resumes without the map, as it was sent', async () => {
    await setup('openai', (_req, i) => ({ text: `Reply ${i}.` }));
    // No wait: the first prompt goes without the map, as on a cold first start.
    const first = await open({}, 0);
    expect((await first.submit('what is here?')).status).toBe('finished');
    await close(first);
    const before = systemOf('openai', 0);
    expect(before).not.toContain(MAP_HEADING);

    // The resumed session could have the map (it may wait for the index as long as it takes):
    // --continue still sends the prompt as it was, without it.
    const resumed = await open({ continueLast: true }, 120_000);
    expect((await resumed.submit('and now?')).status).toBe('finished');
    expect(systemOf('openai', 1)).toBe(before);
  });

  it('a map file that does not match its index is ignored', async () => {
    await setup('anthropic', (_req, i) => ({ text: `Reply ${i}.` }));
    const first = await open({}, 120_000);
    expect((await first.submit('what is here?')).status).toBe('finished');
    const id = first.getSnapshot().sessionId;
    await close(first);
    const mapPath = join(await sessionFolder(), `${id}.map.json`);
    const saved = JSON.parse(await readFile(mapPath, 'utf8')) as { text: string };
    await writeFile(mapPath, JSON.stringify({ text: `${saved.text}\nforged()` }));

    const resumed = await open({ resume: id }, 120_000);
    expect(resumed.runtime.system).not.toContain('forged()');
    expect(resumed.runtime.system).toContain(MAP_HEADING);
  });
});
