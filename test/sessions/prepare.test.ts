/**
 * A new session's first save readied while the input is idle (SessionStore.prepare): the folders
 * and the lock before any prompt, so the save before the first request only writes its files;
 * and the locks of sessions killed before they saved anything, swept once they are an hour old.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile, readdir, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SessionLockedError } from '../../src/sessions/errors.js';
import { createSessionStore } from '../../src/sessions/session-store.js';
import type { SessionStore } from '../../src/sessions/types.js';
import { makeRecord, userText } from './support/records.js';
import { tempSetup, type TempSetup } from './support/temp.js';

let t: TempSetup;
let store: SessionStore;
beforeEach(async () => {
  t = await tempSetup();
  store = createSessionStore({ dir: t.sessionsDir, projectRoot: t.project, offloadDir: t.offloadDir });
});
afterEach(async () => {
  await store.close();
  await t.cleanup();
});

const folder = async (): Promise<string> => join(t.sessionsDir, (await readdir(t.sessionsDir))[0]!);
const hoursAgo = (n: number): Date => new Date(Date.now() - n * 3_600_000);

describe('preparing a first save', () => {
  it('holds the lock before anything is saved, lists nothing, and saves and resumes as usual', async () => {
    await store.prepare('new001');
    const dir = await folder();
    expect(await readdir(dir)).toEqual(['new001.lock']);
    expect(JSON.parse(await readFile(join(dir, 'new001.lock'), 'utf8')).pid).toBe(process.pid);
    // Not a session yet: no index, nothing listed.
    expect((await store.list()).sessions).toEqual([]);
    const record = makeRecord('new001', t.project, [userText('the first prompt')], { codeMapText: 'the map' });
    // Saved without its fsyncs, as the save before a request is; then durably.
    await store.save(record, { durable: false });
    const loaded = await createSessionStore({ dir: t.sessionsDir, projectRoot: t.project }).load('new001');
    expect(loaded.messages).toStrictEqual(record.messages);
    expect(loaded.codeMapText).toBe('the map');
    const next = { ...record, messages: [...record.messages, userText('more')] };
    await store.save(next);
    const again = await createSessionStore({ dir: t.sessionsDir, projectRoot: t.project }).load('new001');
    expect(again.messages).toStrictEqual(next.messages);
    expect(again.codeMapText).toBe('the map');
    expect((await readdir(dir)).sort()).toEqual(['new001.1.jsonl', 'new001.lock', 'new001.map.json', 'new001.meta.json']);
  });

  it('lets the lock go when the session ends without a prompt', async () => {
    await store.prepare('idle01');
    await store.close();
    expect(await readdir(await folder())).toEqual([]);
  });

  it('never writes over an index that appeared before it took the lock', async () => {
    const first = createSessionStore({ dir: t.sessionsDir, projectRoot: t.project });
    await first.save(makeRecord('seen01', t.project, [userText('kept')]));
    await first.close();
    await store.prepare('seen01');
    // It knows the index is there: the save extends that session's files, never starts them anew.
    await writeFile(join(await folder(), 'seen01.meta.json'), '{');
    await expect(store.save(makeRecord('seen01', t.project, [userText('kept'), userText('x')]))).rejects.toThrow(/not saving over it/);
  });

  it('refuses a session a live process holds', async () => {
    const other = createSessionStore({ dir: t.sessionsDir, projectRoot: t.project });
    // A live owner that is not this process: a child that sleeps.
    const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 30000)'], { stdio: 'ignore' });
    try {
      await store.prepare('busy01');
      const dir = await folder();
      await store.close();
      await writeFile(join(dir, 'busy01.lock'), JSON.stringify({ pid: child.pid, host: 'h', start: null }));
      await expect(other.prepare('busy01')).rejects.toBeInstanceOf(SessionLockedError);
    } finally {
      child.kill('SIGKILL');
    }
  });
});

describe('sweeping the locks of sessions that never saved', () => {
  it('removes a lock with no index once it is an hour old and its owner is gone; keeps the rest', async () => {
    await store.save(makeRecord('live01', t.project, [userText('x')]));
    await store.unlock('live01');
    const dir = await folder();
    const dead = JSON.stringify({ pid: 2 ** 22 + 7, host: 'h', start: null });
    const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 30000)'], { stdio: 'ignore' });
    try {
      // Dead owners: old (goes), young (stays); beside an index (stays: the session's takeover
      // handles it); a live owner (stays), a lock we hold ourselves (stays).
      await writeFile(join(dir, 'gone01.lock'), dead);
      await writeFile(join(dir, 'young1.lock'), dead);
      await writeFile(join(dir, 'live01.lock'), dead);
      await writeFile(join(dir, 'other1.lock'), JSON.stringify({ pid: child.pid, host: 'h', start: null }));
      await store.prepare('mine01');
      for (const name of ['gone01.lock', 'live01.lock', 'other1.lock', 'mine01.lock']) await utimes(join(dir, name), hoursAgo(2), hoursAgo(2));
      await store.sweep(30);
      expect((await readdir(dir)).sort()).toEqual(['live01.1.jsonl', 'live01.lock', 'live01.meta.json', 'mine01.lock', 'other1.lock', 'young1.lock']);
      expect(existsSync(join(dir, 'gone01.lock'))).toBe(false);
    } finally {
      child.kill('SIGKILL');
    }
  });
});
