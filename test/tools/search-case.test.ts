import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { setCaseProbe } from '../../src/policy/case-fold.js';
import { globTool } from '../../src/tools/glob.js';
import { grepInProcess, grepWithRipgrep, ripgrepPath } from '../../src/tools/grep-engines.js';
import { grepTool } from '../../src/tools/grep.js';
import { isScope, openSearch } from '../../src/tools/search-scope.js';
import { makePolicy } from './make-config.js';
import { makeContext, makeTempDir } from './make-context.js';

let root: string;

beforeAll(async () => {
  root = await makeTempDir('lwyrm-case-search-');
  await mkdir(path.join(root, 'secrets'));
  await mkdir(path.join(root, 'src'));
  await writeFile(path.join(root, 'secrets', 'key.txt'), 'needle secret\n');
  await writeFile(path.join(root, 'src', 'a.txt'), 'needle open\n');
});

afterEach(() => setCaseProbe());

// The rule is typed in another case than the folder on disk.
const ctx = () => makeContext(root, { config: { policy: makePolicy({ rules: [{ path: 'Secrets', read: 'deny' }] }) } });

describe('search exclusions on a case-insensitive file system', () => {
  it('glob and grep leave out a denied folder whatever case the rule is typed in', async () => {
    setCaseProbe(() => true);
    expect((await globTool.run({ pattern: '**/*.txt' }, ctx())).content).toBe('src/a.txt');
    expect((await grepTool.run({ pattern: 'needle' }, ctx())).content).toBe('src/a.txt:1:needle open');
  });

  it('both grep engines get the on-disk spelling', async () => {
    setCaseProbe(() => true);
    const scope = await openSearch(ctx(), 'grep', '.', 'grep needle');
    if (!isScope(scope)) throw new Error(scope.content);
    expect(scope.excluded).toEqual([path.join(root, 'secrets')]);
    const query = { root, base: scope.base, baseIsDir: true, pattern: 'needle', ignoreCase: false, excluded: scope.excluded };
    expect((await grepInProcess(query)).hits.map((h) => h.file)).toEqual(['src/a.txt']);
    const rg = await ripgrepPath();
    if (rg !== undefined) expect((await grepWithRipgrep(rg, query)).hits.map((h) => h.file)).toEqual(['src/a.txt']);
  });

  it('on a case-sensitive file system Secrets is another folder, so secrets is searched', async () => {
    setCaseProbe(() => false);
    expect((await globTool.run({ pattern: '**/*.txt' }, ctx())).content).toBe('secrets/key.txt\nsrc/a.txt');
  });
});
