import { chmod, stat, symlink, utimes } from 'node:fs/promises';
import { realpathSync } from 'node:fs';
import { projectDirFor } from '../../src/sessions/layout.js';
import { join } from 'node:path';
import { mkdir } from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SessionLookupError } from '../../src/sessions/errors.js';
import { createSessionStore } from '../../src/sessions/session-store.js';
import type { SessionStore } from '../../src/sessions/types.js';
import { makeRecord, userText } from './support/records.js';
import { tempSetup, type TempSetup } from './support/temp.js';

let t: TempSetup;
let store: SessionStore;
beforeEach(async () => {
  t = await tempSetup();
  store = createSessionStore({ dir: t.sessionsDir, projectRoot: t.project });
});
afterEach(async () => {
  await store.close();
  await t.cleanup();
});

async function saveAt(id: string, createdAt: string, updatedAt: string, prompt = `prompt ${id}`): Promise<void> {
  await store.save(makeRecord(id, t.project, [userText(prompt)], { createdAt, updatedAt, firstPrompt: prompt }));
}

describe('finding sessions', () => {
  it('resolves a full id or a unique prefix', async () => {
    await saveAt('abc111', '2026-11-01T00:00:00Z', '2026-11-01T00:00:00Z');
    await saveAt('abd222', '2026-11-01T00:00:00Z', '2026-11-01T00:00:00Z');
    expect((await store.load('abc')).id).toBe('abc111');
    expect((await store.load('abd2')).id).toBe('abd222');
    expect((await store.load('abc111')).id).toBe('abc111');
  });

  it('lists the candidates when a prefix is ambiguous, as a usage error', async () => {
    await saveAt('abc111', '2026-11-01T00:00:00Z', '2026-11-01T00:00:00Z', 'first task');
    await saveAt('abc222', '2026-11-01T00:00:00Z', '2026-11-02T00:00:00Z', 'second task');
    await saveAt('ffff00', '2026-11-01T00:00:00Z', '2026-11-02T00:00:00Z');
    const error = await store.load('abc').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SessionLookupError);
    const lookup = error as SessionLookupError;
    expect(lookup.kind).toBe('ambiguous');
    expect(lookup.exitCode).toBe(2);
    expect(lookup.candidates.map((c) => c.id)).toEqual(['abc111', 'abc222']);
    expect(lookup.message).toContain('abc111');
    expect(lookup.message).toContain('second task');
  });

  it('reports an unknown id with the recent sessions, and rejects path-like ids', async () => {
    await saveAt('abc111', '2026-11-01T00:00:00Z', '2026-11-01T00:00:00Z');
    for (const query of ['zzz', '../abc111', 'abc111.meta.json', '']) {
      const error = (await store.load(query).catch((e: unknown) => e)) as SessionLookupError;
      expect(error).toBeInstanceOf(SessionLookupError);
      expect(error.kind).toBe('unknown');
      expect(error.candidates.map((c) => c.id)).toEqual(['abc111']);
    }
  });

  it('orders by last activity, not by start, and latest() follows it', async () => {
    await saveAt('a00001', '2026-11-01T08:00:00Z', '2026-11-05T18:00:00Z', 'all week');
    await saveAt('b00002', '2026-11-06T09:00:00Z', '2026-11-06T09:01:00Z', 'opened and abandoned');
    await saveAt('c00003', '2026-11-02T09:00:00Z', '2026-11-02T10:00:00Z');
    expect((await store.list()).sessions.map((s) => s.id)).toEqual(['b00002', 'a00001', 'c00003']);
    // Working in the week-long session again makes it the latest.
    await saveAt('a00001', '2026-11-01T08:00:00Z', '2026-11-07T12:00:00Z', 'all week');
    expect((await store.latest())?.id).toBe('a00001');
    const summary = (await store.list()).sessions[0]!;
    expect(summary).toEqual({ id: 'a00001', updatedAt: '2026-11-07T12:00:00Z', firstPrompt: 'all week', turns: 1, tokens: 36950, cost: 0.0123 });
  });

  it('latest() picks the newest of many by activity without reading every index', async () => {
    const folder = projectDirFor(t.sessionsDir, realpathSync(t.project));
    const hour = 3_600_000;
    const base = Date.now() - 200 * hour;
    // 60 sessions, each written when it was last active (its file as old as its updatedAt).
    for (let i = 0; i < 60; i++) {
      const at = new Date(base + i * hour);
      const id = `s${String(i).padStart(5, '0')}`;
      await saveAt(id, at.toISOString(), at.toISOString());
      await utimes(join(folder, `${id}.meta.json`), at, at);
      // Looser than 0600: an index that is read gets tightened, one left unread keeps its mode.
      await chmod(join(folder, `${id}.meta.json`), 0o644);
    }
    // The newest by activity was copied in long ago with its times kept; another was copied just now
    // (a new mtime) but last worked in before it.
    const newest = new Date(base + 100 * hour);
    await saveAt('zznewest', newest.toISOString(), newest.toISOString());
    await utimes(join(folder, 'zznewest.meta.json'), newest, newest);
    await saveAt('copied', new Date(base).toISOString(), new Date(base + 30 * hour).toISOString());
    const fresh = createSessionStore({ dir: t.sessionsDir, projectRoot: t.project });
    expect((await fresh.latest())?.id).toBe('zznewest');
    const mode = async (id: string) => (await stat(join(folder, `${id}.meta.json`))).mode & 0o777;
    // Only the indexes whose files could hold something newer were read.
    expect(await mode('s00059')).toBe(0o644);
    expect(await mode('s00000')).toBe(0o644);
    // list() still reads (and tightens) every one.
    await fresh.list();
    expect(await mode('s00000')).toBe(0o600);
    await fresh.close();
  });

  it('latest() takes the next newest when the newest cannot be loaded, and ties go by id', async () => {
    const folder = projectDirFor(t.sessionsDir, realpathSync(t.project));
    const at = new Date(Date.now() - 3_600_000).toISOString();
    await saveAt('bbb222', at, at);
    await saveAt('aaa111', at, at);
    await saveAt('older1', new Date(Date.now() - 7_200_000).toISOString(), new Date(Date.now() - 7_200_000).toISOString());
    expect((await createSessionStore({ dir: t.sessionsDir, projectRoot: t.project }).latest())?.id).toBe('aaa111');
    const { truncate } = await import('node:fs/promises');
    await truncate(join(folder, 'aaa111.1.jsonl'), 5);
    await truncate(join(folder, 'bbb222.1.jsonl'), 5);
    const notices: string[] = [];
    const fresh = createSessionStore({ dir: t.sessionsDir, projectRoot: t.project, onNotice: (l) => notices.push(l) });
    expect((await fresh.latest())?.id).toBe('older1');
    expect(notices.join('\n')).toMatch(/skipped .*aaa111\.1\.jsonl[\s\S]*bbb222\.1\.jsonl/);
    await fresh.close();
  });

  it('is scoped to the real path of the project', async () => {
    await saveAt('abc111', '2026-11-01T00:00:00Z', '2026-11-01T00:00:00Z');
    const link = join(t.root, 'link-to-project');
    await symlink(t.project, link);
    const viaLink = createSessionStore({ dir: t.sessionsDir, projectRoot: link });
    expect((await viaLink.list()).sessions.map((s) => s.id)).toEqual(['abc111']);

    const elsewhere = join(t.root, 'other-project');
    await mkdir(elsewhere);
    const other = createSessionStore({ dir: t.sessionsDir, projectRoot: elsewhere });
    expect(await other.list()).toEqual({ sessions: [], problems: [] });
    expect(await other.latest()).toBeUndefined();
    await expect(other.load('abc111')).rejects.toBeInstanceOf(SessionLookupError);
  });

  it('lists nothing and creates nothing when no session was ever saved', async () => {
    expect(await store.list()).toEqual({ sessions: [], problems: [] });
    const { existsSync } = await import('node:fs');
    expect(existsSync(t.sessionsDir)).toBe(false);
  });

  it('deletes a session with its offloads', async () => {
    const { mkdir: mk, writeFile } = await import('node:fs/promises');
    const { existsSync } = await import('node:fs');
    const withOffload = createSessionStore({ dir: t.sessionsDir, projectRoot: t.project, offloadDir: t.offloadDir });
    await withOffload.save(makeRecord('abc111', t.project, [userText('x')]));
    await mk(join(t.offloadDir, 'abc111'), { recursive: true });
    await writeFile(join(t.offloadDir, 'abc111', 'off_1.txt'), 'snapshot');
    await withOffload.delete('abc111');
    expect((await withOffload.list()).sessions).toEqual([]);
    expect(existsSync(join(t.offloadDir, 'abc111'))).toBe(false);
    await expect(withOffload.delete('abc111')).rejects.toBeInstanceOf(SessionLookupError);
  });
});

describe('savedSessionIds', () => {
  it('knows the sessions of every project, for the offload sweep', async () => {
    const { savedSessionIds } = await import('../../src/sessions/saved-ids.js');
    const elsewhere = join(t.root, 'other-project');
    await mkdir(elsewhere);
    await saveAt('abc111', '2026-11-01T00:00:00Z', '2026-11-01T00:00:00Z');
    const other = createSessionStore({ dir: t.sessionsDir, projectRoot: elsewhere });
    await other.save(makeRecord('fff999', elsewhere, [userText('x')]));
    await other.close();
    expect([...(await savedSessionIds(t.sessionsDir))].sort()).toEqual(['abc111', 'fff999']);
    expect(await savedSessionIds(join(t.root, 'missing'))).toEqual(new Set());
  });
});
