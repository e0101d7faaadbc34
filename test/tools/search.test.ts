import { link, mkdir, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { globTool } from '../../src/tools/glob.js';
import { grepInProcess, grepWithRipgrep, ripgrepPath, type GrepQuery } from '../../src/tools/grep-engines.js';
import { formatHits, grepTool } from '../../src/tools/grep.js';
import { listDirTool } from '../../src/tools/list-dir.js';
import { makePolicy } from './make-config.js';
import { makeContext, makeTempDir } from './make-context.js';

let root: string;
let outside: string;

async function put(rel: string, content: string | Buffer): Promise<void> {
  await mkdir(path.dirname(path.join(root, rel)), { recursive: true });
  await writeFile(path.join(root, rel), content);
}

beforeAll(async () => {
  root = await makeTempDir('lwyrm-search-');
  outside = await makeTempDir('lwyrm-search-out-');
  await put('.gitignore', 'build/\n*.log\n');
  await put('src/app.ts', 'export const needle = 1;\nconst other = 2;\n');
  await put('src/lib/util.ts', 'function needle() {}\n// NEEDLE upper\n');
  await put('src/lib/.gitignore', 'generated.ts\n');
  await put('src/lib/generated.ts', 'needle in generated\n');
  await put('src/readme.md', 'a needle in docs\r\n');
  await put('build/out.js', 'needle in build\n');
  await put('debug.log', 'needle in log\n');
  await put('node_modules/pkg/index.js', 'needle in vendored\n');
  await put('.git/config', 'needle in git\n');
  await put('.github/workflows/ci.yml', 'needle: hidden dir\n');
  await put('image.bin', Buffer.concat([Buffer.from('needle'), Buffer.from([0, 1, 2])]));
  await put('secrets/key.txt', 'needle secret\n');
  await writeFile(path.join(outside, 'o.txt'), 'needle outside\n');
  await symlink(outside, path.join(root, 'link-out'));
  await symlink('src/app.ts', path.join(root, 'link-file'));
});

const ctxWith = (opts: Parameters<typeof makeContext>[1] = {}) => makeContext(root, opts);

describe('glob', () => {
  it('matches paths, respects .gitignore at every level, skips vendored folders', async () => {
    const r = await globTool.run({ pattern: '**/*.ts' }, ctxWith());
    expect(r.content).toBe('src/app.ts\nsrc/lib/util.ts');
  });

  it('searches under path and prefixes results so they can be read directly', async () => {
    const r = await globTool.run({ pattern: '*.ts', path: 'src/lib' }, ctxWith());
    expect(r.content).toBe('src/lib/util.ts');
  });

  it('includes dotfolders and caps results with a note', async () => {
    expect((await globTool.run({ pattern: '**/*.yml' }, ctxWith())).content).toBe('.github/workflows/ci.yml');
    for (let i = 0; i < 510; i++) await put(`many/f${String(i).padStart(3, '0')}.txt`, '');
    const r = await globTool.run({ pattern: 'many/*.txt' }, ctxWith());
    expect(r.content.split('\n').filter((l) => l.startsWith('many/'))).toHaveLength(500);
    expect(r.content).toMatch(/\[10 more files not shown \(510 in all\)/);
  });

  it('leaves out binary files unless the pattern names their extension; images stay', async () => {
    await put('art/lib.so', Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0]));
    await put('art/logo.png', Buffer.from([0x89, 0x50]));
    await put('art/notes.txt', 'x');
    const all = await globTool.run({ pattern: 'art/*' }, ctxWith());
    expect(all.content).toBe('art/logo.png\nart/notes.txt\n[1 binary files left out; name the extension in the pattern to list them]');
    expect((await globTool.run({ pattern: 'art/*.so' }, ctxWith())).content).toBe('art/lib.so');
  });

  it('takes the folder of an absolute or ../ pattern as the path (and asks to read outside)', async () => {
    const ctx = ctxWith();
    const abs = await globTool.run({ pattern: `${outside}/*.txt` }, ctx);
    expect(abs.content).toBe(path.join(outside, 'o.txt'));
    expect(ctx.asked.map((a) => [a.kind, a.path])).toEqual([['read', outside]]);
    const up = await globTool.run({ pattern: `../${path.basename(outside)}/**/*.txt` }, ctxWith());
    expect(up.content).toBe(path.join(outside, 'o.txt'));
    const exact = await globTool.run({ pattern: path.join(outside, 'o.txt') }, ctxWith());
    expect(exact.content).toBe(path.join(outside, 'o.txt'));
  });

  it('validates the pattern', async () => {
    expect((await globTool.run({}, ctxWith())).content).toMatch(/missing required argument "pattern"/);
  });
});

