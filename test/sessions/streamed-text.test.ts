/**
 * The running turn's streamed text beside the index (<id>.streamed): appended, read back into
 * the record's unfinished-turn note on load, ignored when it belongs to another turn, redacted
 * even when a secret arrives split across two appends; and a history line of megabytes whose
 * characters straddle the writer's slices round-trips.
 */
import { appendFile, mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createSessionStore } from '../../src/sessions/session-store.js';
import type { SessionRecord } from '../../src/sessions/types.js';
import { makeRecord, userText } from './support/records.js';

const SECRET = 'sk-live-0123456789abcdef';
let root: string | undefined;
afterEach(async () => {
  if (root) await rm(root, { recursive: true, force: true });
  root = undefined;
});

async function setup() {
  root = await mkdtemp(join(tmpdir(), 'lw-streamed-'));
  const store = createSessionStore({ dir: join(root, 'sessions'), projectRoot: root, secrets: [SECRET] });
  const id = store.newId();
  const turn = { startedAt: '2026-12-01T10:00:00.000Z', afterMessages: 1 };
  const record: SessionRecord = { ...makeRecord(id, root, [userText('explain')]), unfinishedTurn: { ...turn, streamed: '' } };
  await store.save(record);
  return { store, id, turn, record, dir: join(root, 'sessions') };
}

async function filesNamed(dir: string, suffix: string): Promise<string[]> {
  return (await readdir(dir, { recursive: true })).map(String).filter((n) => n.endsWith(suffix)).map((n) => join(dir, n));
}

describe('streamed text of the running turn', () => {
  it('is appended beside a small index and read back on load, secrets redacted across appends', async () => {
    const { store, id, turn, dir } = await setup();
    await store.appendStreamed(id, turn, 'First part, key sk-live-0123');
    await store.appendStreamed(id, turn, '456789abcdef and more.\n'.repeat(1));
    await store.appendStreamed(id, turn, 'x'.repeat(200_000));
    const [meta] = await filesNamed(dir, '.meta.json');
    expect((await readFile(meta!, 'utf8')).length).toBeLessThan(5_000);
    const [file] = await filesNamed(dir, '.streamed');
    expect(await readFile(file!, 'utf8')).not.toContain('0123456789abcdef');
    await store.close();

    const other = createSessionStore({ dir, projectRoot: root!, secrets: [SECRET] });
    const loaded = await other.load(id);
    // The last characters wait for the next append in case a secret starts there; a kill loses them.
    const streamed = loaded.unfinishedTurn?.streamed ?? '';
    expect(streamed.startsWith('First part, key [REDACTED] and more.\n')).toBe(true);
    expect(streamed.length).toBeGreaterThan(200_000 - SECRET.length);
    await other.close();
  });

  it('taken as chunks (never joined), reads back the same text, a secret and a pair split across chunks', async () => {
    const { store, id, turn, dir } = await setup();
    const big = 'z'.repeat(40_000);
    // A secret across two chunks, and a surrogate pair whose halves are in two chunks.
    const chunks = [`${big} key sk-live-0123`, `456789abcdef ${big}\ud83d`, `\udc09 ok ${big}`, 'tail'];
    await store.appendStreamed(id, turn, chunks);
    await store.appendStreamed(id, turn, [' and', ` more ${'w'.repeat(300_000)}`]);
    const [file] = await filesNamed(dir, '.streamed');
    expect(await readFile(file!, 'utf8')).not.toContain('0123456789abcdef');
    await store.close();
    const loaded = await createSessionStore({ dir, projectRoot: root!, secrets: [SECRET] }).load(id);
    const whole = [...chunks, ' and', ` more ${'w'.repeat(300_000)}`].join('').replace(SECRET, '[REDACTED]');
    const streamed = loaded.unfinishedTurn?.streamed ?? '';
    // All but the last few characters, held back in case a secret starts there.
    expect(streamed.length).toBeGreaterThan(whole.length - SECRET.length);
    expect(whole.startsWith(streamed)).toBe(true);
    expect(streamed).toContain('🐉 ok');
  });

  it('belongs to its turn: another turn, or a torn last line, is not taken', async () => {
    const { store, id, turn, dir, record } = await setup();
    await store.appendStreamed(id, turn, 'old turn text that a safe point settled');
    // The next safe point: the index names a later point of the history.
    const later = { startedAt: turn.startedAt, afterMessages: 3 };
    await store.save({ ...record, messages: [...record.messages, userText('more'), userText('again')], unfinishedTurn: { ...later, streamed: '' } });
    expect((await createSessionStore({ dir, projectRoot: root! }).load(id)).unfinishedTurn?.streamed).toBe('');

    await store.appendStreamed(id, later, `new text ${'y'.repeat(100)}`);
    const [file] = await filesNamed(dir, '.streamed');
    await appendFile(file!, '"cut off by a ki');
    expect((await createSessionStore({ dir, projectRoot: root! }).load(id)).unfinishedTurn?.streamed).toMatch(/^new text y+$/);
    await store.clearStreamed(id);
    expect(await filesNamed(dir, '.streamed')).toEqual([]);
    await store.close();
  });

  it('a history line of megabytes round-trips, its characters across the slices it is written in', async () => {
    const { store, id, record, dir } = await setup();
    const text = '🐉é\u2028"'.repeat(700_000);
    const messages = [...record.messages, { role: 'assistant' as const, content: [{ type: 'text' as const, text }] }];
    await store.save({ ...record, messages, unfinishedTurn: undefined });
    await store.save({ ...record, messages: [...messages, userText('next')], unfinishedTurn: undefined });
    await store.close();
    const loaded = await createSessionStore({ dir, projectRoot: root! }).load(id);
    expect(loaded.messages).toEqual([...messages, userText('next')]);
  });
});
