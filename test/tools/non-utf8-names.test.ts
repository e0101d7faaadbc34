/**
 * File names that are not valid UTF-8 round-trip: list_dir and glob show an escaped form
 * (`caf\xe9.txt`), grep (either engine) finds the file's text under that name, and the name shown
 * opens the same file in read_file, edit_file, write_file and delete_file.
 */
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { escapeName, escapePath, fsPath } from '../../src/io/byte-names.js';
import { deleteFileTool } from '../../src/tools/delete-file.js';
import { editFileTool } from '../../src/tools/edit-file.js';
import { globTool } from '../../src/tools/glob.js';
import { grepInProcess, grepWithRipgrep, ripgrepPath } from '../../src/tools/grep-engines.js';
import { formatHits, grepTool } from '../../src/tools/grep.js';
import { listDirTool } from '../../src/tools/list-dir.js';
import { readFileTool } from '../../src/tools/read-file.js';
import { writeFileTool } from '../../src/tools/write-file.js';
import { makeContext, makeTempDir } from './make-context.js';

const bytes = (...parts: (string | number[])[]): Buffer => Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p) : Buffer.from(p))));

/** Latin-1 café, and a folder named with a byte that starts no UTF-8 sequence. */
const CAFE = bytes('caf', [0xe9], '.txt');
const DIR = bytes('d', [0xff]);

let root: string;
let supported = true;

beforeEach(async () => {
  root = await makeTempDir('lwyrm-bytes-');
  try {
    await writeFile(Buffer.concat([Buffer.from(root + '/'), CAFE]), 'the needle in latin-1\n');
    await mkdir(Buffer.concat([Buffer.from(root + '/'), DIR]));
    await writeFile(Buffer.concat([Buffer.from(root + '/'), DIR, Buffer.from('/inner.txt')]), 'another needle\n');
  } catch {
    supported = false; // a file system that insists on UTF-8 names (macOS APFS) has none of these
  }
  await writeFile(path.join(root, 'plain.txt'), 'needle plain\n');
});

describe('names that are not UTF-8', () => {
  it('escapes only what is not UTF-8, and reads its own form back to the same bytes', () => {
    expect(escapeName(CAFE)).toBe('caf\\xe9.txt');
    expect(escapeName(bytes('a\\b', [0xff]))).toBe('a\\x5cb\\xff');
    expect(escapeName(Buffer.from('café ok\\x41.txt'))).toBe('café ok\\x41.txt');
    expect(escapePath(bytes('/p/', [0xc3], '/x'))).toBe('/p/\\xc3/x');
    expect(fsPath('/p/caf\\xe9.txt')).toEqual(bytes('/p/caf', [0xe9], '.txt'));
    // Text that merely looks escaped names itself: its bytes would be escaped differently.
    expect(fsPath('/p/lit\\x41.txt')).toBe('/p/lit\\x41.txt');
    expect(fsPath('/p/plain.txt')).toBe('/p/plain.txt');
  });

  it('list_dir and glob show the escaped form, never a replacement character', async (t) => {
    if (!supported) t.skip();
    const listed = await listDirTool.run({}, makeContext(root));
    expect(listed.content.split('\n')).toEqual(['caf\\xe9.txt', 'd\\xff/', 'plain.txt']);
    const globbed = await globTool.run({ pattern: '**/*.txt' }, makeContext(root));
    expect(globbed.content.split('\n').sort()).toEqual(['caf\\xe9.txt', 'd\\xff/inner.txt', 'plain.txt']);
    expect(listed.content + globbed.content).not.toContain('\ufffd');
  });

  it('grep finds the text in such files with either engine', async (t) => {
    if (!supported) t.skip();
    const expected = ['caf\\xe9.txt:1:the needle in latin-1', 'd\\xff/inner.txt:1:another needle', 'plain.txt:1:needle plain'];
    const r = await grepTool.run({ pattern: 'needle' }, makeContext(root));
    expect(r.content.split('\n').sort()).toEqual(expected);
    const query = { root, base: root, baseIsDir: true, pattern: 'needle', ignoreCase: false, excluded: [] };
    const engines = [grepInProcess(query)];
    const rg = await ripgrepPath();
    if (rg !== undefined) engines.push(grepWithRipgrep(rg, query));
    for (const outcome of await Promise.all(engines)) expect(formatHits(outcome.hits, '').sort()).toEqual(expected);
    // In the folder whose own name is not UTF-8, too.
    const inside = await grepTool.run({ pattern: 'needle', path: 'd\\xff' }, makeContext(root));
    expect(inside.content).toBe('d\\xff/inner.txt:1:another needle');
  });

  it('the name shown opens the same file in every file tool', async (t) => {
    if (!supported) t.skip();
    const ctx = makeContext(root);
    const read = await readFileTool.run({ path: 'caf\\xe9.txt' }, ctx);
    expect(read.content).toBe('1\tthe needle in latin-1');
    const edited = await editFileTool.run({ path: 'caf\\xe9.txt', old_string: 'needle', new_string: 'pin' }, ctx);
    expect(edited.ok, edited.content).toBe(true);
    expect(await readFile(Buffer.concat([Buffer.from(root + '/'), CAFE]), 'utf8')).toBe('the pin in latin-1\n');
    const written = await writeFileTool.run({ path: 'd\\xff/inner.txt', content: 'rewritten\n' }, ctx);
    expect(written.ok, written.content).toBe(true);
    expect(await readFile(Buffer.concat([Buffer.from(root + '/'), DIR, Buffer.from('/inner.txt')]), 'utf8')).toBe('rewritten\n');
    const deleted = await deleteFileTool.run({ path: 'caf\\xe9.txt' }, ctx);
    expect(deleted.ok, deleted.content).toBe(true);
    // Nothing else appeared or went: no U+FFFD twin, no temp file.
    expect((await readdir(Buffer.from(root), { encoding: 'buffer' })).map((n) => escapeName(n)).sort()).toEqual(['d\\xff', 'plain.txt']);
  });
});
