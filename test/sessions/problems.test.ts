import { chmod, mkdir, readdir, readFile, stat, truncate, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SessionFileError } from '../../src/sessions/errors.js';
import { createSessionStore } from '../../src/sessions/session-store.js';
import type { SessionStore } from '../../src/sessions/types.js';
import { makeRecord, richTurn, userText } from './support/records.js';
import { tempSetup, type TempSetup } from './support/temp.js';

let t: TempSetup;
let store: SessionStore;
let folder: string;
beforeEach(async () => {
  t = await tempSetup();
  store = createSessionStore({ dir: t.sessionsDir, projectRoot: t.project });
  await store.save(makeRecord('good01', t.project, [userText('fine')], { updatedAt: '2026-11-01T00:00:00Z' }));
  folder = join(t.sessionsDir, (await readdir(t.sessionsDir))[0]!);
});
afterEach(async () => {
  await store.close();
  await t.cleanup();
});

describe('bad session files', () => {
  it('reports corrupt, newer-format and unreadable index files by name and skips them', async () => {
    await writeFile(join(folder, 'bad001.meta.json'), '{"format":"lindwyrm-session", trunc');
    const newer = JSON.parse(await readFile(join(folder, 'good01.meta.json'), 'utf8'));
    newer.formatVersion = 99;
    newer.record.id = 'new001';
    await writeFile(join(folder, 'new001.meta.json'), JSON.stringify(newer));
    await mkdir(join(folder, 'dir001.meta.json')); // exists, cannot be read as a file
    await chmod(join(folder, 'dir001.meta.json'), 0o755);

    const { sessions, problems } = await store.list();
    expect(sessions.map((s) => s.id)).toEqual(['good01']);
    expect(problems).toHaveLength(3);
    expect(problems.find((p) => p.includes('bad001.meta.json'))).toMatch(/corrupt: not valid JSON/);
    expect(problems.find((p) => p.includes('new001.meta.json'))).toMatch(/newer lindwyrm \(session format 99/);
    expect(problems.find((p) => p.includes('dir001.meta.json'))).toMatch(/cannot read: not a regular file/);
    // Reported, not "repaired": a folder is never chmodded to a file's mode.
    expect((await stat(join(folder, 'dir001.meta.json'))).mode & 0o777).toBe(0o755);
    expect((await store.latest())?.id).toBe('good01');
  });

  it('refuses to save over an index it cannot read, leaving it byte for byte', async () => {
    const garbage = 'not json at all';
    await writeFile(join(folder, 'bad001.meta.json'), garbage);
    const error = await store.save(makeRecord('bad001', t.project, [userText('x')])).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SessionFileError);
    expect((error as Error).message).toMatch(/bad001\.meta\.json: corrupt.*not saving over it/);
    expect(await readFile(join(folder, 'bad001.meta.json'), 'utf8')).toBe(garbage);
  });

  it('names a damaged history on load, and latest() falls back to a readable session', async () => {
    await store.save(makeRecord('hist01', t.project, [userText('a'), ...richTurn(1)], { updatedAt: '2026-11-02T00:00:00Z' }));
    await truncate(join(folder, 'hist01.1.jsonl'), 50);
    const error = await createSessionStore({ dir: t.sessionsDir, projectRoot: t.project }).load('hist01').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SessionFileError);
    expect((error as SessionFileError).file).toBe(join(folder, 'hist01.1.jsonl'));
    expect((error as Error).message).toMatch(/shorter than its index says/);
    const notices: string[] = [];
    const fresh = createSessionStore({ dir: t.sessionsDir, projectRoot: t.project, onNotice: (l) => notices.push(l) });
    expect((await fresh.latest())?.id).toBe('good01');
    expect(notices.join('\n')).toContain('hist01.1.jsonl');
  });

  it('rejects an index whose fields are wrong or that points at another project', async () => {
    const meta = JSON.parse(await readFile(join(folder, 'good01.meta.json'), 'utf8'));
    await writeFile(join(folder, 'typo01.meta.json'), JSON.stringify({ ...meta, record: { ...meta.record, id: 'typo01', turns: 'many' } }));
    await writeFile(join(folder, 'else01.meta.json'), JSON.stringify({ ...meta, projectRoot: '/elsewhere', record: { ...meta.record, id: 'else01' } }));
    const { problems } = await store.list();
    expect(problems.find((p) => p.includes('typo01'))).toMatch(/record\.turns is not a count/);
    expect(problems.find((p) => p.includes('else01'))).toMatch(/belongs to another project/);
  });

  it('ignores a history tail that was never committed (an append cut short)', async () => {
    const messages = [userText('a'), ...richTurn(1)];
    await store.save(makeRecord('tail01', t.project, messages));
    const { appendFile } = await import('node:fs/promises');
    await appendFile(join(folder, 'tail01.1.jsonl'), '{"role":"assistant","content":[{"type":"te');
    const resumed = createSessionStore({ dir: t.sessionsDir, projectRoot: t.project });
    await resumed.lock('tail01').catch(() => undefined);
    expect((await resumed.load('tail01')).messages).toStrictEqual(messages);
    // The original writer, still holding it, appends after the committed end.
    const more = [...messages, userText('b')];
    await store.save(makeRecord('tail01', t.project, more));
    expect((await createSessionStore({ dir: t.sessionsDir, projectRoot: t.project }).load('tail01')).messages).toStrictEqual(more);
  });
});
