import { chmod, readdir, stat, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createSessionStore } from '../../src/sessions/session-store.js';
import { makeRecord, userText } from './support/records.js';
import { tempSetup, type TempSetup } from './support/temp.js';

let t: TempSetup;
beforeEach(async () => {
  t = await tempSetup();
});
afterEach(async () => {
  await t.cleanup();
});

const mode = async (path: string): Promise<number> => (await stat(path)).mode & 0o777;

describe('permissions', () => {
  it('tightens loose folders and files at start and says so', async () => {
    const first = createSessionStore({ dir: t.sessionsDir, projectRoot: t.project });
    await first.save(makeRecord('perm01', t.project, [userText('secret source code')]));
    await first.close();
    const folder = join(t.sessionsDir, (await readdir(t.sessionsDir))[0]!);
    await chmod(t.sessionsDir, 0o755);
    await chmod(folder, 0o777);
    await chmod(join(folder, 'perm01.meta.json'), 0o644);
    await chmod(join(folder, 'perm01.1.jsonl'), 0o666);

    const notices: string[] = [];
    const store = createSessionStore({ dir: t.sessionsDir, projectRoot: t.project, onNotice: (l) => notices.push(l) });
    // Listing checks the folders and the index files it reads...
    expect((await store.list()).sessions).toHaveLength(1);
    expect(await mode(t.sessionsDir)).toBe(0o700);
    expect(await mode(folder)).toBe(0o700);
    expect(await mode(join(folder, 'perm01.meta.json'))).toBe(0o600);
    expect(notices).toHaveLength(3);
    // ...and the sweep at start checks every file.
    await store.sweep(30);
    expect(await mode(join(folder, 'perm01.1.jsonl'))).toBe(0o600);
    expect(notices).toHaveLength(4);
    expect(notices.join('\n')).toContain('perm01.1.jsonl from 0666 to 0600');
    // Repaired once: nothing more to say.
    await store.list();
    await store.sweep(30);
    expect(notices).toHaveLength(4);
  });

  it('tightens a loose history when a session is resumed', async () => {
    const first = createSessionStore({ dir: t.sessionsDir, projectRoot: t.project });
    await first.save(makeRecord('perm03', t.project, [userText('x')]));
    await first.close();
    const folder = join(t.sessionsDir, (await readdir(t.sessionsDir))[0]!);
    await chmod(join(folder, 'perm03.1.jsonl'), 0o644);
    const notices: string[] = [];
    await createSessionStore({ dir: t.sessionsDir, projectRoot: t.project, onNotice: (l) => notices.push(l) }).load('perm03');
    expect(await mode(join(folder, 'perm03.1.jsonl'))).toBe(0o600);
    expect(notices).toEqual([`sessions: tightened ${join(folder, 'perm03.1.jsonl')} from 0644 to 0600`]);
  });

  it('never follows a symlinked session file (no chmod on its target); it is reported instead', async () => {
    const first = createSessionStore({ dir: t.sessionsDir, projectRoot: t.project });
    await first.save(makeRecord('perm04', t.project, [userText('x')]));
    await first.close();
    const folder = join(t.sessionsDir, (await readdir(t.sessionsDir))[0]!);
    const outside = join(t.root, 'dotfile');
    await writeFile(outside, '{}');
    await chmod(outside, 0o644);
    await symlink(outside, join(folder, 'link05.meta.json'));
    const { sessions, problems } = await createSessionStore({ dir: t.sessionsDir, projectRoot: t.project }).list();
    expect(sessions.map((s) => s.id)).toEqual(['perm04']);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toContain('link05.meta.json');
    expect(await mode(outside)).toBe(0o644);
  });

  it('creates missing parents private and keeps new files 0600 under a loose umask', async () => {
    const previous = process.umask(0o000);
    try {
      const store = createSessionStore({ dir: t.sessionsDir, projectRoot: t.project });
      await store.save(makeRecord('perm02', t.project, [userText('x')]));
      await store.save(makeRecord('perm02', t.project, [userText('x'), userText('y')]));
      await store.close();
    } finally {
      process.umask(previous);
    }
    expect(await mode(join(t.root, 'data', 'lindwyrm'))).toBe(0o700);
    const folder = join(t.sessionsDir, (await readdir(t.sessionsDir))[0]!);
    for (const name of await readdir(folder)) expect([name, await mode(join(folder, name))]).toEqual([name, 0o600]);
  });
});
