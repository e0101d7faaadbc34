/**
 * What a session leaves on disk, through the engine: no key or proxy credential ever, the store's
 * later notices reach the transcript, and old sessions are swept once the first request is out,
 * except the resumed one.
 */
import { realpathSync } from 'node:fs';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import type { LindwyrmEngine } from '../../src/agent/engine.js';
import { createSessionStore } from '../../src/sessions/session-store.js';
import { startFakeProvider, type FakeProvider } from '../support/fake-provider.js';
import { makeRecord, userText } from '../sessions/support/records.js';
import { makeSandbox, noteTool, startEngine, type Sandbox } from './support/harness.js';

let fake: FakeProvider | undefined;
let sandbox: Sandbox | undefined;
let engine: LindwyrmEngine | undefined;
afterEach(async () => {
  await engine?.dispose();
  await fake?.close();
  await sandbox?.cleanup();
  engine = fake = sandbox = undefined;
});

/** Every file under the data dir (sessions, offloads, rewind checkpoints), as one text; gzipped ones unpacked. */
async function dataOnDisk(root: string): Promise<string> {
  const dir = join(root, 'data');
  const names = (await readdir(dir, { recursive: true, withFileTypes: true })).filter((d) => d.isFile());
  const texts = await Promise.all(
    names.map(async (d) => {
      const bytes = await readFile(join(d.parentPath, d.name));
      return (bytes[0] === 0x1f && bytes[1] === 0x8b ? gunzipSync(bytes) : bytes).toString('utf8');
    }),
  );
  return texts.join('\n');
}

const notices = (e: LindwyrmEngine) => e.store.current().blocks.flatMap((b) => (b.kind === 'notice' ? [b.text] : []));

describe('session files', () => {
  it('never hold the API key in use, another preset\'s key file or a proxy credential; the redaction is told in the transcript', async () => {
    const apiKey = 'sk-live-4f9a8b7c6d5e4f3a2b1c';
    const fileKey = 'kf-other-preset-77aa88bb99';
    const proxyPassword = 'pr0xyPassw0rd';
    const echo = (text: string) => ({ toolCalls: [{ name: 'note', input: { text } }] });
    fake = await startFakeProvider({
      format: 'anthropic',
      replies: [echo(`${apiKey} ${fileKey}`), { text: `Your key ${apiKey} works; proxy pass ${proxyPassword}.` }, { text: 'Noted.' }],
    });
    sandbox = await makeSandbox(
      'anthropic',
      fake.baseUrl,
      '',
      `
[[presets]]
name = "other"
format = "openai"
base_url = "http://127.0.0.1:9"
model = "m"
key_file = "KEYFILE"
proxy = "http://carol:${proxyPassword}@proxy.invalid:3128"
`,
    );
    const configFile = sandbox.configPath;
    const keyFile = join(sandbox.root, 'other.key');
    await writeFile(keyFile, `${fileKey}\n`);
    await writeFile(configFile, (await readFile(configFile, 'utf8')).replace('KEYFILE', keyFile));
    sandbox.env['FAKE_API_KEY'] = apiKey;
    engine = await startEngine(sandbox, [noteTool]);
    expect(notices(engine).join('\n')).not.toMatch(/redact/i);
    const outcome = await engine.submit(`debug this: my key is ${apiKey}`);
    expect(outcome.status).toBe('finished');
    // A second prompt: its checkpoint keeps the conversation so far, secrets and all, as messages.
    expect((await engine.submit('thanks')).status).toBe('finished');

    const disk = await dataOnDisk(sandbox.root);
    expect(disk).toContain('debug this');
    for (const secret of [apiKey, fileKey, proxyPassword]) expect(disk).not.toContain(secret);
    // The save that redacted said so, in the transcript (the one-shot printer shows notices too).
    expect(notices(engine).some((n) => /redact/i.test(n))).toBe(true);
  });

  it('sweeps sessions idle past session_retention_days once the first request is out, never the one being resumed', async () => {
    fake = await startFakeProvider({ format: 'anthropic', replies: [{ text: 'welcome back' }] });
    sandbox = await makeSandbox('anthropic', fake.baseUrl, 'session_retention_days = 30');
    const project = realpathSync(sandbox.project);
    const sessionsDir = join(sandbox.root, 'data', 'lindwyrm', 'sessions');
    const seed = createSessionStore({ dir: sessionsDir, projectRoot: project });
    const daysAgo = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString();
    for (const [id, days] of [['old001', 45], ['keepme', 60], ['recent', 3]] as const) {
      await seed.save(makeRecord(id, project, [userText(`prompt of ${id}`), { role: 'assistant', content: [{ type: 'text', text: 'ok' }] }], { updatedAt: daysAgo(days), preset: 'fake', model: 'fake-model' }));
    }
    await seed.close();

    engine = await startEngine(sandbox, [noteTool], { resume: 'keepme' });
    expect(engine.runtime.session.id).toBe('keepme');
    const ids = async () => (await createSessionStore({ dir: sessionsDir, projectRoot: project }).list()).sessions.map((s) => s.id).sort();
    // Not before the first request: the scan of every index would stand between the start and it.
    expect(await ids()).toEqual(['keepme', 'old001', 'recent']);
    expect((await engine.submit('carry on')).status).toBe('finished');
    // The turn's last save waits for the sweep (one writer at a time): done when the turn is.
    expect(await ids()).toEqual(['keepme', 'recent']);
    expect(notices(engine).join('\n')).toMatch(/removed 1 session/);
  });
});
