/**
 * The code map text of a session's prompt: kept in <id>.map.json beside the index (which stays
 * small for listings), written only when it changed, checked against the index's hash on load,
 * redacted like the rest, and removed with the session.
 */
import { createHash } from 'node:crypto';
import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Message } from '../../src/providers/types.js';
import { MAX_CODE_MAP_FILE_BYTES } from '../../src/sessions/code-map-file.js';
import { createSessionStore } from '../../src/sessions/session-store.js';
import { makeRecord, richTurn, userText } from './support/records.js';
import { tempSetup, type TempSetup } from './support/temp.js';

let t: TempSetup;
beforeEach(async () => {
  t = await tempSetup();
});
afterEach(async () => {
  await t.cleanup();
});

const MAP = 'src/prices.ts:\n  export function total(items: Item[]): number\n  export function priceOf(n: number): number\n'.repeat(200);

async function folder(): Promise<string> {
  const [project] = await readdir(t.sessionsDir);
  return join(t.sessionsDir, project!);
}

describe('a session record with its code map text', () => {
  it('round-trips the text byte for byte through its own file; the index holds only its hash', async () => {
    const store = createSessionStore({ dir: t.sessionsDir, projectRoot: t.project });
    const id = store.newId();
    const record = makeRecord(id, t.project, [userText('hello'), ...richTurn(1)], { codeMapText: MAP });
    await store.save(record);
    await store.close();

    const dir = await folder();
    const meta = await readFile(join(dir, `${id}.meta.json`), 'utf8');
    expect(meta).not.toContain('priceOf');
    expect(meta.length).toBeLessThan(MAP.length / 4);
    expect((await stat(join(dir, `${id}.map.json`))).mode & 0o777).toBe(0o600);

    const loaded = await createSessionStore({ dir: t.sessionsDir, projectRoot: t.project }).load(id);
    expect(loaded.codeMapText).toBe(MAP);
    expect(loaded).toStrictEqual(record);
  });

  it('writes the map file only when the text changed', async () => {
    const store = createSessionStore({ dir: t.sessionsDir, projectRoot: t.project });
    const id = store.newId();
    const messages: Message[] = [userText('hello')];
    await store.save(makeRecord(id, t.project, messages, { codeMapText: MAP }));
    const mapPath = join(await folder(), `${id}.map.json`);
    const first = await stat(mapPath);
    messages.push(...richTurn(1));
    await store.save(makeRecord(id, t.project, messages, { codeMapText: MAP }));
    // Same inode: not rewritten (an atomic write renames a new file over it).
    expect((await stat(mapPath)).ino).toBe(first.ino);
    await store.save(makeRecord(id, t.project, messages, { codeMapText: `${MAP}more\n` }));
    expect((await stat(mapPath)).ino).not.toBe(first.ino);
    await store.close();
    expect((await createSessionStore({ dir: t.sessionsDir, projectRoot: t.project }).load(id)).codeMapText).toBe(`${MAP}more\n`);
  });

  it('an empty text (a prompt without the map) is kept as such; a record without it has none', async () => {
    const store = createSessionStore({ dir: t.sessionsDir, projectRoot: t.project });
    const a = store.newId();
    await store.save(makeRecord(a, t.project, [userText('a')], { codeMapText: '' }));
    const b = store.newId();
    await store.save(makeRecord(b, t.project, [userText('b')]));
    await store.close();
    const other = createSessionStore({ dir: t.sessionsDir, projectRoot: t.project });
    expect((await other.load(a)).codeMapText).toBe('');
    expect(await other.load(b)).not.toHaveProperty('codeMapText');
    expect(await readdir(await folder())).not.toContain(`${b}.map.json`);
  });

  it('ignores a map file that does not match the index, and a missing one, and still loads the session', async () => {
    const store = createSessionStore({ dir: t.sessionsDir, projectRoot: t.project });
    const id = store.newId();
    await store.save(makeRecord(id, t.project, [userText('hello')], { codeMapText: MAP }));
    await store.close();
    const mapPath = join(await folder(), `${id}.map.json`);
    await writeFile(mapPath, JSON.stringify({ text: 'tampered' }), { mode: 0o600 });
    const loaded = await createSessionStore({ dir: t.sessionsDir, projectRoot: t.project }).load(id);
    expect(loaded).not.toHaveProperty('codeMapText');
    expect(loaded.messages).toHaveLength(1);
  });

  it('does not read a map file far larger than any map, even one the index names', async () => {
    const store = createSessionStore({ dir: t.sessionsDir, projectRoot: t.project });
    const id = store.newId();
    await store.save(makeRecord(id, t.project, [userText('hello')], { codeMapText: MAP }));
    await store.close();
    const dir = await folder();
    // A consistent pair, so only the size can refuse it.
    const data = `${JSON.stringify({ text: 'x'.repeat(MAX_CODE_MAP_FILE_BYTES) })}\n`;
    await writeFile(join(dir, `${id}.map.json`), data, { mode: 0o600 });
    const metaPath = join(dir, `${id}.meta.json`);
    const meta = JSON.parse(await readFile(metaPath, 'utf8')) as { codeMap: { sha256: string } };
    meta.codeMap.sha256 = createHash('sha256').update(data).digest('hex');
    await writeFile(metaPath, `${JSON.stringify(meta)}\n`, { mode: 0o600 });
    const loaded = await createSessionStore({ dir: t.sessionsDir, projectRoot: t.project }).load(id);
    expect(loaded).not.toHaveProperty('codeMapText');
    expect(loaded.messages).toHaveLength(1);
  });

  it('redacts secrets in the map text and removes the file with the session', async () => {
    const key = 'sk-live-abcdef0123456789abcdef';
    const store = createSessionStore({ dir: t.sessionsDir, projectRoot: t.project, secrets: [key] });
    const id = store.newId();
    await store.save(makeRecord(id, t.project, [userText('hello')], { codeMapText: `const KEY = "${key}";\n${MAP}` }));
    await store.unlock(id);
    const mapPath = join(await folder(), `${id}.map.json`);
    expect(await readFile(mapPath, 'utf8')).not.toContain(key);
    await store.delete(id);
    expect(await readdir(await folder())).toEqual([]);
  });
});
