/**
 * A restore killed with SIGKILL halfway (the moment its journal is on disk): every file is either
 * as it was or restored, never half written; the next start of lwyrm (any start) finishes the
 * restore, and the rewind it recorded can itself be undone. Run `npm run build` first.
 */
import { watch } from 'node:fs';
import { mkdir, readdir, readFile, realpath, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { rewindDirFor } from '../../src/rewind/project-store.js';
import { JOURNAL_NAME } from '../../src/rewind/restore-journal.js';
import { startFakeProvider, type FakeProvider } from '../support/fake-provider.js';
import type { Sandbox } from '../support/sandbox.js';
import { makeEnv, run, start, useBuild } from './support/cli.js';

vi.setConfig({ testTimeout: 180_000 });

const cli = useBuild();
const FILES = 800;
const OLD = `old ${'o'.repeat(3000)}\n`;
const NEW = `new ${'n'.repeat(1000)}\n`;

const name = (i: number): string => `f${String(i).padStart(4, '0')}.txt`;

async function contents(project: string): Promise<string[]> {
  const out: string[] = [];
  for (let i = 0; i < FILES; i++) out.push(await readFile(join(project, 'data', name(i)), 'utf8'));
  return out;
}

/** Resolves when `file` appears in `dir` (created or renamed in). */
function appears(dir: string, file: string): Promise<void> {
  return new Promise((resolve) => {
    const watcher = watch(dir, (_event, changed) => {
      if (changed !== file) return;
      watcher.close();
      resolve();
    });
  });
}

describe('a restore killed halfway', () => {
  let fake: FakeProvider | undefined;
  let e: Sandbox | undefined;

  afterEach(async () => {
    await fake?.close();
    await e?.cleanup();
    fake = e = undefined;
  });

  it('leaves each file old or new, and the next start finishes it', async () => {
    fake = await startFakeProvider({
      format: 'anthropic',
      replies: [
        { toolCalls: [{ name: 'bash', input: { command: `cd data && s=$(printf 'n%.0s' $(seq 1000)) && for f in f*.txt; do printf 'new %s\\n' "$s" > "$f"; done` } }] },
        { text: 'Rewrote them all.' },
        { text: 'Hello again.' },
      ],
    });
    e = await makeEnv('anthropic', fake.baseUrl);
    const env = e;
    await mkdir(join(env.project, 'data'));
    for (let i = 0; i < FILES; i++) await writeFile(join(env.project, 'data', name(i)), OLD);

    const turn = await run(cli(), env, ['-p', 'rewrite the data files', '--allow', 'bash', '--json']);
    expect(turn.status, turn.stderr).toBe(0);
    const sessionId = (JSON.parse(turn.stdout) as { session_id: string }).session_id;
    expect(new Set(await contents(env.project))).toEqual(new Set([NEW]));

    const store = rewindDirFor(join(env.env['XDG_DATA_HOME'] as string, 'lindwyrm'), await realpath(env.project));
    const journalWritten = appears(store, JOURNAL_NAME);
    const rewinding = start(cli(), env, ['--rewind']);
    await journalWritten;
    rewinding.child.kill('SIGKILL');
    expect((await rewinding.done).signal).toBe('SIGKILL');

    // Killed mid-restore: the journal is still there, and no file is half written.
    expect((await readdir(store)).includes(JOURNAL_NAME)).toBe(true);
    const halfway = await contents(env.project);
    for (const text of halfway) expect([OLD, NEW]).toContain(text);

    // Any start finishes it: here a one-shot prompt in a new session.
    const next = await run(cli(), env, ['-p', 'hello']);
    expect(next.status, next.stderr).toBe(0);
    expect(next.stderr).toMatch(/Finished a restore that was cut short \(rewind to 1/);
    expect(new Set(await contents(env.project))).toEqual(new Set([OLD]));
    expect((await readdir(store)).includes(JOURNAL_NAME)).toBe(false);
    expect((await readdir(join(env.project, 'data'))).filter((n) => n.includes('lwyrm-rewind'))).toEqual([]);

    // The finished rewind was recorded as checkpoint 2 of the first session: going back to it redoes the turn.
    const redo = await run(cli(), env, ['--rewind', '2', '--resume', sessionId]);
    expect(redo.status, redo.stderr).toBe(0);
    expect(new Set(await contents(env.project))).toEqual(new Set([NEW]));
  });
});
