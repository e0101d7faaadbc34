/**
 * A message of many megabytes is written in pieces (session-writer.ts), never as one string of its
 * JSON: the history line must still be exactly JSON.stringify's, load back equal, keep appending
 * after it, survive a rewrite of the whole history, and have its secrets redacted.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createSessionStore } from '../../src/sessions/session-store.js';
import type { AssistantMessage, Message } from '../../src/providers/types.js';
import { REDACTED } from '../../src/secrets/redact.js';
import { makeRecord, summaryMessage, userText } from './support/records.js';
import { tempSetup, type TempSetup } from './support/temp.js';

let t: TempSetup;
beforeEach(async () => {
  t = await tempSetup();
});
afterEach(async () => {
  await t.cleanup();
});

/** ~3 MB with quotes, escapes, non-ASCII text and surrogate pairs on every line. */
const LINE = 'const s = "quoted \\ back"; // Σ prix — 🐉 ok\t\u2028\n';
const BIG = LINE.repeat(Math.ceil(3_000_000 / LINE.length));

function bigReply(text: string): AssistantMessage {
  return {
    role: 'assistant',
    content: [
      { type: 'text', text },
      { type: 'tool_use', id: 'toolu_1', name: 'write_file', input: { path: 'big.txt', content: text } },
    ],
  };
}

async function historyLines(): Promise<string[]> {
  const [folder] = await readdir(t.sessionsDir);
  const dir = join(t.sessionsDir, folder!);
  const names = (await readdir(dir)).filter((n) => n.endsWith('.jsonl'));
  expect(names).toHaveLength(1);
  return (await readFile(join(dir, names[0]!), 'utf8')).split('\n').slice(0, -1);
}

describe('a message of many megabytes in the session', () => {
  it('is written as JSON.stringify writes it, loads back equal and is appended after', async () => {
    const store = createSessionStore({ dir: t.sessionsDir, projectRoot: t.project });
    const id = store.newId();
    const messages: Message[] = [userText('write it out'), bigReply(BIG)];
    await store.save(makeRecord(id, t.project, messages));
    messages.push(userText('and again'));
    await store.save(makeRecord(id, t.project, messages));
    expect(await historyLines()).toEqual(messages.map((m) => JSON.stringify(m)));
    await store.close();

    const other = createSessionStore({ dir: t.sessionsDir, projectRoot: t.project });
    const loaded = await other.load(id);
    expect(loaded.messages).toStrictEqual(messages);
    // Resumed: the next save appends after the loaded lines (their digests match the pieces').
    const more = [...loaded.messages, bigReply(`${BIG}tail`)];
    await other.save({ ...loaded, messages: more });
    // A summary replaces the start: the whole history is written again, big lines included.
    const rewritten = [summaryMessage(), ...more.slice(1)];
    await other.save({ ...loaded, messages: rewritten });
    expect(await historyLines()).toEqual(rewritten.map((m) => JSON.stringify(m)));
    await other.close();
    const third = createSessionStore({ dir: t.sessionsDir, projectRoot: t.project });
    expect((await third.load(id)).messages).toStrictEqual(rewritten);
    await third.close();
  });

  it('has its secrets redacted like any other message', async () => {
    const key = 'sk-test-0123456789abcdef';
    const notices: string[] = [];
    const store = createSessionStore({ dir: t.sessionsDir, projectRoot: t.project, secrets: [key], onNotice: (l) => notices.push(l) });
    const id = store.newId();
    const text = `${BIG}the key is ${key}.\n${BIG}`;
    await store.save(makeRecord(id, t.project, [userText('go'), bigReply(text)]));
    await store.close();
    const [, line] = await historyLines();
    expect(line).not.toContain(key);
    const clean = text.split(key).join(REDACTED);
    expect(line).toBe(JSON.stringify(bigReply(clean)));
    expect(notices.join('\n')).toMatch(/redacted 2 occurrence/);
  });
});
