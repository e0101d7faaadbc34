import { readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SessionLockedError } from '../../src/sessions/errors.js';
import { createSessionStore } from '../../src/sessions/session-store.js';
import { killAndWait, startChild, waitForLine } from './support/child.js';
import { makeRecord, userText } from './support/records.js';
import { tempSetup, type TempSetup } from './support/temp.js';

let t: TempSetup;
beforeEach(async () => {
  t = await tempSetup();
});
afterEach(async () => {
  await t.cleanup();
});

describe('session locks across processes', () => {
  it('refuses a session a live process holds, and takes it over once that process is dead', async () => {
    const store = createSessionStore({ dir: t.sessionsDir, projectRoot: t.project });
    await store.save(makeRecord('held01', t.project, [userText('x')], { updatedAt: '2020-01-01T00:00:00Z' }));
    await store.close();

    const child = startChild('./hold-lock.ts', [t.sessionsDir, t.project, 'held01']);
    try {
      await waitForLine(child, (l) => l === 'locked');
      const error = (await store.lock('held01').catch((e: unknown) => e)) as SessionLockedError;
      expect(error).toBeInstanceOf(SessionLockedError);
      expect(error.pid).toBe(child.pid);
      expect(error.message).toContain(`pid ${child.pid}`);
      await expect(store.save(makeRecord('held01', t.project, [userText('y')]))).rejects.toBeInstanceOf(SessionLockedError);
      await expect(store.delete('held01')).rejects.toBeInstanceOf(SessionLockedError);
      // Long idle, but held: the sweep leaves it.
      expect((await store.sweep(30)).removed).toEqual([]);
    } finally {
      await killAndWait(child);
    }
    // The holder died without unlocking: its lock is stale and taken over.
    await store.lock('held01');
    await store.save(makeRecord('held01', t.project, [userText('y')]));
    expect((await store.load('held01')).messages).toStrictEqual([userText('y')]);
    await store.unlock('held01');
    const folder = join(t.sessionsDir, (await readdir(t.sessionsDir))[0]!);
    expect((await readdir(folder)).filter((n) => n.includes('lock'))).toEqual([]);
  }, 30_000);

  it('lets exactly one of several processes take over a stale lock at the same moment', async () => {
    const store = createSessionStore({ dir: t.sessionsDir, projectRoot: t.project });
    await store.save(makeRecord('race01', t.project, [userText('x')]));
    await store.close();
    const folder = join(t.sessionsDir, (await readdir(t.sessionsDir))[0]!);
    // A lock left by a process that no longer exists (pid beyond pid_max).
    await writeFile(join(folder, 'race01.lock'), JSON.stringify({ pid: 2 ** 22 + 7, host: 'h', start: null }));
    const children = [0, 1, 2].map(() => startChild('./race-lock.ts', [t.sessionsDir, t.project, 'race01'], 'pipe'));
    try {
      await Promise.all(children.map((c) => waitForLine(c, (l) => l === 'ready')));
      const outcomes = children.map((c) => waitForLine(c, (l) => l === 'won' || l === 'lost' || l.startsWith('error')));
      for (const c of children) c.stdin?.write('go\n');
      const results = await Promise.all(outcomes);
      expect(results.sort()).toEqual(['lost', 'lost', 'won']);
    } finally {
      await Promise.all(children.map(killAndWait));
    }
  }, 30_000);

  it('treats a garbled lock or a recycled pid as stale', async () => {
    const store = createSessionStore({ dir: t.sessionsDir, projectRoot: t.project });
    await store.save(makeRecord('gone01', t.project, [userText('x')]));
    await store.close();
    const folder = join(t.sessionsDir, (await readdir(t.sessionsDir))[0]!);
    await writeFile(join(folder, 'gone01.lock'), 'garbage');
    await store.lock('gone01');
    await store.close();
    // pid 1 is alive but started at another time than the lock says: not the owner.
    await writeFile(join(folder, 'gone01.lock'), JSON.stringify({ pid: 1, host: 'h', start: '-1' }));
    await store.lock('gone01');
    await store.close();
  });
});
