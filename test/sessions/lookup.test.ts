import { symlink } from 'node:fs/promises';
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
