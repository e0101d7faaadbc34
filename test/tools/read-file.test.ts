import { link, mkdir, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { grepTool } from '../../src/tools/grep.js';
import { readFileTool } from '../../src/tools/read-file.js';
import { makePolicy } from './make-config.js';
import { makeContext, makeTempDir } from './make-context.js';

let root: string;
let outside: string;

beforeAll(async () => {
  root = await makeTempDir();
  outside = await makeTempDir('lwyrm-outside-');
  await writeFile(path.join(root, 'a.py'), 'one\ntwo\nthree\nfour\nfive\n');
  await writeFile(path.join(root, 'crlf.txt'), 'x\r\ny\r\n');
  await writeFile(path.join(root, 'bin.dat'), Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0, 1, 2, 3]));
  await writeFile(path.join(root, 'bad.txt'), Buffer.from([0x61, 0xff, 0xfe, 0x62, 0x0a]));
  await writeFile(path.join(root, 'empty.txt'), '');
  await writeFile(path.join(root, 'big.txt'), Array.from({ length: 5000 }, (_, i) => `line ${i + 1}`).join('\n'));
  await mkdir(path.join(root, 'dir'));
  await writeFile(path.join(outside, 'secret.txt'), 'TOKEN');
  await symlink(path.join(outside, 'secret.txt'), path.join(root, 'link-out'));
});

const read = (args: unknown, opts: Parameters<typeof makeContext>[1] = {}) => readFileTool.run(args, makeContext(root, opts));