const query = (over: Partial<GrepQuery> = {}): GrepQuery => ({
  root,
  base: root,
  baseIsDir: true,
  pattern: 'needle',
  ignoreCase: false,
  excluded: [],
  ...over,
});

describe('grep engines', () => {
  it('the in-process engine finds the same lines ripgrep finds, in the same format', async () => {
    const rg = await ripgrepPath();
    const cases: Partial<GrepQuery>[] = [
      {},
      { ignoreCase: true },
      { glob: '*.md' },
      { base: path.join(root, 'src'), pattern: '^(export|function)' },
      { base: path.join(root, 'src/app.ts'), baseIsDir: false, pattern: 'other' },
      { excluded: [path.join(root, 'secrets')] },
    ];
    for (const c of cases) {
      const own = formatHits((await grepInProcess(query(c))).hits, '');
      if (rg !== undefined) expect(own, JSON.stringify(c)).toEqual(formatHits((await grepWithRipgrep(rg, query(c))).hits, ''));
      expect(own.length, JSON.stringify(c)).toBeGreaterThan(0);
    }
  });

  it('skips ignored, vendored and binary files and never follows links out', async () => {
    const hits = formatHits((await grepInProcess(query())).hits, '');
    expect(hits).toEqual([
      '.github/workflows/ci.yml:1:needle: hidden dir',
      'secrets/key.txt:1:needle secret',
      'src/app.ts:1:export const needle = 1;',
      'src/lib/util.ts:1:function needle() {}',
      'src/readme.md:1:a needle in docs',
    ]);
  });

  it('matches line by line: a match spanning a newline is not a hit, line numbers stay right', async () => {
    await put('span/a.txt', 'alpha\nbeta\n\nalpha  beta\ncafé alpha beta\n');
    const q = query({ base: path.join(root, 'span'), pattern: 'alpha\\s+beta' });
    const own = formatHits((await grepInProcess(q)).hits, '');
    expect(own).toEqual(['a.txt:4:alpha  beta', 'a.txt:5:café alpha beta']);
    const rg = await ripgrepPath();
    if (rg !== undefined) expect(formatHits((await grepWithRipgrep(rg, q)).hits, '')).toEqual(own);
  });

  it('a file named outright is searched whatever its size, or the size is named: never a silent "no matches"', async () => {
    const big = path.join(outside, 'huge.log');
    await writeFile(big, Buffer.concat([Buffer.alloc(21 * 1024 * 1024, 'x\n'), Buffer.from('needle at the end\n')]));
    const q = query({ root: outside, base: big, baseIsDir: false });
    expect((await grepInProcess(q)).error).toMatch(/21\.0 MB, over the 20\.0 MB the built-in search reads; install ripgrep/);
    const rg = await ripgrepPath();
    if (rg !== undefined) expect(formatHits((await grepWithRipgrep(rg, q)).hits, '')).toEqual([':11010049:needle at the end']);
  });

  it('shows a match in a very long (minified) line the same way in both engines', async () => {
    await put('min/bundle.js', `${'é'.repeat(800)}needle${'x'.repeat(300_000)}\nshort needle\n`);
    const q = query({ base: path.join(root, 'min') });
    const own = formatHits((await grepInProcess(q)).hits, '');
    expect(own).toEqual([`bundle.js:1:${'é'.repeat(500)}…`, 'bundle.js:2:short needle']);
    const rg = await ripgrepPath();
    if (rg !== undefined) expect(formatHits((await grepWithRipgrep(rg, q)).hits, '')).toEqual(own);
  });

  it('reports a bad regular expression as an error', async () => {
    const own = await grepInProcess(query({ pattern: '(' }));
    expect(own.error).toMatch(/invalid regular expression/);
  });
});

