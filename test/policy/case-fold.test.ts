import { link, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { foldCase, isCaseInsensitive, isWithinFolded, onDiskSpelling, probeCaseInsensitive, probeSpelling, setCaseProbe, withRootSpelling } from '../../src/policy/case-fold.js';
import { decideForPath } from '../../src/policy/gate.js';
import { resolvePath } from '../../src/policy/resolve-path.js';
import { displayPath } from '../../src/tools/path-access.js';
import type { PathRule } from '../../src/config/types.js';
import { makePolicy } from '../tools/make-config.js';
import { makeContext, makeTempDir } from '../tools/make-context.js';

let root: string;
let outside: string;

beforeAll(async () => {
  root = await makeTempDir('lwyrm-case-');
  outside = await makeTempDir('lwyrm-case-out-');
  await mkdir(path.join(root, 'secrets'));
  await writeFile(path.join(root, 'secrets', 'key'), 'k');
  await writeFile(path.join(root, '.env'), 'TOKEN=1');
  await mkdir(path.join(outside, 'keys'));
});

afterEach(() => setCaseProbe());

const rules: PathRule[] = [
  { path: 'secrets', read: 'deny', write: 'deny' },
  { path: '.env', read: 'deny' },
];

async function decide(typed: string, kind: 'read' | 'write' = 'read', extra: PathRule[] = []) {
  const ctx = makeContext(root, { config: { policy: makePolicy({ rules: [...rules, ...extra] }) } });
  const resolved = await resolvePath(typed, root);
  return { resolved, decision: decideForPath(ctx, kind, resolved) };
}

describe('the real case probe', () => {
  it('says case-sensitive for a temp dir on this (Linux) file system, writing nothing', async () => {
    if (process.platform !== 'linux') return;
    const dir = await makeTempDir('lwyrm-probe-');
    await writeFile(path.join(dir, 'Readme'), 'x');
    expect(probeCaseInsensitive(dir)).toBe(false);
    // An empty folder with no letters in its name falls back to its parents' names.
    const digits = path.join(dir, '1234');
    await mkdir(digits);
    expect(probeCaseInsensitive(digits)).toBe(false);
    expect(probeCaseInsensitive(root)).toBe(false);
  });

  it('flips ASCII letters only, which every case-insensitive file system folds', () => {
    // A non-ASCII case pair the disk's own tables may not fold (Ꟁ/ꟁ are Unicode 14; APFS, HFS+
    // and NTFS froze older tables) would answer "case-sensitive" on a disk that ignores case, and
    // a cloned tree chooses the names the probe reads first.
    expect(probeSpelling('Readme.md')).toBe('rEADME.MD');
    expect(probeSpelling('Ꟁꟁ-x')).toBe('Ꟁꟁ-X');
    for (const name of ['Ꟁꟁ', 'ß', 'ǅ', 'ı', 'Σσ', 'Ⰰ', '1234', '.-_']) expect(probeSpelling(name), name).toBeUndefined();
  });

  it('is not fooled by two spellings that are two files, nor by a hard-linked pair', async () => {
    const dir = await makeTempDir('lwyrm-probe-');
    await writeFile(path.join(dir, 'Abc'), 'one');
    await writeFile(path.join(dir, 'aBC'), 'two');
    expect(probeCaseInsensitive(dir)).toBe(false);
    const linked = await makeTempDir('lwyrm-probe-');
    await writeFile(path.join(linked, 'Xyz'), 'same');
    await link(path.join(linked, 'Xyz'), path.join(linked, 'xYZ'));
    expect(probeCaseInsensitive(linked)).toBe(process.platform === 'darwin' || process.platform === 'win32');
  });

  it('is asked once per root', async () => {
    const seen: string[] = [];
    setCaseProbe((r) => {
      seen.push(r);
      return false;
    });
    expect(isCaseInsensitive(root)).toBe(false);
    await resolvePath('secrets/key', root);
    await resolvePath('src/x', root);
    expect(isCaseInsensitive(outside)).toBe(false);
    expect(seen).toEqual([root, outside]);
  });
});

describe('path rules on a case-insensitive file system', () => {
  it.each([
    ['SECRETS/key', 'read'],
    ['Secrets/KEY', 'write'],
    ['.ENV', 'read'],
    ['.Env', 'read'],
    // Letters the disk folds that lower case alone keeps apart (long s, final sigma).
    ['\u017fecrets/key', 'read'],
    ['\u017fECRETS/key', 'write'],
  ] as const)('%s is denied like its lower-case twin', async (typed, kind) => {
    setCaseProbe(() => true);
    expect((await decide(typed, kind)).decision.level).toBe('deny');
  });

  it('case-sensitive file systems keep exact comparison: SECRETS is another folder', async () => {
    setCaseProbe(() => false);
    expect((await decide('SECRETS/key')).decision.level).toBe('allow');
    expect((await decide('secrets/key')).decision.level).toBe('deny');
  });

  it('a rule typed in another case than the folder on disk still applies', async () => {
    setCaseProbe(() => true);
    const { decision } = await decide('secrets/key', 'write', [{ path: 'Private', write: 'deny' }]);
    expect(decision.level).toBe('deny'); // the secrets rule
    expect((await decide('private/x', 'write', [{ path: 'Private', write: 'deny' }])).decision.level).toBe('deny');
    expect((await decide(path.join(outside, 'KEYS', 'id'), 'read', [{ path: path.join(outside, 'keys'), read: 'deny' }])).decision.level).toBe('deny');
  });

  it('the project root typed in another case is still the project', async () => {
    setCaseProbe(() => true);
    const typed = path.join(root.toUpperCase(), 'SRC', 'a.ts');
    const { resolved, decision } = await decide(typed, 'write');
    expect(resolved.inside).toBe(true);
    expect(resolved.realPath).toBe(path.join(root, 'SRC', 'a.ts'));
    expect(displayPath(resolved)).toBe(path.join('SRC', 'a.ts'));
    expect(decision.reason).not.toMatch(/outside/);
    expect((await decide(path.join(root.toUpperCase(), 'SECRETS', 'key'))).decision.level).toBe('deny');
  });

  it('outside the project the path\'s own file system decides (code on a case-sensitive volume, home not)', async () => {
    setCaseProbe((dir) => dir === outside || dir.startsWith(outside + path.sep));
    const keys = [{ path: path.join(outside, 'keys'), read: 'deny' as const }];
    expect((await decide(path.join(outside, 'KEYS', 'id'), 'read', keys)).decision.level).toBe('deny');
    expect((await decide(path.join(outside, 'Keys'), 'read', keys)).decision.level).toBe('deny');
    // The project's own rules still compare exactly on its case-sensitive disk.
    expect((await decide('SECRETS/key')).decision.level).toBe('allow');
  });

  it('always-ask files stay asked about in any case', async () => {
    setCaseProbe(() => true);
    for (const typed of ['.GIT/hooks/pre-commit', '.Envrc', '.VSCode/tasks.json', '.v\u017fcode/tasks.json', '.hu\u017fky/pre-commit']) {
      const { decision } = await decide(typed, 'write');
      expect(decision, typed).toMatchObject({ level: 'confirm', alwaysAsk: true });
    }
  });
});

describe('case folding helpers', () => {
  it('compares by components, folded or not', () => {
    expect(isWithinFolded('/a/B/c', '/a/b', true)).toBe(true);
    expect(isWithinFolded('/a/B/c', '/a/b', false)).toBe(false);
    expect(isWithinFolded('/a/bc', '/a/b', true)).toBe(false);
    expect(foldCase('Cafe\u0301')).toBe(foldCase('CAF\u00c9'));
    expect(foldCase('\u017fecret')).toBe(foldCase('SECRET'));
    expect(foldCase('\u03c3\u03bf\u03c6\u03bf\u03c2')).toBe(foldCase('\u03a3\u039f\u03a6\u039f\u03a3'));
    expect(foldCase('Stra\u00dfe')).toBe(foldCase('STRASSE'));
    expect(withRootSpelling('/X/proj/a', '/x/Proj')).toBe('/x/Proj/a');
    expect(withRootSpelling('/x/other/a', '/x/Proj')).toBe('/x/other/a');
  });

  it('finds the on-disk spelling of a rule path below a folder', () => {
    expect(onDiskSpelling(path.join(root, 'SECRETS', 'Key'), root)).toBe(path.join(root, 'secrets', 'key'));
    expect(onDiskSpelling(path.join(root, 'SECRETS', 'new', 'x'), root)).toBe(path.join(root, 'secrets', 'new', 'x'));
  });
});