describe('read_file', () => {
  it('returns numbered lines', async () => {
    const r = await read({ path: 'a.py' });
    expect(r.ok).toBe(true);
    expect(r.content).toBe('1\tone\n2\ttwo\n3\tthree\n4\tfour\n5\tfive');
  });

  it('honours offset and limit and says where to continue', async () => {
    const r = await read({ path: 'a.py', offset: 2, limit: 2 });
    expect(r.content).toBe('2\ttwo\n3\tthree\n[lines 2-3 of 5; next page: read_file(path="a.py", offset=4, limit=2)]');
  });

  it('refuses an offset past the end', async () => {
    const r = await read({ path: 'a.py', offset: 9 });
    expect(r.ok).toBe(false);
    expect(r.content).toMatch(/past the end.*5 lines/);
  });

  it('shows CRLF files without carriage returns', async () => {
    expect((await read({ path: 'crlf.txt' })).content).toBe('1\tx\n2\ty');
  });

  it('says plainly when a file is binary', async () => {
    const r = await read({ path: 'bin.dat' });
    expect(r.ok).toBe(false);
    expect(r.content).toMatch(/binary file \(8 B\)/);
    expect(r.content).not.toContain('ELF');
  });

  it('shows invalid UTF-8 with replacement characters instead of failing', async () => {
    const r = await read({ path: 'bad.txt' });
    expect(r.ok).toBe(true);
    expect(r.content).toBe('1\ta\ufffd\ufffdb');
  });

  it('reports an empty file', async () => {
    expect((await read({ path: 'empty.txt' })).content).toMatch(/empty/);
  });

  it('refuses a file over the size limit, suggesting offset/limit or grep, and reads a window of it', async () => {
    const config = { maxFileSizeBytes: 1000 };
    const r = await read({ path: 'big.txt' }, { config });
    expect(r.ok).toBe(false);
    expect(r.content).toMatch(/over the 1000 B limit.*offset and limit.*grep/s);
    const part = await read({ path: 'big.txt', offset: 4999, limit: 5 }, { config });
    expect(part.content).toBe('4999\tline 4999\n5000\tline 5000\n[lines 4999-5000 of 5000; that is the end]');
    // A window that ends before the file does stops reading there.
    const head = await read({ path: 'big.txt', offset: 2, limit: 2 }, { config });
    expect(head.content).toBe('2\tline 2\n3\tline 3\n[lines 2-3 of more; next page: read_file(path="big.txt", offset=4, limit=2)]');
  });

  it('an interrupt stops a windowed read of a huge file', async () => {
    const controller = new AbortController();
    controller.abort();
    const r = await read({ path: 'big.txt', offset: 4000, limit: 5 }, { config: { maxFileSizeBytes: 1000 }, signal: controller.signal });
    expect(r.ok).toBe(false);
    expect(r.content).toMatch(/interrupted/);
  });

  it('names a directory and a missing file clearly', async () => {
    expect((await read({ path: 'dir' })).content).toMatch(/is a directory; use list_dir/);
    expect((await read({ path: 'nope.txt' })).content).toMatch(/does not exist/);
  });

  it('validates its arguments, naming the argument', async () => {
    expect((await read({})).content).toMatch(/missing required argument "path"/);
    expect((await read({ path: 3 })).content).toMatch(/"path" must be a string, got a number/);
    expect((await read({ path: 'a.py', offset: 0 })).content).toMatch(/"offset" must be at least 1/);
    expect((await read({ path: 'a.py', limit: 'lots' })).content).toMatch(/"limit" must be an integer/);
    expect((await read('a.py')).content).toMatch(/JSON object/);
  });

  it('asks before reading through a link out of the project, showing the real path', async () => {
    const ctx = makeContext(root, { answer: 'no' });
    const r = await readFileTool.run({ path: 'link-out' }, ctx);
    expect(r.ok).toBe(false);
    expect(r.content).not.toContain('TOKEN');
    expect(ctx.asked[0]?.path).toBe(path.join(outside, 'secret.txt'));
  });

  it('treats a hard-linked file inside the project as possibly outside and asks', async () => {
    await link(path.join(outside, 'secret.txt'), path.join(root, 'innocent.txt'));
    const ctx = makeContext(root, { answer: 'no', preApproved: ['read'] });
    const r = await readFileTool.run({ path: 'innocent.txt' }, ctx);
    expect(r.ok).toBe(false);
    expect(r.content).not.toContain('TOKEN');
    expect(ctx.asked[0]?.reason).toMatch(/hard-linked/);
  });

  it('a read deny rule blocks without asking', async () => {
    const ctx = makeContext(root, { config: { policy: makePolicy({ rules: [{ path: root, read: 'deny' }] }) } });
    const r = await readFileTool.run({ path: 'a.py' }, ctx);
    expect(r.ok).toBe(false);
    expect(r.content).toMatch(/Denied by policy/);
    expect(ctx.asked).toHaveLength(0);
  });
  it('a rule naming a symlinked folder (a linked ~/.ssh) still guards what is inside it', async () => {
    await mkdir(path.join(outside, 'real-keys'));
    await writeFile(path.join(outside, 'real-keys', 'id'), 'KEY');
    await symlink(path.join(outside, 'real-keys'), path.join(outside, 'keys'));
    await mkdir(path.join(root, 'vault-real'));
    await writeFile(path.join(root, 'vault-real', 'v.txt'), 'VAULT needle');
    await symlink('vault-real', path.join(root, 'vault'));
    const rules = [{ path: path.join(outside, 'keys'), read: 'deny' as const }, { path: 'vault', read: 'deny' as const }];
    for (const typed of [path.join(outside, 'keys', 'id'), path.join(outside, 'real-keys', 'id'), 'vault/v.txt', 'vault-real/v.txt']) {
      const ctx = makeContext(root, { config: { policy: makePolicy({ readOutside: 'allow', rules }) } });
      const r = await readFileTool.run({ path: typed }, ctx);
      expect(r.content, typed).toMatch(/Denied by policy/);
      expect(ctx.asked).toHaveLength(0);
    }
    // grep leaves the real folder out too.
    const ctx = makeContext(root, { config: { policy: makePolicy({ rules }) } });
    const found = await grepTool.run({ pattern: 'VAULT' }, ctx);
    expect(found.content).not.toContain('VAULT needle');
  });
});
