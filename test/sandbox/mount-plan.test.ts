/** The order and kind of bwrap's mounts for masked paths, on a real temp tree. */
import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MAX_REBUILT_ENTRIES, planMounts } from '../../src/sandbox/linux-mounts.js';

let root: string;
let home: string;
let project: string;
beforeEach(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), 'lwyrm-plan-')));
  home = join(root, 'home');
  project = join(home, 'code', 'app');
  await mkdir(join(home, '.ssh'), { recursive: true });
  await mkdir(project, { recursive: true });
  await writeFile(join(home, 'notes.txt'), '');
  await symlink('notes.txt', join(home, 'link'));
  await writeFile(join(project, '.env'), 'X=1');
});
afterEach(() => rm(root, { recursive: true, force: true }));

const base = () => ({ projectRoot: project, writable: [], privateTmp: join(root, 'tmp'), home, readOnly: [join(project, '.git', 'config')] });

describe('planMounts', () => {
  it('rebuilds the folder around a masked path outside the project, then binds the project, then remounts read-only', async () => {
    const plan = await planMounts({ ...base(), masked: [{ path: join(home, '.ssh'), isDirectory: true, absent: true }, { path: join(project, '.env'), isDirectory: false, absent: true }] });
    const a = plan.args.join(' ');
    expect(plan.absent).toEqual([join(home, '.ssh')]);
    expect(a).toContain(`--tmpfs ${home} `);
    expect(a).toContain(`--ro-bind ${join(home, 'notes.txt')} ${join(home, 'notes.txt')}`);
    expect(a).toContain(`--symlink notes.txt ${join(home, 'link')}`);
    expect(a).not.toContain(`${join(home, '.ssh')} ${join(home, '.ssh')}`);
    // In the writable project a file is masked in place (its folder cannot be rebuilt).
    expect(plan.emptied).toEqual([join(project, '.env')]);
    expect(a.indexOf(`--bind ${project} ${project}`)).toBeGreaterThan(a.indexOf(`--tmpfs ${home}`));
    expect(a.indexOf(`--ro-bind /dev/null ${join(project, '.env')}`)).toBeGreaterThan(a.indexOf(`--bind ${project} ${project}`));
    expect(a.indexOf(`--ro-bind ${join(project, '.git', 'config')}`)).toBeGreaterThan(a.indexOf(`--bind ${project} ${project}`));
    expect(a.endsWith(`--remount-ro ${home}`)).toBe(true);
  });

  it('a crowded folder is not rebuilt: its masked entry is shown empty instead', async () => {
    for (let i = 0; i < MAX_REBUILT_ENTRIES + 1; i++) await writeFile(join(home, `f${i}`), '');
    const plan = await planMounts({ ...base(), masked: [{ path: join(home, '.ssh'), isDirectory: true, absent: true }] });
    expect(plan.absent).toEqual([]);
    expect(plan.emptied).toEqual([join(home, '.ssh')]);
    expect(plan.args.join(' ')).toContain(`--tmpfs ${join(home, '.ssh')} `);
  });

  it('a home or project under /tmp stays visible behind the private /tmp, read-only around the project', async () => {
    const plan = await planMounts({ ...base(), masked: [] });
    const top = join('/tmp', root.split('/')[2] ?? '');
    if (!root.startsWith('/tmp/')) return; // TMPDIR elsewhere: nothing to bind back
    expect(plan.args.join(' ')).toContain(`--bind ${join(root, 'tmp')} /tmp --ro-bind ${top} ${top}`);
  });

  it("a file to read under the host's /tmp (an MCP server's script) stays visible, read-only", async () => {
    const plan = await planMounts({ ...base(), home: '/home/someone', projectRoot: '/srv/app', masked: [], visible: ['/tmp/clone-1/node_modules/server/index.js'] });
    expect(plan.args.join(' ')).toContain('--bind ' + join(root, 'tmp') + ' /tmp --ro-bind /tmp/clone-1 /tmp/clone-1');
    expect(plan.args.join(' ')).not.toContain('--bind /tmp/clone-1');
  });
});
