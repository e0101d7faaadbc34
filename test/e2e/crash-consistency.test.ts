/**
 * Crash consistency of the built CLI: a run is SIGKILLed at chosen moments (LWYRM_FAULT_KILL) —
 * half a temp file written, between the write and the rename, in the middle of a session append,
 * during an offload — and afterwards the project holds the old file or the new one and nothing
 * else once the next run has started, and the session resumes. Run `npm run build` first.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startFakeProvider, type FakeProvider, type RecordedRequest } from '../support/fake-provider.js';
import type { Sandbox } from '../support/sandbox.js';
import { makeEnv, PRICES_PY, run, useBuild } from './support/cli.js';

vi.setConfig({ testTimeout: 240_000 });

const cli = useBuild();
const NEW_PRICES = 'def total(items):\n    return sum(item["price"] for item in items)\n';

/** A turn that edits prices.py, writes a new file in a subfolder and offloads a large output. */
function replies(req: RecordedRequest) {
  const messages = (req.body as { messages?: { content?: unknown }[] }).messages ?? [];
  const last = JSON.stringify(messages.at(-1)?.content ?? '');
  // A prompt (the first run's, or the resuming run's) gets the edits; their results get the answer.
  if (!/tidy prices\.py|carry on/.test(last)) return { text: 'Done.' };
  return {
    toolCalls: [
      { name: 'write_file', input: { path: 'prices.py', content: NEW_PRICES } },
      { name: 'write_file', input: { path: 'src/notes.md', content: 'notes\n'.repeat(200) } },
      { name: 'bash', input: { command: 'seq 1 20000' } },
    ],
  };
}

async function projectFiles(dir: string, prefix = ''): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    if (entry.isDirectory()) out.push(...(await projectFiles(join(dir, entry.name), `${prefix}${entry.name}/`)));
    else out.push(prefix + entry.name);
  }
  return out.sort();
}

/** Where a run is killed: a fault point, for one file's name or any, the nth time it is reached. */
const KILLS: readonly string[] = [
  'atomic.mid-write@prices.py',
  'atomic.before-rename@prices.py',
  'atomic.mid-write@notes.md',
  'atomic.before-rename@notes.md',
  'atomic.mid-write@off_0001.txt',
  'atomic.before-rename@off_0001.txt',
  ...[1, 2, 3, 4, 5, 6].map((n) => `atomic.mid-write#${n}`),
  ...[1, 2, 3, 4, 5, 6].map((n) => `atomic.before-rename#${n}`),
  ...[1, 2, 3].map((n) => `session.mid-append#${n}`),
];

describe('killed at chosen moments', () => {
  let fake: FakeProvider | undefined;
  let e: Sandbox | undefined;
  afterEach(async () => {
    await fake?.close();
    await e?.cleanup();
    fake = e = undefined;
  });

  it('leaves the project holding only old or new files, with no strays once the next run starts', async () => {
    fake = await startFakeProvider({ format: 'anthropic', replies });
    const killed: string[] = [];
    let strayBeforeRestart = 0;
    for (const spec of KILLS) {
      e = await makeEnv('anthropic', fake.baseUrl);
      const args = ['-p', 'tidy prices.py', '--allow', 'write', '--allow', 'bash'];
      const first = await run(cli(), { ...e, env: { ...e.env, LWYRM_FAULT_KILL: spec } }, args);
      if (first.signal === 'SIGKILL') killed.push(spec);
      else expect(first.status, `${spec}: ${first.stderr}`).toBe(0);

      const after = await projectFiles(e.project);
      // Only what was there and what the turn creates, plus the killed write's temp file.
      const strays = after.filter((f) => !['prices.py', 'src/notes.md'].includes(f));
      for (const stray of strays) expect(stray, spec).toMatch(/(^|\/)\.(prices\.py|notes\.md)\.lwyrm-\d+-\d+-[0-9a-f]+\.tmp$/);
      strayBeforeRestart += strays.length;
      expect([PRICES_PY, NEW_PRICES], spec).toContain(await readFile(join(e.project, 'prices.py'), 'utf8'));
      if (after.includes('src/notes.md')) expect(await readFile(join(e.project, 'src/notes.md'), 'utf8')).toBe('notes\n'.repeat(200));

      // The next run (resuming the killed one) sweeps what the killed one left, and starts.
      const next = await run(cli(), e, ['-c', '-p', 'carry on', '--allow', 'write', '--allow', 'bash']);
      expect(next.status, `${spec}: ${next.stderr}`).toBe(0);
      expect(next.stderr, spec).not.toMatch(/could not|corrupt|invalid/i);
      expect(await projectFiles(e.project), spec).toEqual(['prices.py', 'src/notes.md']);
      expect(await readFile(join(e.project, 'prices.py'), 'utf8')).toBe(NEW_PRICES);
      // No temp file of ours is left in lindwyrm's own folders either (sessions, offloads).
      const own = await projectFiles(join(e.root, 'data'));
      expect(own.filter((f) => /\.lwyrm-\d+-\d+-[0-9a-f]+\.tmp$/.test(f)), spec).toEqual([]);
      await e.cleanup();
      e = undefined;
    }
    // Every chosen moment was reached, and some of them did leave a temp file to clean.
    expect(killed).toEqual(KILLS);
    expect(strayBeforeRestart).toBeGreaterThan(0);
  });
});
