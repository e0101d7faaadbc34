import { mkdir, readdir, stat, symlink, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createOffloadStore, sweepOrphanedOffloads } from '../../src/context/offload-store.js';
import { withTempDir } from './helpers.js';

const mode = async (path: string): Promise<number> => (await stat(path)).mode & 0o777;

describe('offload store', () => {
  it('numbers refs per session, reads them back byte for byte, and lists their sizes', () =>
    withTempDir(async (dir) => {
      const store = createOffloadStore({ dir: join(dir, 'offload'), sessionId: 's1' });
      const text = 'héllo\r\nwörld\u0000 ✓\n'.repeat(500);
      expect(await store.put('read_file', text)).toBe('off_0001');
      expect(await store.put('bash', 'second')).toBe('off_0002');
      expect(await store.read('off_0001')).toBe(text);
      expect(await store.read('off_0002')).toBe('second');
      expect(await store.read('off_0003')).toBeUndefined();
      expect(await store.list()).toEqual([
        { ref: 'off_0001', bytes: Buffer.byteLength(text) },
        { ref: 'off_0002', bytes: 6 },
      ]);
      const other = createOffloadStore({ dir: join(dir, 'offload'), sessionId: 's2' });
      expect(await other.put('grep', 'x')).toBe('off_0001');
      expect(await other.read('off_0002')).toBeUndefined();
    }));

  it('writes files 0600 in 0700 folders, tightening a folder that existed with a looser mode', () =>
    withTempDir(async (dir) => {
      const root = join(dir, 'offload');
      await mkdir(root, { mode: 0o755 });
      const store = createOffloadStore({ dir: root, sessionId: 'abc' });
      await store.put('read_file', 'secret source');
      expect(await mode(root)).toBe(0o700);
      expect(await mode(store.path)).toBe(0o700);
      expect(await mode(join(store.path, 'off_0001.txt'))).toBe(0o600);
    }));

  it('a snapshot that cannot be put in place fails the put and leaves no temp file behind', () =>
    withTempDir(async (dir) => {
      const store = createOffloadStore({ dir: join(dir, 'offload'), sessionId: 'tmp1' });
      expect(await store.put('bash', 'first')).toBe('off_0001');
      // Something in the way of the next ref: the rename fails.
      await mkdir(join(store.path, 'off_0002.txt'));
      await expect(store.put('bash', 'second')).rejects.toThrow();
      expect((await readdir(store.path)).sort()).toEqual(['off_0001.txt', 'off_0002.txt']);
      expect(await store.put('bash', 'third')).toBe('off_0003');
    }));

  it('gives concurrent puts distinct refs', () =>
    withTempDir(async (dir) => {
      const store = createOffloadStore({ dir, sessionId: 'c' });
      const refs = await Promise.all(Array.from({ length: 20 }, (_, i) => store.put('bash', `out ${i}`)));
      expect(new Set(refs).size).toBe(20);
      for (let i = 0; i < 20; i++) expect(await store.read(refs[i]!)).toBe(`out ${i}`);
    }));

  it('continues the numbering of a resumed session instead of overwriting its snapshots', () =>
    withTempDir(async (dir) => {
      const first = createOffloadStore({ dir, sessionId: 'r' });
      await first.put('bash', 'one');
      await first.put('bash', 'two');
      await first.dispose(true);
      const resumed = createOffloadStore({ dir, sessionId: 'r' });
      expect(await resumed.read('off_0002')).toBe('two');
      expect(await resumed.put('bash', 'three')).toBe('off_0003');
      expect(await resumed.read('off_0001')).toBe('one');
    }));

  it('refuses refs and session ids that could reach outside its folder', () =>
    withTempDir(async (dir) => {
      await writeFile(join(dir, 'outside.txt'), 'not yours');
      const store = createOffloadStore({ dir, sessionId: 's' });
      await store.put('bash', 'x');
      expect(await store.read('../outside')).toBeUndefined();
      expect(await store.read('off_0001/../../outside')).toBeUndefined();
      expect(() => createOffloadStore({ dir, sessionId: '../escape' })).toThrow(/session id/);
      expect(() => createOffloadStore({ dir, sessionId: '..' })).toThrow(/session id/);
    }));

  it('dispose(false) removes the session folder; dispose(true) keeps it for the saved session', () =>
    withTempDir(async (dir) => {
      const gone = createOffloadStore({ dir, sessionId: 'gone' });
      await gone.put('bash', 'x');
      await gone.dispose(false);
      await expect(stat(gone.path)).rejects.toThrow();
      const kept = createOffloadStore({ dir, sessionId: 'kept' });
      await kept.put('bash', 'x');
      await kept.dispose(true);
      expect((await stat(kept.path)).isDirectory()).toBe(true);
    }));

  it('sweeps folders older than 7 days that no saved session owns, and nothing else', () =>
    withTempDir(async (base) => {
      const dir = join(base, 'offload');
      const now = Date.now();
      const old = (now - 8 * 86_400_000) / 1000;
      for (const id of ['orphan-old', 'saved-old', 'orphan-new']) {
        const s = createOffloadStore({ dir, sessionId: id });
        await s.put('bash', id);
        if (id.endsWith('-old')) {
          await utimes(join(s.path, 'off_0001.txt'), old, old);
          await utimes(s.path, old, old);
        }
      }
      await writeFile(join(dir, 'stray-file'), 'not a session folder');
      // An old folder outside, reached through a link: the sweep must not follow it.
      const outside = join(base, 'outside');
      await mkdir(outside);
      await writeFile(join(outside, 'keep.txt'), 'x');
      await utimes(outside, old, old);
      await symlink(outside, join(dir, 'link-old'));
      const removed = await sweepOrphanedOffloads({ dir, isSaved: (id) => id === 'saved-old', now });
      expect(removed).toEqual(['orphan-old']);
      await expect(stat(join(dir, 'orphan-old'))).rejects.toThrow();
      expect((await stat(join(dir, 'saved-old'))).isDirectory()).toBe(true);
      expect((await stat(join(dir, 'orphan-new'))).isDirectory()).toBe(true);
      expect((await stat(join(outside, 'keep.txt'))).isFile()).toBe(true);
      expect(await sweepOrphanedOffloads({ dir: join(base, 'missing'), isSaved: () => false })).toEqual([]);
    }));
});
