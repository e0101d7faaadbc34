import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { escapeFileName, unescapeFileName } from '../../src/policy/escape.js';
import { globTool } from '../../src/tools/glob.js';
import { grepInProcess, grepWithRipgrep, ripgrepPath } from '../../src/tools/grep-engines.js';
import { formatHits, grepTool } from '../../src/tools/grep.js';
import { readFileTool } from '../../src/tools/read-file.js';
import { writeFileTool } from '../../src/tools/write-file.js';
import { makeContext, makeTempDir } from './make-context.js';

/** A name that would turn a terminal red and show `st.ts` reversed, in a folder with a newline. */
const HOSTILE = 'red\x1b[31mname\u202est.ts';
const HOSTILE_SHOWN = 'red\\x1b[31mname\\u202est.ts';
const NEWLINE_DIR = 'two\nlines';

let root: string;
let supported = true;

beforeAll(async () => {
  root = await makeTempDir('lwyrm-names-');
  try {
    await writeFile(path.join(root, HOSTILE), 'export const needle = 1;\n');
    await mkdir(path.join(root, NEWLINE_DIR));
    await writeFile(path.join(root, NEWLINE_DIR, 'b.ts'), 'needle two\n');
  } catch {
    supported = false; // a file system that refuses such names has nothing to escape
  }
  await writeFile(path.join(root, 'plain.ts'), 'needle plain\n');
});

describe('file names from the disk in tool results', () => {
  it('glob escapes control characters and bidi overrides in names', async (t) => {
    if (!supported) t.skip();
    // picomatch's * does not match a newline, so the two\nlines folder is not listed at all.
    const r = await globTool.run({ pattern: '**/*.ts' }, makeContext(root));
    expect(r.content.split('\n').sort()).toEqual(['plain.ts', HOSTILE_SHOWN].sort());
    expect(r.content.includes('\x1b') || r.content.includes('\u202e')).toBe(false);
  });

  it('grep escapes the names with either engine (a newline too), and leaves the matched text as it is', async (t) => {
    if (!supported) t.skip();
    const r = await grepTool.run({ pattern: 'needle' }, makeContext(root));
    expect(r.content.split('\n').sort()).toEqual(
      [`${HOSTILE_SHOWN}:1:export const needle = 1;`, 'plain.ts:1:needle plain', 'two\\nlines/b.ts:1:needle two'].sort(),
    );
    const query = { root, base: root, baseIsDir: true, pattern: 'needle', ignoreCase: false, excluded: [] };
    const engines = [grepInProcess(query)];
    const rg = await ripgrepPath();
    if (rg !== undefined) engines.push(grepWithRipgrep(rg, query));
    for (const outcome of await Promise.all(engines)) {
      expect(formatHits(outcome.hits, '').sort()).toEqual(
        [`${HOSTILE_SHOWN}:1:export const needle = 1;`, 'plain.ts:1:needle plain', 'two\\nlines/b.ts:1:needle two'].sort(),
      );
    }
  });

  it('a name copied from a result still reads the file', async (t) => {
    if (!supported) t.skip();
    const ctx = makeContext(root);
    const r = await readFileTool.run({ path: HOSTILE_SHOWN }, ctx);
    expect(r.ok).toBe(true);
    expect(r.content).toMatch(/export const needle = 1;/);
    const nested = await readFileTool.run({ path: 'two\\nlines/b.ts' }, ctx);
    expect(nested.content).toMatch(/needle two/);
  });

  it('a file whose name really holds the backslashes wins over the unescaped one', async (t) => {
    if (!supported) t.skip();
    await writeFile(path.join(root, 'lit\\x41.txt'), 'literal');
    await writeFile(path.join(root, 'litA.txt'), 'decoded');
    const r = await readFileTool.run({ path: 'lit\\x41.txt' }, makeContext(root));
    expect(r.content).toMatch(/literal/);
    expect(r.content).not.toMatch(/decoded/);
  });
});

describe('escapeFileName', () => {
  it('round-trips through unescapeFileName', () => {
    for (const name of [HOSTILE, NEWLINE_DIR, 'tab\there', 'cr\rname', 'tag\u{e0041}s', 'plain name.ts']) {
      expect(unescapeFileName(escapeFileName(name))).toBe(name);
    }
    expect(escapeFileName('tab\there')).toBe('tab\\there');
    expect(escapeFileName('plain name.ts')).toBe('plain name.ts');
  });
});

describe('approving a change to a file with an odd name', () => {
  it('shows the name escaped in the path, the summary and the diff, and writes that file', async (t) => {
    if (!supported) t.skip();
    const ctx = makeContext(root);
    // Copied from a grep result: the folder's name holds a newline.
    const r = await writeFileTool.run({ path: 'two\\nlines/b.ts', content: 'needle three\n' }, ctx);
    expect(r.ok).toBe(true);
    expect(await readFile(path.join(root, NEWLINE_DIR, 'b.ts'), 'utf8')).toBe('needle three\n');
    const asked = ctx.asked[0];
    expect(asked?.path).toBe(path.join(root, 'two\\nlines', 'b.ts'));
    expect(asked?.summary).toBe('overwrite two\\nlines/b.ts (+1 -1)');
    expect(asked?.diff).not.toMatch(/two\nlines/);
    expect(asked?.diff).toMatch(/two\\nlines\/b\.ts/);
  });
});
