/**
 * The list of temp files each process keeps, and the sweep that removes the ones a killed process
 * left wherever it wrote them — only names the atomic write makes, with that process's pid.
 */
import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { tempNameFor, writeFileAtomic } from '../../src/io/atomic-write.js';
import { sweepAbandonedTemps, useTempJournal } from '../../src/io/temp-journal.js';

let dir: string | undefined;
afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
  dir = undefined;
});

function deadPid(): number {
  return Number(spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }).stdout);
}

it('removes at once the listed temp files of a process that is gone, and nothing else', async () => {
  dir = await mkdtemp(join(tmpdir(), 'lw-journal-'));
  const journal = join(dir, 'writes');
  const project = join(dir, 'project', 'deep');
  await mkdir(project, { recursive: true });
  await mkdir(journal);
  const dead = deadPid();
  const left = join(project, tempNameFor(join(project, 'a.ts'), dead));
  const notTemp = join(project, 'a.ts');
  const otherPid = join(project, tempNameFor(join(project, 'b.ts'), dead + 1_000_000));
  const linked = join(project, tempNameFor(join(project, 'c.ts'), dead));
  for (const f of [left, notTemp, otherPid]) await writeFile(f, 'x');
  await symlink(notTemp, linked);
  // A list may name anything (it is a file on disk): only its own pid's temp names are removed.
  await writeFile(join(journal, `${dead}.list`), [left, notTemp, otherPid, linked].map((p) => JSON.stringify(p)).join('\n') + '\n"/cut-by-a-k');
  const live = join(project, tempNameFor(join(project, 'd.ts'), process.ppid));
  await writeFile(live, 'in flight');
  await writeFile(join(journal, `${process.ppid}.list`), JSON.stringify(live) + '\n');

  useTempJournal(journal);
  expect(await sweepAbandonedTemps()).toEqual([left]);
  expect((await readdir(project)).sort()).toEqual([notTemp, otherPid, linked, live].map((p) => p.slice(project.length + 1)).sort());
  expect((await readdir(journal)).sort()).toEqual([`${process.ppid}.list`]);
});

it('lists each temp file before it is made, so a kill at any instant leaves it findable', async () => {
  dir = await mkdtemp(join(tmpdir(), 'lw-journal-'));
  const journal = join(dir, 'writes');
  useTempJournal(journal);
  await writeFileAtomic(join(dir, 'file.txt'), 'data');
  const [list] = await readdir(journal);
  expect(list).toBe(`${process.pid}.list`);
  const listed = (await readFile(join(journal, list!), 'utf8')).trim().split('\n').map((l) => JSON.parse(l) as string);
  expect(listed).toHaveLength(1);
  expect(listed[0]).toMatch(new RegExp(`/\\.file\\.txt\\.lwyrm-${process.pid}-\\d+-[0-9a-f]+\\.tmp$`));
  // Our own list is never swept while we run.
  expect(await sweepAbandonedTemps()).toEqual([]);
  expect(await readdir(journal)).toEqual([list]);
});
