import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createSessionStore } from '../../src/sessions/session-store.js';
import type { Message } from '../../src/providers/types.js';
import { makeRecord, richTurn, summaryMessage, userText } from './support/records.js';
import { tempSetup, type TempSetup } from './support/temp.js';

let t: TempSetup;
beforeEach(async () => {
  t = await tempSetup();
});
afterEach(async () => {
  await t.cleanup();
});

async function projectFiles(): Promise<string[]> {
  const [folder] = await readdir(t.sessionsDir);
  return (await readdir(join(t.sessionsDir, folder!))).sort();
}

describe('session round-trip', () => {
  it('loads every block kind back deep-equal and re-serializes byte for byte', async () => {
    const store = createSessionStore({ dir: t.sessionsDir, projectRoot: t.project });
    const id = store.newId();
    const messages: Message[] = [userText('fix the rounding in prices.py'), ...richTurn(1), summaryMessage(), ...richTurn(2)];
    const record = makeRecord(id, t.project, messages, { cost: null, marker: 'lw-0123456789abcdef' });
    await store.save(record);
    await store.close();

    const other = createSessionStore({ dir: t.sessionsDir, projectRoot: t.project });
    const loaded = await other.load(id);
    expect(loaded).toStrictEqual(record);
    expect(JSON.stringify(loaded)).toBe(JSON.stringify(record));
  });

  it('appends a growing history in place and rewrites it whole after a summary', async () => {
    const store = createSessionStore({ dir: t.sessionsDir, projectRoot: t.project });
    const id = store.newId();
    let messages: Message[] = [userText('first')];
    await store.save(makeRecord(id, t.project, messages));
    const historyFile = (await projectFiles()).find((n) => n.endsWith('.jsonl'))!;
    expect(historyFile).toBe(`${id}.1.jsonl`);
    const dir = join(t.sessionsDir, (await readdir(t.sessionsDir))[0]!);
    const firstBytes = await readFile(join(dir, historyFile));

    for (let turn = 1; turn <= 3; turn++) {
      messages = [...messages, ...richTurn(turn)];
      await store.save(makeRecord(id, t.project, messages, { updatedAt: `2026-11-01T10:0${turn}:00.000Z` }));
      const again = createSessionStore({ dir: t.sessionsDir, projectRoot: t.project });
      expect(JSON.stringify(await again.load(id))).toBe(JSON.stringify(makeRecord(id, t.project, messages, { updatedAt: `2026-11-01T10:0${turn}:00.000Z` })));
    }
    // Appended: the same generation, whose start is untouched.
    const grown = await readFile(join(dir, historyFile));
    expect(grown.subarray(0, firstBytes.length).equals(firstBytes)).toBe(true);
    expect(grown.length).toBeGreaterThan(firstBytes.length);

    // A summary replaces the older turns: a new generation, the old one removed.
    const compacted = [summaryMessage(), ...messages.slice(-2)];
    await store.save(makeRecord(id, t.project, compacted));
    expect(await projectFiles()).toEqual([`${id}.2.jsonl`, `${id}.lock`, `${id}.meta.json`]);
    const reloaded = await createSessionStore({ dir: t.sessionsDir, projectRoot: t.project }).load(id);
    expect(reloaded.messages).toStrictEqual(compacted);
  });

  it('keeps appending after a resume in a new process-like store', async () => {
    const first = createSessionStore({ dir: t.sessionsDir, projectRoot: t.project });
    const id = first.newId();
    const base = [userText('hello'), ...richTurn(1)];
    await first.save(makeRecord(id, t.project, base));
    await first.close();

    const second = createSessionStore({ dir: t.sessionsDir, projectRoot: t.project });
    await second.lock(id);
    const resumed = await second.load(id);
    const next = [...resumed.messages, userText('and now the tests'), ...richTurn(2)];
    await second.save({ ...resumed, messages: next, turns: resumed.turns + 1 });
    // Still generation 1: the resumed prefix was recognised and only the new turn was written.
    expect((await projectFiles()).filter((n) => n.endsWith('.jsonl'))).toEqual([`${id}.1.jsonl`]);
    const third = createSessionStore({ dir: t.sessionsDir, projectRoot: t.project });
    expect((await third.load(id)).messages).toStrictEqual(next);
  });

  it('saves correctly when the caller keeps pushing onto the array it saved (the live history)', async () => {
    const store = createSessionStore({ dir: t.sessionsDir, projectRoot: t.project });
    const id = store.newId();
    const history: Message[] = [userText('one')];
    await store.save(makeRecord(id, t.project, history));
    history.push(...richTurn(1));
    await store.save(makeRecord(id, t.project, history));
    history.splice(0, history.length, summaryMessage(), userText('two'));
    await store.save(makeRecord(id, t.project, history));
    history.push(userText('three'));
    await store.save(makeRecord(id, t.project, history));
    const loaded = await createSessionStore({ dir: t.sessionsDir, projectRoot: t.project }).load(id);
    expect(loaded.messages).toStrictEqual([summaryMessage(), userText('two'), userText('three')]);
  });

  it('writes 0600 files in 0700 folders', async () => {
    const store = createSessionStore({ dir: t.sessionsDir, projectRoot: t.project });
    const id = store.newId();
    await store.save(makeRecord(id, t.project, [userText('x')]));
    const folder = join(t.sessionsDir, (await readdir(t.sessionsDir))[0]!);
    expect((await stat(t.sessionsDir)).mode & 0o777).toBe(0o700);
    expect((await stat(folder)).mode & 0o777).toBe(0o700);
    for (const name of await readdir(folder)) {
      expect({ name, mode: (await stat(join(folder, name))).mode & 0o777 }).toEqual({ name, mode: 0o600 });
    }
  });
});
