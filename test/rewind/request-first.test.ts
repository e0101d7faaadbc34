/**
 * A turn's request leaves before the rewind store's work: the checkpoint is written once the
 * reply begins (or when a command needs it), the project's first read starts with the reply,
 * and the checkpoint still holds the conversation from before the prompt, with real files.
 */
import { readFile, writeFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Message } from '../../src/providers/types.js';
import { conversationOf } from '../../src/rewind/conversation-snapshot.js';
import { openRewind, type Rewind } from '../../src/rewind/rewind-service.js';
import { makeDirs, type Dirs } from './support.js';

const user = (text: string): Message => ({ role: 'user', content: [{ type: 'text', text }] });

describe('rewind out of the request’s way', () => {
  let dirs: Dirs;
  let rewind: Rewind | undefined;

  beforeEach(async () => {
    dirs = await makeDirs();
    await mkdir(join(dirs.project, 'lib'));
    for (const name of ['a.ts', 'b.ts', 'lib/c.ts']) await writeFile(join(dirs.project, name), `export const x = '${name}';\n`);
  });

  afterEach(async () => {
    await rewind?.close();
    rewind = undefined;
    await dirs.cleanup();
  });

  it('reads the project only once the reply begins, and a command then finds it read', async () => {
    rewind = await openRewind({ dataDir: dirs.data, projectRoot: dirs.project, maxMb: 50, sessionId: 's1' });
    await rewind.beginTurn('look around', { history: [], system: 'sys', turns: 0 });
    const before = await rewind.stats();
    expect(before.checkpoints).toBe(1);
    expect(before.trackedPaths).toBe(0);
    rewind.replyStarted();
    // The command waits for the first read the reply started, then runs inside the checkpoint.
    await rewind.wrappers.aroundCommand('bash', () => writeFile(join(dirs.project, 'a.ts'), 'changed\n'));
    expect((await rewind.stats()).trackedPaths).toBeGreaterThanOrEqual(4);
    await rewind.endTurn();
    await rewind.rewind({ id: 1, part: 'code', overwriteChanged: false });
    expect(await readFile(join(dirs.project, 'a.ts'), 'utf8')).toBe("export const x = 'a.ts';\n");
  });

  it('keeps the conversation from before the prompt, though it is written after the prompt joined the history', async () => {
    rewind = await openRewind({ dataDir: dirs.data, projectRoot: dirs.project, maxMb: 50, sessionId: 's2' });
    const rt = { session: { history: [user('first question')], turns: 1 }, system: 'sys' };
    await rewind.beginTurn('second question', conversationOf(rt));
    // The engine appends the prompt and sends the request; the checkpoint is written after.
    rt.session.history.push(user('second question'));
    rewind.replyStarted();
    await rewind.endTurn();
    const report = await rewind.rewind({ id: 1, part: 'conversation', overwriteChanged: false });
    expect(report.conversation?.history).toEqual([user('first question')]);
  });

  it('writes a turn’s checkpoint that never had a reply before the next one', async () => {
    rewind = await openRewind({ dataDir: dirs.data, projectRoot: dirs.project, maxMb: 50, sessionId: 's3' });
    await rewind.beginTurn('failed request', { history: [], system: 'sys', turns: 0 });
    await rewind.endTurn();
    await rewind.beginTurn('retry', { history: [user('failed request')], system: 'sys', turns: 1 });
    rewind.replyStarted();
    await rewind.endTurn();
    const list = await rewind.checkpoints();
    // Listed newest first; the ids say which was begun first.
    expect(list.map((c) => [c.id, c.prompt]).sort()).toEqual([
      [1, 'failed request'],
      [2, 'retry'],
    ]);
  });
});
