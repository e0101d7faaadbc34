import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createSessionStore } from '../../src/sessions/session-store.js';
import { REDACTED } from '../../src/secrets/redact.js';
import { makeRecord, richTurn, userText } from './support/records.js';
import { tempSetup, type TempSetup } from './support/temp.js';

let t: TempSetup;
beforeEach(async () => {
  t = await tempSetup();
});
afterEach(async () => {
  await t.cleanup();
});

async function everythingOnDisk(): Promise<string> {
  const folder = join(t.sessionsDir, (await readdir(t.sessionsDir))[0]!);
  const names = await readdir(folder);
  return (await Promise.all(names.map((n) => readFile(join(folder, n), 'utf8')))).join('\n');
}

describe('secret guard', () => {
  it('never writes an API key, a header value or a proxy credential', async () => {
    const apiKey = 'sk-test-4f9a8b7c6d5e4f3a2b1c';
    const quoted = 'tok"with\\quote\nand-newline';
    const proxy = 'http://alice:pr%40xyPass99@proxy.local:3128';
    const notices: string[] = [];
    const store = createSessionStore({ dir: t.sessionsDir, projectRoot: t.project, secrets: [apiKey, quoted, proxy, ''], onNotice: (l) => notices.push(l) });
    const messages = [
      userText(`my key is ${apiKey}, please debug`),
      ...richTurn(1),
      {
        role: 'user' as const,
        content: [{ type: 'tool_result' as const, toolUseId: 'x', content: `env: AUTH=${quoted}\nproxy pass pr@xyPass99 via ${proxy}` }],
      },
    ];
    const record = makeRecord('sec001', t.project, messages, { firstPrompt: `use ${apiKey}` });
    await store.save(record);
    await store.save({ ...record, messages: [...messages, userText(`again ${apiKey}`)] });

    const disk = await everythingOnDisk();
    for (const leaked of [apiKey, JSON.stringify(quoted).slice(1, -1), 'pr@xyPass99', 'pr%40xyPass99']) expect(disk).not.toContain(leaked);
    expect(notices.some((n) => n.includes('redacted'))).toBe(true);

    const loaded = await createSessionStore({ dir: t.sessionsDir, projectRoot: t.project }).load('sec001');
    expect(loaded.firstPrompt).toBe(`use ${REDACTED}`);
    expect(loaded.messages[0]).toEqual(userText(`my key is ${REDACTED}, please debug`));
    expect(loaded.messages.at(-1)).toEqual(userText(`again ${REDACTED}`));
    // Everything else is untouched.
    expect(loaded.messages.slice(1, 3)).toStrictEqual(richTurn(1));
  });

  it('asks a secrets function at every save, for keys resolved after the store was made', async () => {
    const secrets: string[] = [];
    const store = createSessionStore({ dir: t.sessionsDir, projectRoot: t.project, secrets: () => secrets });
    await store.save(makeRecord('sec003', t.project, [userText('nothing secret yet')]));
    secrets.push('late-resolved-key-123');
    await store.save(makeRecord('sec003', t.project, [userText('nothing secret yet'), userText('key late-resolved-key-123')]));
    expect(await everythingOnDisk()).not.toContain('late-resolved-key-123');
  });

  it('leaves text alone when it only looks like a secret across a JSON escape', async () => {
    const store = createSessionStore({ dir: t.sessionsDir, projectRoot: t.project, secrets: ['nsecret1'] });
    const record = makeRecord('sec002', t.project, [userText('line\nsecret1 is not the key')]);
    await store.save(record);
    expect((await createSessionStore({ dir: t.sessionsDir, projectRoot: t.project }).load('sec002')).messages).toStrictEqual(record.messages);
  });
});
