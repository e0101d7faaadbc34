/**
 * The code map's caches are written to a temp file and renamed. A process killed between the two
 * (a one-shot run leaving while its index is saved) leaves the temp file behind; the next save of
 * the same cache removes such leftovers once they are clearly abandoned, and nothing else.
 */
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { STALE_TEMP_MS, writeAtomic } from '../../src/codemap/index-cache.js';

let dir: string | undefined;
afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
  dir = undefined;
});

describe('writeAtomic', () => {
  it('replaces the file whole and clears temp files abandoned by a killed process', async () => {
    dir = await mkdtemp(join(tmpdir(), 'lw-atomic-'));
    const target = join(dir, 'index-abc.bin');
    const old = Date.now() - STALE_TEMP_MS - 60_000;
    const abandoned = `index-abc.bin.4242.${old}.tmp`;
    const inFlight = `index-abc.bin.4343.${Date.now()}.tmp`;
    const otherCache = `graph-abc.json.4242.${old}.tmp`;
    for (const name of [abandoned, inFlight, otherCache]) await writeFile(join(dir, name), 'partial');

    await writeAtomic(target, 'complete');

    expect(await readFile(target, 'utf8')).toBe('complete');
    const left = await readdir(dir);
    expect(left).not.toContain(abandoned);
    // A write that may still be running elsewhere, and another cache's leftovers, are not touched.
    expect(left).toContain(inFlight);
    expect(left).toContain(otherCache);
  });

  it('leaves no temp file behind when the write fails', async () => {
    dir = await mkdtemp(join(tmpdir(), 'lw-atomic-'));
    // The target is a directory: the rename fails after the temp file was written.
    const target = join(dir, 'taken');
    await writeFile(join(dir, 'placeholder'), '');
    await import('node:fs/promises').then((fs) => fs.mkdir(join(target, 'inside'), { recursive: true }));
    await expect(writeAtomic(target, 'data')).rejects.toThrow();
    expect((await readdir(dir)).filter((n) => n.endsWith('.tmp'))).toEqual([]);
  });
});
