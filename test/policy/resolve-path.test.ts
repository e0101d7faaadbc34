import { link, mkdir, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { resolvePath } from '../../src/policy/resolve-path.js';
import { makeTempDir } from '../tools/make-context.js';

let root: string;
let outside: string;

beforeAll(async () => {
  root = await makeTempDir('lwyrm-root-');
  outside = await makeTempDir('lwyrm-out-');
  await mkdir(path.join(root, 'src/deep'), { recursive: true });
  await writeFile(path.join(root, 'src/a.ts'), 'a');
  await writeFile(path.join(outside, 'secret'), 's');
  await symlink(outside, path.join(root, 'out'));
  await symlink(path.join(root, 'out'), path.join(root, 'out2')); // link to a link
  await symlink(path.join(outside, 'nowhere', 'x'), path.join(root, 'dangling'));
  await symlink('src/deep', path.join(root, 'rel'));
  await link(path.join(outside, 'secret'), path.join(root, 'hard'));
});

describe('resolvePath', () => {
  it('resolves a plain relative path inside the project', async () => {
    const r = await resolvePath('src/a.ts', root);
    expect(r).toMatchObject({ realPath: path.join(root, 'src/a.ts'), exists: true, inside: true, multiLinked: false });
  });

  it('resolves .. against the project root and reports outside', async () => {
    const r = await resolvePath('../x/y', root);
    expect(r.realPath).toBe(path.join(path.dirname(root), 'x/y'));
    expect(r.inside).toBe(false);
  });

  it('follows a link out of the project', async () => {
    const r = await resolvePath('out/secret', root);
    expect(r).toMatchObject({ realPath: path.join(outside, 'secret'), inside: false, exists: true });
  });

  it('follows a link to a link', async () => {
    const r = await resolvePath('out2/secret', root);
    expect(r.realPath).toBe(path.join(outside, 'secret'));
  });

  it('applies .. after a link the way the kernel does', async () => {
    // rel -> src/deep, so rel/.. is src, not the project root.
    const r = await resolvePath('rel/../a.ts', root);
    expect(r.realPath).toBe(path.join(root, 'src/a.ts'));
    const o = await resolvePath('out/../escaped', root);
    expect(o.realPath).toBe(path.join(path.dirname(outside), 'escaped'));
    expect(o.inside).toBe(false);
  });

  it('resolves a dangling link to its would-be target', async () => {
    const r = await resolvePath('dangling', root);
    expect(r).toMatchObject({ realPath: path.join(outside, 'nowhere', 'x'), exists: false, inside: false });
  });

  it('keeps the link itself when the final component is not followed', async () => {
    const r = await resolvePath('dangling', root, { followFinal: false });
    expect(r).toMatchObject({ realPath: path.join(root, 'dangling'), isSymlink: true, inside: true });
  });

  it('uses the nearest existing parent for a new file', async () => {
    const r = await resolvePath('out/new/dir/file.txt', root);
    expect(r).toMatchObject({ realPath: path.join(outside, 'new/dir/file.txt'), exists: false, inside: false });
  });

  it('expands ~ to the home directory', async () => {
    const r = await resolvePath('~/.ssh/id_rsa', root, { home: outside });
    expect(r.realPath).toBe(path.join(outside, '.ssh/id_rsa'));
  });

  it('flags a hard-linked file inside the project', async () => {
    const r = await resolvePath('hard', root);
    expect(r).toMatchObject({ inside: true, multiLinked: true });
  });

  it('reports a link loop as an error', async () => {
    await symlink(path.join(root, 'loop-b'), path.join(root, 'loop-a'));
    await symlink(path.join(root, 'loop-a'), path.join(root, 'loop-b'));
    await expect(resolvePath('loop-a/x', root)).rejects.toThrow(/symbolic links/);
  });
});
