import { chmod, mkdir, readFile, readdir, rmdir, stat, symlink, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { deleteFileTool } from '../../src/tools/delete-file.js';
import { editFileTool } from '../../src/tools/edit-file.js';
import { writeFileTool } from '../../src/tools/write-file.js';
import { makeContext, makeTempDir } from './make-context.js';

let root: string;
let outside: string;

beforeEach(async () => {
  root = await makeTempDir();
  outside = await makeTempDir('lwyrm-outside-');
});

const at = (p: string) => path.join(root, p);

describe('write_file', () => {
  it('creates a new file and its parent folders, shown as all-added', async () => {
    const ctx = makeContext(root);
    const r = await writeFileTool.run({ path: 'src/deep/new.ts', content: 'a\nb\n' }, ctx);
    expect(r.ok).toBe(true);
    expect(await readFile(at('src/deep/new.ts'), 'utf8')).toBe('a\nb\n');
    const diff = ctx.asked[0]?.diff ?? '';
    expect(diff).toContain('+a\n+b');
    expect(diff).not.toMatch(/^-[^-]/m);
    expect(ctx.asked[0]?.summary).toBe('create src/deep/new.ts (+2)');
    expect(ctx.changed).toEqual([at('src/deep/new.ts')]);
  });

  it('shows a real unified diff for an overwrite and keeps the file mode', async () => {
    await writeFile(at('run.sh'), '#!/bin/sh\necho old\n');
    await chmod(at('run.sh'), 0o751);
    const ctx = makeContext(root);
    await writeFileTool.run({ path: 'run.sh', content: '#!/bin/sh\necho new\n' }, ctx);
    expect(ctx.asked[0]?.diff).toMatch(/@@ -1,2 \+1,2 @@\n #!\/bin\/sh\n-echo old\n\+echo new/);
    expect((await stat(at('run.sh'))).mode & 0o777).toBe(0o751);
    expect(await readdir(root)).toEqual(['run.sh']); // no temp file left behind
  });

  it('a denied write leaves the file exactly as it was', async () => {
    await writeFile(at('keep.txt'), 'original');
    const r = await writeFileTool.run({ path: 'keep.txt', content: 'changed' }, makeContext(root, { answer: 'no' }));
    expect(r.ok).toBe(false);
    expect(await readFile(at('keep.txt'), 'utf8')).toBe('original');
  });

  it('escapes control characters in the approval diff', async () => {
    const ctx = makeContext(root);
    await writeFileTool.run({ path: 'x.txt', content: 'safe\x1b[1A\x1b[2Kline\u202e\n' }, ctx);
    expect(ctx.asked[0]?.diff).toContain('+safe\\x1b[1A\\x1b[2Kline\\u202e');
  });

  it('refuses when a link is swapped in between approval and write (check, then use)', async () => {
    await writeFile(at('target.txt'), 'mine');
    const ctx = makeContext(root);
    const swapCtx = {
      ...ctx,
      // While the user reads the prompt, something replaces the file with a link out.
      approve: async (req: Parameters<typeof ctx.approve>[0]) => {
        await unlink(at('target.txt'));
        await symlink(path.join(outside, 'victim.txt'), at('target.txt'));
        ctx.asked.push(req);
        return 'yes' as const;
      },
    };
    const r = await writeFileTool.run({ path: 'target.txt', content: 'payload' }, swapCtx);
    expect(r.ok).toBe(false);
    expect(r.content).toMatch(/now resolves to .*victim\.txt.*nothing was written/);
    await expect(readFile(path.join(outside, 'victim.txt'), 'utf8')).rejects.toThrow();
  });

  it('writing through a link out of the project asks with the real destination, even under write=allow', async () => {
    await symlink(outside, at('out'));
    const ctx = makeContext(root, { answer: 'no', config: { policy: { ...makeContext(root).config.policy, write: 'allow' } } });
    await writeFileTool.run({ path: 'out/f.txt', content: 'x' }, ctx);
    expect(ctx.asked[0]?.path).toBe(path.join(outside, 'f.txt'));
  });

  it('does not create folders outside the project, and says so before asking', async () => {
    const ctx = makeContext(root);
    const r = await writeFileTool.run({ path: path.join(outside, 'new-dir/f.txt'), content: 'x' }, ctx);
    expect(r.content).toMatch(/folders are only created inside the project/);
    expect(ctx.asked).toHaveLength(0);
  });

  it('shows a file too different to diff quickly as a full replacement, and counts lines that look like headers', async () => {
    const lines = (tag: string, n: number) => Array.from({ length: n }, (_, i) => `${tag} ${i}`).join('\n') + '\n';
    await writeFile(at('big.txt'), lines('old', 1100));
    const ctx = makeContext(root);
    const r = await writeFileTool.run({ path: 'big.txt', content: lines('new', 1100) }, ctx);
    expect(r.ok).toBe(true);
    expect(ctx.asked[0]?.summary).toBe('overwrite big.txt (+1100 -1100)');
    expect(ctx.asked[0]?.diff).toContain('full replacement');
    expect(ctx.asked[0]?.diff).toContain('\n-old 1099\n+new 0\n');
    await writeFile(at('q.sql'), '-- a comment\n++ x\nselect 1;\n');
    const sql = makeContext(root);
    await writeFileTool.run({ path: 'q.sql', content: 'select 1;\n' }, sql);
    expect(sql.asked[0]?.summary).toBe('overwrite q.sql (+0 -2)');
  });

  it('refuses a path ending in "/" and a path through a file, before asking', async () => {
    await writeFile(at('plain.txt'), 'x\n');
    const ctx = makeContext(root);
    const slash = await writeFileTool.run({ path: 'newdir/', content: 'x' }, ctx);
    expect(slash.ok).toBe(false);
    expect(slash.content).toMatch(/ends with "\/", which names a folder/);
    await expect(stat(at('newdir'))).rejects.toThrow();
    const through = await writeFileTool.run({ path: 'plain.txt/deeper/f.txt', content: 'x' }, ctx);
    expect(through.ok).toBe(false);
    expect(through.content).toBe(`write_file: cannot create plain.txt/deeper/f.txt: ${at('plain.txt')} is a file, not a folder.`);
    expect(ctx.asked).toEqual([]);
    expect(await readFile(at('plain.txt'), 'utf8')).toBe('x\n');
  });

  it('validates content', async () => {
    expect((await writeFileTool.run({ path: 'a' }, makeContext(root))).content).toMatch(/missing required argument "content"/);
  });
});

describe('edit_file', () => {
  it('replaces a unique match and shows the diff', async () => {
    await writeFile(at('prices.py'), 'def total(items):\n    result = 0\n    return result\n');
    const ctx = makeContext(root);
    const r = await editFileTool.run({ path: 'prices.py', old_string: '    result = 0\n    return result', new_string: '    return 0' }, ctx);
    expect(r.ok).toBe(true);
    expect(await readFile(at('prices.py'), 'utf8')).toBe('def total(items):\n    return 0\n');
    expect(ctx.asked[0]?.summary).toBe('edit prices.py (+1 -2)');
    expect(r.summary).toBe('Edited prices.py');
  });

  it('names the line of every match when there are several, and replace_all changes all', async () => {
    await writeFile(at('m.txt'), 'x = 1\ny = 2\nx = 1\nz\nx = 1\n');
    const r = await editFileTool.run({ path: 'm.txt', old_string: 'x = 1', new_string: 'x = 3' }, makeContext(root));
    expect(r.ok).toBe(false);
    expect(r.content).toMatch(/matches 3 times .* at lines 1, 3, 5/);
    expect(await readFile(at('m.txt'), 'utf8')).toBe('x = 1\ny = 2\nx = 1\nz\nx = 1\n');
    const all = await editFileTool.run({ path: 'm.txt', old_string: 'x = 1', new_string: 'x = 3', replace_all: true }, makeContext(root));
    expect(all.ok).toBe(true);
    expect(await readFile(at('m.txt'), 'utf8')).toBe('x = 3\ny = 2\nx = 3\nz\nx = 3\n');
  });

  it('shows the nearest similar lines when nothing matches', async () => {
    await writeFile(at('n.py'), 'import os\n\ndef compute_total(items):\n    pass\n');
    const r = await editFileTool.run({ path: 'n.py', old_string: 'def compute_totals(items):', new_string: 'x' }, makeContext(root));
    expect(r.ok).toBe(false);
    expect(r.content).toMatch(/not found/);
    expect(r.content).toContain('3\tdef compute_total(items):');
  });

  it('keeps a CRLF file CRLF when old and new use LF', async () => {
    await writeFile(at('w.txt'), 'a\r\nb\r\nc\r\n');
    const r = await editFileTool.run({ path: 'w.txt', old_string: 'a\nb\n', new_string: 'a\nB\nB2\n' }, makeContext(root));
    expect(r.ok).toBe(true);
    expect(await readFile(at('w.txt'), 'utf8')).toBe('a\r\nB\r\nB2\r\nc\r\n');
  });

  it('keeps the trailing newline as it was', async () => {
    await writeFile(at('t.txt'), 'a\nlast\n');
    await editFileTool.run({ path: 't.txt', old_string: 'last\n', new_string: 'final' }, makeContext(root));
    expect(await readFile(at('t.txt'), 'utf8')).toBe('a\nfinal\n');
    await writeFile(at('u.txt'), 'a\nlast');
    await editFileTool.run({ path: 'u.txt', old_string: 'last', new_string: 'final\n' }, makeContext(root));
    expect(await readFile(at('u.txt'), 'utf8')).toBe('a\nfinal');
  });

  it('says so instead of reporting an edit when the kept final newline makes it a no-op', async () => {
    await writeFile(at('v.txt'), 'a\nb');
    const ctx = makeContext(root);
    const r = await editFileTool.run({ path: 'v.txt', old_string: 'b', new_string: 'b\n' }, ctx);
    expect(r.ok).toBe(false);
    expect(r.content).toMatch(/leaves v\.txt unchanged.*use write_file/);
    expect(ctx.asked).toEqual([]);
  });

  it('does not treat $ in new_string as a replacement pattern', async () => {
    await writeFile(at('d.txt'), 'price\n');
    await editFileTool.run({ path: 'd.txt', old_string: 'price', new_string: "$& $' $1" }, makeContext(root));
    expect(await readFile(at('d.txt'), 'utf8')).toBe("$& $' $1\n");
  });

  it('refuses when the file changed while waiting for approval', async () => {
    await writeFile(at('race.txt'), 'one\n');
    const ctx = makeContext(root);
    const raced = { ...ctx, approve: async () => { await writeFile(at('race.txt'), 'edited elsewhere\n'); return 'yes' as const; } };
    const r = await editFileTool.run({ path: 'race.txt', old_string: 'one', new_string: 'two' }, raced);
    expect(r.ok).toBe(false);
    expect(await readFile(at('race.txt'), 'utf8')).toBe('edited elsewhere\n');
  });

  it('refuses to rewrite a file that is not valid UTF-8', async () => {
    await writeFile(at('latin1.txt'), Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]));
    const r = await editFileTool.run({ path: 'latin1.txt', old_string: 'caf', new_string: 'tea' }, makeContext(root));
    expect(r.ok).toBe(false);
    expect(r.content).toMatch(/not valid UTF-8/);
  });

  it('cannot read a guarded file through match errors: the read policy is asked first', async () => {
    await writeFile(path.join(outside, 'id_rsa'), 'SECRETKEY line one\n');
    const key = path.join(outside, 'id_rsa');
    // Outside the project, read_outside=confirm: a declined read reveals nothing, not even a near line.
    const declined = makeContext(root, { answer: 'no' });
    const r = await editFileTool.run({ path: key, old_string: 'SECRETKEY line won', new_string: 'x' }, declined);
    expect(r.ok).toBe(false);
    expect(r.content).not.toContain('SECRETKEY');
    expect(declined.asked.map((a) => a.kind)).toEqual(['read']);
    // A read=deny rule: no match oracle either (no write prompt that would confirm a guess).
    const deny = makeContext(root, { config: { policy: { ...makeContext(root).config.policy, rules: [{ path: outside, read: 'deny' }] } } });
    const guess = await editFileTool.run({ path: key, old_string: 'SECRET', new_string: 'x' }, deny);
    expect(guess.content).toMatch(/Denied by policy/);
    expect(deny.asked).toEqual([]);
    expect(await readFile(key, 'utf8')).toBe('SECRETKEY line one\n');
    // A write the policy denies is denied at once, without first asking to read.
    const writeDenied = makeContext(root, { config: { policy: { ...makeContext(root).config.policy, rules: [{ path: outside, write: 'deny' }] } } });
    const denied = await editFileTool.run({ path: key, old_string: 'SECRET', new_string: 'x' }, writeDenied);
    expect(denied.content).toMatch(/Denied by policy.*write/);
    expect(writeDenied.asked).toEqual([]);
  });

  it('validates arguments', async () => {
    expect((await editFileTool.run({ path: 'x', old_string: 'a' }, makeContext(root))).content).toMatch(/"new_string"/);
    expect((await editFileTool.run({ path: 'x', old_string: 'a', new_string: 'b', replace_all: 'yes' }, makeContext(root))).content).toMatch(/"replace_all" must be true or false/);
  });
});

