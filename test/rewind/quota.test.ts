/**
 * The store stays bounded: past rewind_max_mb the oldest checkpoints go first and the blobs only
 * they named are removed; a swept session's checkpoints go with it; --no-save leaves nothing.
 */
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readdir, readFile, stat, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ProjectStore, rewindDirFor } from '../../src/rewind/project-store.js';
import { openRewind, removeRewindSession, type Rewind } from '../../src/rewind/rewind-service.js';
import { makeDirs, type Dirs } from './support.js';

const EMPTY = { history: [], system: 'sys', turns: 0 };

async function storeBytes(dir: string): Promise<number> {
  let sum = 0;
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) sum += (await stat(join(entry.parentPath, entry.name))).size;
  }
  return sum;
}

describe('rewind store bounds', () => {
  let dirs: Dirs;
  const open: Rewind[] = [];

  beforeEach(async () => {
    dirs = await makeDirs();
    await writeFile(join(dirs.project, 'data.bin'), randomBytes(150_000));
  });

  afterEach(async () => {
    for (const r of open.splice(0)) await r.close();
    await dirs.cleanup();
  });

  const start = async (sessionId: string, maxMb = 2): Promise<Rewind> => {
    const r = await openRewind({ dataDir: dirs.data, projectRoot: dirs.project, maxMb, sessionId });
    open.push(r);
    return r;
  };

  /** One turn that replaces data.bin with new incompressible contents. */
  const turn = async (r: Rewind, n: number): Promise<Buffer> => {
    const next = randomBytes(150_000);
    await r.beginTurn(`turn ${n}`, EMPTY);
    await r.wrappers.aroundCommand('bash', () => writeFile(join(dirs.project, 'data.bin'), next));
    await r.endTurn();
    return next;
  };

  it('drops the oldest checkpoints past rewind_max_mb, and the newest still restore', async () => {
    const r = await start('s1');
    const versions: Buffer[] = [await readFile(join(dirs.project, 'data.bin'))];
    for (let n = 1; n <= 20; n++) versions.push(await turn(r, n));
    const dir = rewindDirFor(dirs.data, dirs.project);
    expect(await storeBytes(join(dir, 'objects'))).toBeLessThanOrEqual(2 * 1048576);
    const ids = (await r.checkpoints()).map((c) => c.id);
    expect(ids[0]).toBe(20);
    expect(ids).not.toContain(1);
    expect(ids.length).toBeLessThan(20);
    // The oldest one left still goes back to its own "before".
    const oldest = Math.min(...ids);
    await r.rewind({ id: oldest, part: 'code', overwriteChanged: false, now: EMPTY });
    expect((await readFile(join(dirs.project, 'data.bin'))).equals(versions[oldest - 1]!)).toBe(true);
  });

  it('one turn keeps at most a tenth of the budget of new contents; the rest is listed, not kept', async () => {
    const r = await start('s1', 1);
    await r.beginTurn('generate', EMPTY);
    await r.wrappers.aroundCommand('bash', async () => {
      for (let i = 0; i < 4; i++) await writeFile(join(dirs.project, `gen${i}.bin`), randomBytes(60_000));
    });
    await r.endTurn();
    const [summary] = await r.checkpoints();
    expect(summary?.files).toBe(4);
    expect(summary?.notes.join('\n')).toMatch(/gen\d\.bin changed \(its contents are not kept/);
  });

  it('a swept session takes its checkpoints with it, and its blobs go at the next collection', async () => {
    const a = await start('aaa');
    await turn(a, 1);
    await turn(a, 2);
    await a.close();
    open.splice(0);
    const dir = rewindDirFor(dirs.data, dirs.project);
    const before = await storeBytes(join(dir, 'objects'));
    // Swept sessions are old (30 days idle by default): so are their blobs.
    const past = new Date(Date.now() - 2 * 3_600_000);
    for (const entry of await readdir(join(dir, 'objects'), { recursive: true, withFileTypes: true })) {
      if (entry.isFile()) await utimes(join(entry.parentPath, entry.name), past, past);
    }
    await removeRewindSession(dirs.data, dirs.project, 'aaa');
    expect(existsSync(join(dir, 'sessions', 'aaa.jsonl'))).toBe(false);
    const b = await start('bbb');
    await b.beginTurn('look', EMPTY);
    await b.endTurn();
    // What only session aaa named (two earlier versions of data.bin) is gone.
    expect(await storeBytes(join(dir, 'objects'))).toBeLessThan(before - 200_000);
  });

  it('--no-save keeps its checkpoints in a temp folder removed when the session ends', async () => {
    const r = await openRewind({ projectRoot: dirs.project, maxMb: 50, sessionId: 'tmp-1' });
    await r.beginTurn('edit', EMPTY);
    await r.wrappers.aroundCommand('bash', () => writeFile(join(dirs.project, 'data.bin'), 'small'));
    await r.endTurn();
    await r.rewind({ id: 1, part: 'code', overwriteChanged: false, now: EMPTY });
    expect((await readFile(join(dirs.project, 'data.bin'))).length).toBe(150_000);
    const store = await ProjectStore.open({ projectRoot: dirs.project, maxBytes: 1 });
    const tempParent = join(store.dir, '..');
    await store.close();
    const before = (await readdir(tempParent)).filter((n) => n.startsWith('lwyrm-rewind-')).length;
    await r.close();
    expect((await readdir(tempParent)).filter((n) => n.startsWith('lwyrm-rewind-')).length).toBe(before - 1);
    expect(existsSync(rewindDirFor(dirs.data, dirs.project))).toBe(false);
  });
});