describe('grep tool', () => {
  it('prints path:line:text sorted, relative to the project root', async () => {
    const r = await grepTool.run({ pattern: 'needle', path: 'src' }, ctxWith());
    expect(r.content).toBe('src/app.ts:1:export const needle = 1;\nsrc/lib/util.ts:1:function needle() {}\nsrc/readme.md:1:a needle in docs');
    expect(r.summary).toBe('3 matches in 3 files');
  });

  it('leaves out folders a read rule does not allow', async () => {
    const policy = makePolicy({ rules: [{ path: path.join(root, 'secrets'), read: 'deny' }] });
    const r = await grepTool.run({ pattern: 'secret' }, ctxWith({ config: { policy } }));
    expect(r.content).not.toContain('needle secret');
  });

  it('leaves out hard-linked files (each may be a file outside the project), saying so', async () => {
    await writeFile(path.join(outside, 'hl-secret.txt'), 'hardneedle outside\n');
    await mkdir(path.join(root, 'hl'), { recursive: true });
    await link(path.join(outside, 'hl-secret.txt'), path.join(root, 'hl', 'innocent.txt'));
    await put('hl/own.txt', 'hardneedle mine\n');
    const r = await grepTool.run({ pattern: 'hardneedle', path: 'hl' }, ctxWith());
    expect(r.content).toBe('hl/own.txt:1:hardneedle mine\n[1 hard-linked files left out: each may be a file outside the project; read_file asks before reading one]');
  });

  it('asks before searching outside the project', async () => {
    const ctx = ctxWith({ answer: 'no' });
    const r = await grepTool.run({ pattern: 'needle', path: 'link-out' }, ctx);
    expect(r.ok).toBe(false);
    expect(ctx.asked[0]?.path).toBe(outside);
  });

  it('caps the lines shown with a note of how many were left out', async () => {
    await put('lots/many.txt', Array.from({ length: 300 }, () => 'hit').join('\n'));
    const r = await grepTool.run({ pattern: 'hit', path: 'lots' }, ctxWith());
    expect(r.content.split('\n').filter((l) => l.startsWith('lots/'))).toHaveLength(250);
    expect(r.content).toMatch(/\[50 more matching lines not shown \(300 in all\)/);
  });

  it('reports an invalid regex as a failed result', async () => {
    const r = await grepTool.run({ pattern: '(unclosed' }, ctxWith());
    expect(r.ok).toBe(false);
    expect(r.content).toMatch(/^grep: /);
  });
});

describe('list_dir', () => {
  it('shows dotfiles, marks folders and symlinks with their target', async () => {
    const r = await listDirTool.run({}, ctxWith());
    const lines = r.content.split('\n');
    expect(lines).toContain('.gitignore');
    expect(lines).toContain('.github/');
    expect(lines).toContain('src/');
    expect(lines).toContain(`link-out -> ${outside}`);
    expect(lines).toContain('link-file -> src/app.ts');
  });

  it('escapes control characters in names', async () => {
    await put('odd/na\x1bme\u202e.txt', '');
    const r = await listDirTool.run({ path: 'odd' }, ctxWith());
    expect(r.content).toBe('na\\x1bme\\u202e.txt');
  });

  it('says when the path is a file', async () => {
    expect((await listDirTool.run({ path: 'src/app.ts' }, ctxWith())).content).toMatch(/is a file/);
  });
});
