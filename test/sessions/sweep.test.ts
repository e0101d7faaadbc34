import { existsSync } from 'node:fs';
import { mkdir, readFile, readdir, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { realProjectRoot } from '../../src/sessions/layout.js';
import { createSessionStore } from '../../src/sessions/session-store.js';
import { sweepProject } from '../../src/sessions/sweep.js';
import type { SessionStore } from '../../src/sessions/types.js';
import { makeRecord, userText } from './support/records.js';
import { tempSetup, type TempSetup } from './support/temp.js';

const DAY = 86_400_000;
const daysAgo = (n: number): string => new Date(Date.now() - n * DAY).toISOString();

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

async function saveIdle(id: string, days: number): Promise<void> {
  await store.save(makeRecord(id, t.project, [userText(id)], { updatedAt: daysAgo(days) }));
  await store.unlock(id);
  await mkdir(join(t.offloadDir, id), { recursive: true });
  await writeFile(join(t.offloadDir, id, 'off_1.txt'), 'snapshot');
}

describe('sweep', () => {
  it('removes sessions idle past the retention with their offloads, never the resumed one', async () => {
    await saveIdle('old001', 45);
    await saveIdle('old002', 31);
    await saveIdle('resume', 60);
    await saveIdle('new001', 2);
    const folder = join(t.sessionsDir, (await readdir(t.sessionsDir))[0]!);
    await writeFile(join(folder, 'bad001.meta.json'), '{');

    const result = await store.sweep(30, 'resume');
    expect([...result.removed].sort()).toEqual(['old001', 'old002']);
    expect(result.problems).toHaveLength(1);
    expect(result.problems[0]).toContain('bad001.meta.json');
    expect((await store.list()).sessions.map((s) => s.id)).toEqual(['new001', 'resume']);
    expect(existsSync(join(t.offloadDir, 'old001'))).toBe(false);
    expect(existsSync(join(t.offloadDir, 'resume'))).toBe(true);
    expect(existsSync(join(folder, 'bad001.meta.json'))).toBe(true);
    expect((await readdir(folder)).filter((n) => n.startsWith('old'))).toEqual([]);
  });

  it('never removes the session this process holds, and keeps everything when retention is off', async () => {
    await store.save(makeRecord('mine01', t.project, [userText('x')], { updatedAt: daysAgo(90) }));
    expect((await store.sweep(30)).removed).toEqual([]);
    await store.unlock('mine01');
    expect((await store.sweep(0)).removed).toEqual([]);
    expect((await store.sweep(30)).removed).toEqual(['mine01']);
  });

  it('holds the session lock while removing it, so a process resuming it meanwhile is refused', async () => {
    await saveIdle('old003', 40);
    const folder = join(t.sessionsDir, (await readdir(t.sessionsDir))[0]!);
    const owners: unknown[] = [];
    const result = await sweepProject({
      projectDir: folder,
      projectRoot: realProjectRoot(t.project),
      retentionDays: 30,
      held: new Set(),
      notice: () => {},
      removeFiles: async (id) => {
        owners.push(JSON.parse(await readFile(join(folder, `${id}.lock`), 'utf8')).pid);
      },
    });
    expect(result.removed).toEqual(['old003']);
    expect(owners).toEqual([process.pid]);
  });

  it('clears leftovers of interrupted writes once they are an hour old', async () => {
    await store.save(makeRecord('live01', t.project, [userText('x')], { codeMapText: 'map' }));
    const folder = join(t.sessionsDir, (await readdir(t.sessionsDir))[0]!);
    const leftovers = ['.live01.meta.json.tmp-1-abcd', 'live01.7.jsonl', 'gone01.1.jsonl', 'gone01.map.json'];
    for (const name of leftovers) await writeFile(join(folder, name), 'partial');
    await writeFile(join(folder, '.fresh.meta.json.tmp-2-abcd'), 'being written right now');
    await writeFile(join(folder, 'fresh1.map.json'), 'its index is being written right now');
    const old = new Date(Date.now() - 2 * 3_600_000);
    for (const name of [...leftovers, 'live01.map.json']) await utimes(join(folder, name), old, old);
    await store.sweep(30);
    expect((await readdir(folder)).sort()).toEqual([
      '.fresh.meta.json.tmp-2-abcd',
      'fresh1.map.json',
      'live01.1.jsonl',
      'live01.lock',
      'live01.map.json',
      'live01.meta.json',
    ]);
  });
});