describe('delete_file', () => {
  it('deletes a file after asking', async () => {
    await writeFile(at('gone.txt'), 'x');
    const ctx = makeContext(root);
    const r = await deleteFileTool.run({ path: 'gone.txt' }, ctx);
    expect(r.ok).toBe(true);
    expect(ctx.asked[0]?.kind).toBe('delete');
    await expect(stat(at('gone.txt'))).rejects.toThrow();
  });

  it('removes a symlink itself, never its target', async () => {
    await writeFile(path.join(outside, 'precious.txt'), 'keep');
    await symlink(path.join(outside, 'precious.txt'), at('link'));
    const ctx = makeContext(root);
    const r = await deleteFileTool.run({ path: 'link' }, ctx);
    expect(r.ok).toBe(true);
    expect(await readFile(path.join(outside, 'precious.txt'), 'utf8')).toBe('keep');
    expect(ctx.asked[0]?.path).toBe(at('link'));
  });

  it('refuses when a parent folder is swapped for a link out between approval and delete', async () => {
    await mkdir(at('sub'));
    await writeFile(at('sub/d.txt'), 'mine');
    await writeFile(path.join(outside, 'd.txt'), 'theirs');
    const ctx = makeContext(root);
    const swapCtx = {
      ...ctx,
      approve: async (req: Parameters<typeof ctx.approve>[0]) => {
        await unlink(at('sub/d.txt'));
        await rmdir(at('sub'));
        await symlink(outside, at('sub'));
        ctx.asked.push(req);
        return 'yes' as const;
      },
    };
    const r = await deleteFileTool.run({ path: 'sub/d.txt' }, swapCtx);
    expect(r.ok).toBe(false);
    expect(r.content).toMatch(/now resolves to .*nothing was deleted/);
    expect(await readFile(path.join(outside, 'd.txt'), 'utf8')).toBe('theirs');
  });

  it('refuses folders and a declined delete keeps the file', async () => {
    await mkdir(at('folder'));
    expect((await deleteFileTool.run({ path: 'folder' }, makeContext(root))).content).toMatch(/is a folder/);
    await writeFile(at('stay.txt'), 'x');
    await deleteFileTool.run({ path: 'stay.txt' }, makeContext(root, { answer: 'no' }));
    expect(await readFile(at('stay.txt'), 'utf8')).toBe('x');
  });
});
