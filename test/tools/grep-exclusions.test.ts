/**
 * A folder a read rule denies is left out of grep with either engine, whatever characters its name
 * holds: ripgrep reads exclusions as globs, so a name with [ ] { } * ? or a backslash must reach it
 * as a literal, not as a pattern that matches other names (or none).
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { formatHits } from '../../src/tools/grep.js';
import { grepInProcess, grepWithRipgrep, ripgrepPath, type GrepQuery } from '../../src/tools/grep-engines.js';
import { grepTool } from '../../src/tools/grep.js';
import { makePolicy } from './make-config.js';
import { makeContext, makeTempDir } from './make-context.js';

const ODD = ['private [old]', 'keys{a,b}', 'star*dir', 'q?x', 'back\\slash', 'bang!'];

let root: string;
beforeAll(async () => {
  root = await makeTempDir('lwyrm-grep-ex-');
  for (const name of ODD) {
    await mkdir(path.join(root, name));
    await writeFile(path.join(root, name, 'secret.txt'), 'needle secret\n');
  }
  // Names the glob forms would match instead: [old] matches "o", * matches "stardir"…
  for (const name of ['private o', 'stardir', 'qzx', 'keysa']) {
    await mkdir(path.join(root, name));
    await writeFile(path.join(root, name, 'open.txt'), 'needle open\n');
  }
});

const expected = ['keysa/open.txt:1:needle open', 'private o/open.txt:1:needle open', 'qzx/open.txt:1:needle open', 'stardir/open.txt:1:needle open'];

describe('grep exclusions with odd folder names', () => {
  it('both engines leave out exactly the excluded folders', async () => {
    const query: GrepQuery = { root, base: root, baseIsDir: true, pattern: 'needle', ignoreCase: false, excluded: ODD.map((n) => path.join(root, n)) };
    expect(formatHits((await grepInProcess(query)).hits, '').sort()).toEqual(expected);
    const rg = await ripgrepPath();
    if (rg !== undefined) expect(formatHits((await grepWithRipgrep(rg, query)).hits, '').sort()).toEqual(expected);
  });

  it('the grep tool does not show a denied folder with [ ] in its name', async () => {
    const rules = ODD.map((name) => ({ path: name, read: 'deny' as const }));
    const r = await grepTool.run({ pattern: 'needle' }, makeContext(root, { config: { policy: makePolicy({ rules }) } }));
    expect(r.content).not.toContain('secret');
    expect(r.content.split('\n').sort()).toEqual(expected);
  });
});
