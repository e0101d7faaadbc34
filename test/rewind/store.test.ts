/**
 * The rewind store on real folders: commands run through aroundCommand as bash would, file tool
 * changes through aroundPaths, and a restore gives back every path byte for byte with its mode.
 */
import { chmod, lstat, mkdir, readFile, stat, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openRewind, type Rewind } from '../../src/rewind/rewind-service.js';
import { makeDirs, sh, snapshotTree, type Dirs } from './support.js';

const EMPTY = { history: [], system: 'sys', turns: 0 };

describe('rewind store', () => {
  let dirs: Dirs;
  let rw: Rewind | undefined;

  beforeEach(async () => {
    dirs = await makeDirs();
    await mkdir(join(dirs.project, 'src'));
    await writeFile(join(dirs.project, 'src/a.py'), 'x = 1\ny = 2\n');
    await writeFile(join(dirs.project, 'run.sh'), '#!/bin/sh\necho hi\n');
    await chmod(join(dirs.project, 'run.sh'), 0o755);
    await writeFile(join(dirs.project, 'old.txt'), 'old\n');
    await writeFile(join(dirs.project, 'gone.txt'), 'to be removed\n');
    await mkdir(join(dirs.project, 'keepdir'));
    await writeFile(join(dirs.project, 'keepdir/inner.txt'), 'inner\n');
    await symlink('src/a.py', join(dirs.project, 'link-a'));
  });

  afterEach(async () => {
    await rw?.close();
    rw = undefined;
    await dirs.cleanup();
  });

  const open = async (sessionId = 's1') => (rw = await openRewind({ dataDir: dirs.data, projectRoot: dirs.project, maxMb: 500, sessionId }));

  it('undoes sed -i, a heredoc, rm, mv, chmod, mkdir, ln -s and rm -r byte for byte', async () => {
    const r = await open();
    const before = await snapshotTree(dirs.project);
    await r.beginTurn('change everything', EMPTY);
    await r.wrappers.aroundCommand('bash', () =>
      sh(
        dirs.project,
        `sed -i 's/x = 1/x = 100/' src/a.py
python3 - <<'EOF'
for i in range(3):
    open(f"gen{i}.txt", "w").write(f"generated {i}\\n")
EOF
rm gone.txt
mv old.txt renamed.txt
chmod 600 run.sh
mkdir -p newdir/deep && echo deep > newdir/deep/f.txt
ln -s run.sh link-run
rm -r keepdir
rm link-a && ln -s old.txt link-a`,
      ),
    );
    await r.endTurn();
    expect(await snapshotTree(dirs.project)).not.toEqual(before);
    const list = await r.checkpoints();
    expect(list[0]?.files).toBeGreaterThanOrEqual(10);
    const report = await r.rewind({ id: 1, part: 'code', overwriteChanged: false, now: EMPTY });
    expect(report.keptChanged).toEqual([]);
    expect(await snapshotTree(dirs.project)).toEqual(before);
    expect((await stat(join(dirs.project, 'run.sh'))).mode & 0o777).toBe(0o755);
  });

  it('undoes a folder replaced by a file and the reverse, a folder renamed or re-moded, links retargeted, .git/config; git\'s own files untouched', async () => {
    await sh(
      dirs.project,
      `git init -q . && git -c user.name=t -c user.email=t@t commit -q --allow-empty -m start
mkdir -p tree/deep dir2file locked && echo q > dir2file/q && echo d > tree/deep/x && echo f > file2dir
ln -s nowhere dangling && chmod 750 locked && touch empty && echo h > hard && ln hard hard2`,
    );
    const r = await open();
    const before = await snapshotTree(dirs.project);
    const gitBefore = await sh(dirs.project, 'git rev-parse HEAD && git status --porcelain');
    await r.beginTurn('reshape', EMPTY);
    await r.wrappers.aroundCommand('bash', () =>
      sh(
        dirs.project,
        `rm -r dir2file && echo now-a-file > dir2file
rm file2dir && mkdir file2dir && echo in > file2dir/in
mv tree renamed-tree
chmod 700 locked
rm dangling && ln -s elsewhere dangling
rm link-a && ln -s renamed-tree link-a
echo filled > empty
echo more >> hard
git config user.name someone-else`,
      ),
    );
    await r.endTurn();
    const [summary] = await r.checkpoints();
    expect(summary?.files).toBeGreaterThanOrEqual(12);
    const report = await r.rewind({ id: 1, part: 'code', overwriteChanged: false, now: EMPTY });
    expect(report.unrestorable).toEqual([]);
    expect(await snapshotTree(dirs.project)).toEqual(before);
    expect(await sh(dirs.project, 'git rev-parse HEAD && git status --porcelain')).toBe(gitBefore);
  });

  it('a rewind is a checkpoint: going back to it redoes the changes', async () => {
    const r = await open();
    await r.beginTurn('edit', EMPTY);
    await r.wrappers.aroundCommand('bash', () => sh(dirs.project, 'echo changed > src/a.py; touch brand-new.txt'));
    await r.endTurn();
    const after = await snapshotTree(dirs.project);
    const undo = await r.rewind({ id: 1, part: 'code', overwriteChanged: false, now: EMPTY });
    expect(await readFile(join(dirs.project, 'src/a.py'), 'utf8')).toBe('x = 1\ny = 2\n');
    await r.rewind({ id: undo.checkpoint.id, part: 'code', overwriteChanged: false, now: EMPTY });
    expect(await snapshotTree(dirs.project)).toEqual(after);
  });

  it('file tools: pre-images by path, new parent folders removed again', async () => {
    const r = await open();
    const before = await snapshotTree(dirs.project);
    await r.beginTurn('write', EMPTY);
    await r.wrappers.aroundPaths([{ path: 'made/here/new.txt', followFinal: true }], 'write_file', async () => {
      await mkdir(join(dirs.project, 'made/here'), { recursive: true });
      await writeFile(join(dirs.project, 'made/here/new.txt'), 'new\n');
    });
    await r.wrappers.aroundPaths([{ path: 'src/a.py', followFinal: true }], 'edit_file', () => writeFile(join(dirs.project, 'src/a.py'), 'edited\n'));
    await r.endTurn();
    const [summary] = await r.checkpoints();
    expect(summary).toMatchObject({ id: 1, files: 4 });
    await r.rewind({ id: 1, part: 'code', overwriteChanged: false, now: EMPTY });
    expect(await snapshotTree(dirs.project)).toEqual(before);
  });

  it('a file edited by hand since the checkpoint is flagged and kept unless confirmed', async () => {
    const r = await open();
    await r.beginTurn('edit', EMPTY);
    await r.wrappers.aroundCommand('bash', () => sh(dirs.project, 'echo by-agent > src/a.py; echo agent > old.txt'));
    await r.endTurn();
    await writeFile(join(dirs.project, 'src/a.py'), 'by hand\n');
    const [summary] = await r.checkpoints();
    expect(summary?.changedOutside).toBe(1);
    const preview = await r.preview(1, 'code', 0);
    expect(preview?.items.find((i) => i.path === 'src/a.py')?.changedOutside).toBe(true);
    const report = await r.rewind({ id: 1, part: 'code', overwriteChanged: false, now: EMPTY });
    expect(report.keptChanged.map((i) => i.path)).toEqual(['src/a.py']);
    expect(await readFile(join(dirs.project, 'src/a.py'), 'utf8')).toBe('by hand\n');
    expect(await readFile(join(dirs.project, 'old.txt'), 'utf8')).toBe('old\n');
    await r.rewind({ id: 1, part: 'code', overwriteChanged: true, now: EMPTY });
    expect(await readFile(join(dirs.project, 'src/a.py'), 'utf8')).toBe('x = 1\ny = 2\n');
  });

  it('an edit between two commands is not the turn\'s: restoring keeps the pre-image of the second command', async () => {
    const r = await open();
    await r.beginTurn('two commands', EMPTY);
    await r.wrappers.aroundCommand('bash', () => sh(dirs.project, 'echo one > src/a.py'));
    await writeFile(join(dirs.project, 'src/a.py'), 'user edit\n');
    await r.wrappers.aroundCommand('bash', () => sh(dirs.project, 'echo two > src/a.py'));
    await r.endTurn();
    const preview = await r.preview(1, 'code', 0);
    // The chain has a gap (the user's edit): flagged.
    expect(preview?.items[0]?.changedOutside).toBe(true);
  });

  it('checkpoints survive a new process (resume) and keep their numbering', async () => {
    let r = await open();
    await r.beginTurn('first', EMPTY);
    await r.wrappers.aroundCommand('bash', () => sh(dirs.project, 'echo 1 > src/a.py'));
    await r.endTurn();
    await r.close();
    r = await open();
    await r.beginTurn('second', EMPTY);
    await r.wrappers.aroundCommand('bash', () => sh(dirs.project, 'echo 2 > src/a.py'));
    await r.endTurn();
    expect((await r.checkpoints()).map((c) => c.id)).toEqual([2, 1]);
    await r.rewind({ id: 1, part: 'code', overwriteChanged: false, now: EMPTY });
    expect(await readFile(join(dirs.project, 'src/a.py'), 'utf8')).toBe('x = 1\ny = 2\n');
  });

  it('store files are private and nothing is written into the project', async () => {
    const r = await open();
    const before = await snapshotTree(dirs.project);
    await r.beginTurn('noop', EMPTY);
    await r.wrappers.aroundCommand('bash', async () => undefined);
    await r.endTurn();
    expect(await snapshotTree(dirs.project)).toEqual(before);
    const store = join(dirs.data, 'rewind');
    const tree = await sh(store, 'find . -printf "%y %m %p\\n"');
    for (const line of tree.trim().split('\n')) {
      const [type, mode] = line.split(' ');
      expect(mode, line).toBe(type === 'd' ? '700' : '600');
    }
    expect((await lstat(store)).mode & 0o777).toBe(0o700);
  });
});
