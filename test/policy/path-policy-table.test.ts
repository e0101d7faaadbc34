/** The policy resolution table: real dirs, real links, rules three deep, floor-stricter-wins. */
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Level, PathKind, PathRule, PolicySettings } from '../../src/config/types.js';
import { decidePathWithFloor } from '../../src/policy/path-policy.js';
import { resolvePath } from '../../src/policy/resolve-path.js';
import { makePolicy } from '../tools/make-config.js';
import { makeTempDir } from '../tools/make-context.js';

let root: string;
let outside: string;

beforeAll(async () => {
  root = await makeTempDir('lwyrm-table-');
  outside = await makeTempDir('lwyrm-table-out-');
  await mkdir(path.join(root, 'a/b/c'), { recursive: true });
  await mkdir(path.join(root, '.git/hooks'), { recursive: true });
  await mkdir(path.join(outside, 'docs/private'), { recursive: true });
  await writeFile(path.join(root, 'a/b/c/f.txt'), 'x');
  await symlink(path.join(root, 'a/b/c'), path.join(root, 'to-c'));
  await symlink(outside, path.join(root, 'to-out'));
  await symlink(path.join(root, 'a'), path.join(outside, 'back-in'));
});

type Rule = { at: string; read?: Level; write?: Level; delete?: Level };
interface Row {
  readonly name: string;
  readonly kind: PathKind;
  readonly path: string;
  readonly rules?: Rule[];
  readonly policy?: Partial<PolicySettings>;
  readonly floor?: { rules?: Rule[]; policy?: Partial<PolicySettings> };
  readonly expect: Level;
  readonly alwaysAsk?: boolean;
}

// Three nested levels; each row varies which level sets what.
const nest = (a: Level, b: Level, c: Level, kind: PathKind = 'write'): Rule[] => [
  { at: 'R/a', [kind]: a },
  { at: 'R/a/b', [kind]: b },
  { at: 'R/a/b/c', [kind]: c },
];

const rows: Row[] = [
  // defaults inside
  { name: 'default read inside', kind: 'read', path: 'a/b/c/f.txt', expect: 'allow' },
  { name: 'default write inside', kind: 'write', path: 'a/b/c/f.txt', expect: 'confirm' },
  { name: 'default delete inside', kind: 'delete', path: 'a/b/c/f.txt', expect: 'confirm' },
  { name: 'global write=allow inside', kind: 'write', path: 'a/new.txt', policy: { write: 'allow' }, expect: 'allow' },
  { name: 'global write=deny inside', kind: 'write', path: 'a/new.txt', policy: { write: 'deny' }, expect: 'deny' },
  // three deep, deepest wins
  { name: 'nested allow/confirm/deny at c', kind: 'write', path: 'a/b/c/f.txt', rules: nest('allow', 'confirm', 'deny'), expect: 'deny' },
  { name: 'nested allow/confirm/deny at b', kind: 'write', path: 'a/b/g.txt', rules: nest('allow', 'confirm', 'deny'), expect: 'confirm' },
  { name: 'nested allow/confirm/deny at a', kind: 'write', path: 'a/g.txt', rules: nest('allow', 'confirm', 'deny'), expect: 'allow' },
  { name: 'nested deny/confirm/allow at c', kind: 'write', path: 'a/b/c/f.txt', rules: nest('deny', 'confirm', 'allow'), expect: 'allow' },
  { name: 'nested deny/confirm/allow at b', kind: 'write', path: 'a/b/x', rules: nest('deny', 'confirm', 'allow'), expect: 'confirm' },
  { name: 'nested deny/confirm/allow at a', kind: 'write', path: 'a/x', rules: nest('deny', 'confirm', 'allow'), expect: 'deny' },
  { name: 'nested confirm/deny/allow at c', kind: 'write', path: 'a/b/c/new/deeper.txt', rules: nest('confirm', 'deny', 'allow'), expect: 'allow' },
  { name: 'nested confirm/allow/deny at b', kind: 'write', path: 'a/b/y', rules: nest('confirm', 'allow', 'deny'), expect: 'allow' },
  { name: 'nested read deny at c', kind: 'read', path: 'a/b/c/f.txt', rules: nest('allow', 'allow', 'deny', 'read'), expect: 'deny' },
  { name: 'nested read allow at c over deny at a', kind: 'read', path: 'a/b/c/f.txt', rules: nest('deny', 'deny', 'allow', 'read'), expect: 'allow' },
  { name: 'nested delete confirm at b', kind: 'delete', path: 'a/b/z', rules: nest('allow', 'confirm', 'deny', 'delete'), expect: 'confirm' },
  { name: 'nested delete allow at a', kind: 'delete', path: 'a/z', rules: nest('allow', 'confirm', 'deny', 'delete'), expect: 'allow' },
  { name: 'rule for another kind is skipped', kind: 'delete', path: 'a/b/c/f.txt', rules: nest('deny', 'deny', 'deny', 'write'), expect: 'confirm' },
  { name: 'rule with prefix name does not match sibling', kind: 'write', path: 'a/bb/f', rules: [{ at: 'R/a/b', write: 'deny' }], expect: 'confirm' },
  { name: 'later rule on the same path wins', kind: 'write', path: 'a/f', rules: [{ at: 'R/a', write: 'deny' }, { at: 'R/a', write: 'allow' }], expect: 'allow' },
  // through links
  { name: 'link into c hits c rule', kind: 'write', path: 'to-c/f.txt', rules: nest('allow', 'allow', 'deny'), expect: 'deny' },
  { name: 'link into c read deny', kind: 'read', path: 'to-c/f.txt', rules: [{ at: 'R/a/b/c', read: 'deny' }], expect: 'deny' },
  { name: 'link out of project: read outside', kind: 'read', path: 'to-out/docs/x.md', expect: 'confirm', alwaysAsk: true },
  { name: 'link out of project: write under write=allow', kind: 'write', path: 'to-out/x', policy: { write: 'allow' }, expect: 'confirm', alwaysAsk: true },
  { name: 'link out and back in lands inside', kind: 'write', path: 'to-out/back-in/b/c/f.txt', rules: nest('allow', 'allow', 'deny'), expect: 'deny' },
  { name: 'dotdot out of the project', kind: 'read', path: '../elsewhere', expect: 'confirm' },
  // outside the project
  { name: 'read outside default confirm', kind: 'read', path: 'O/docs/readme', expect: 'confirm' },
  { name: 'read outside with read_outside=allow', kind: 'read', path: 'O/docs/readme', policy: { readOutside: 'allow' }, expect: 'allow' },
  { name: 'read outside held to read_outside=deny', kind: 'read', path: 'O/docs/readme', policy: { readOutside: 'deny' }, expect: 'deny' },
  { name: 'read outside: global read=deny stays deny', kind: 'read', path: 'O/docs/readme', policy: { read: 'deny', readOutside: 'confirm' }, expect: 'deny' },
  { name: 'read outside: path rule allow wins', kind: 'read', path: 'O/docs/readme', rules: [{ at: 'O/docs', read: 'allow' }], expect: 'allow' },
  { name: 'read outside: nested deny in allowed folder', kind: 'read', path: 'O/docs/private/k', rules: [{ at: 'O/docs', read: 'allow' }, { at: 'O/docs/private', read: 'deny' }], expect: 'deny' },
  { name: 'write outside under global allow asks', kind: 'write', path: 'O/f', policy: { write: 'allow' }, expect: 'confirm' },
  { name: 'delete outside under global allow asks', kind: 'delete', path: 'O/f', policy: { delete: 'allow' }, expect: 'confirm' },
  { name: 'write outside allowed by a path rule', kind: 'write', path: 'O/docs/f', rules: [{ at: 'O/docs', write: 'allow' }], expect: 'allow' },
  { name: 'write outside global deny', kind: 'write', path: 'O/f', policy: { write: 'deny' }, expect: 'deny' },
  // files that run code
  { name: '.git/hooks under write=allow', kind: 'write', path: '.git/hooks/pre-commit', policy: { write: 'allow' }, expect: 'confirm', alwaysAsk: true },
  { name: '.git/config under a rule allow', kind: 'write', path: '.git/config', rules: [{ at: 'R', write: 'allow' }], expect: 'confirm', alwaysAsk: true },
  { name: '.lindwyrm.toml under write=allow', kind: 'write', path: '.lindwyrm.toml', policy: { write: 'allow' }, expect: 'confirm' },
  { name: '.lindwyrm/ plugin under write=allow', kind: 'write', path: '.lindwyrm/plugins/x.js', policy: { write: 'allow' }, expect: 'confirm' },
  { name: 'nested .envrc delete under allow', kind: 'delete', path: 'a/.envrc', policy: { delete: 'allow' }, expect: 'confirm' },
  { name: '.vscode/tasks.json under write=allow', kind: 'write', path: '.vscode/tasks.json', policy: { write: 'allow' }, expect: 'confirm' },
  { name: '.husky hook under write=allow', kind: 'write', path: '.husky/pre-push', policy: { write: 'allow' }, expect: 'confirm' },
  { name: 'workflow under write=allow', kind: 'write', path: '.github/workflows/ci.yml', policy: { write: 'allow' }, expect: 'confirm' },
  { name: '.GIT/hooks (case-insensitive disks) under write=allow', kind: 'write', path: '.GIT/hooks/pre-commit', policy: { write: 'allow' }, expect: 'confirm', alwaysAsk: true },
  { name: '.Lindwyrm.TOML under write=allow', kind: 'write', path: '.Lindwyrm.TOML', policy: { write: 'allow' }, expect: 'confirm' },
  { name: '.GitHub/Workflows under write=allow', kind: 'write', path: '.GitHub/Workflows/ci.yml', policy: { write: 'allow' }, expect: 'confirm' },
  { name: 'a shell rc file outside under a rule write=allow', kind: 'write', path: 'O/home/.bashrc', rules: [{ at: 'O/home', write: 'allow' }], expect: 'confirm', alwaysAsk: true },
  { name: '~/.ssh/authorized_keys under a rule write=allow', kind: 'write', path: 'O/home/.ssh/authorized_keys', rules: [{ at: 'O/home', write: 'allow' }], expect: 'confirm' },
  { name: "lindwyrm's user config under a rule write=allow", kind: 'write', path: 'O/home/.config/lindwyrm/config.toml', rules: [{ at: 'O/home', write: 'allow' }], expect: 'confirm' },
  { name: 'an ordinary file beside them is allowed by the rule', kind: 'write', path: 'O/home/notes.txt', rules: [{ at: 'O/home', write: 'allow' }], expect: 'allow' },
  { name: '.git deny rule still denies', kind: 'write', path: '.git/config', rules: [{ at: 'R/.git', write: 'deny' }], expect: 'deny' },
  { name: 'reading .git is ordinary', kind: 'read', path: '.git/config', expect: 'allow' },
  { name: 'package.json is ordinary', kind: 'write', path: 'package.json', policy: { write: 'allow' }, expect: 'allow' },
  // policyFloor: the stricter whole decision wins
  { name: 'floor deny beats narrower project allow', kind: 'write', path: 'a/b/c/f.txt', rules: [{ at: 'R/a/b/c', write: 'allow' }], floor: { rules: [{ at: 'R/a', write: 'deny' }] }, expect: 'deny' },
  { name: 'project deny beats floor allow', kind: 'write', path: 'a/f', rules: [{ at: 'R/a', write: 'deny' }], floor: { policy: { write: 'allow' } }, expect: 'deny' },
  { name: 'project global allow vs floor confirm', kind: 'write', path: 'a/f', policy: { write: 'allow' }, floor: { policy: { write: 'confirm' } }, expect: 'confirm' },
  { name: 'floor allow, project confirm', kind: 'delete', path: 'a/f', floor: { policy: { delete: 'allow' } }, expect: 'confirm' },
  { name: 'both allow', kind: 'write', path: 'a/f', policy: { write: 'allow' }, floor: { policy: { write: 'allow' } }, expect: 'allow' },
  { name: 'project read_outside=allow vs floor confirm', kind: 'read', path: 'O/docs/x', policy: { readOutside: 'allow' }, floor: {}, expect: 'confirm' },
  { name: 'floor read deny through link', kind: 'read', path: 'to-c/f.txt', rules: [{ at: 'R/a/b/c', read: 'allow' }], floor: { rules: [{ at: 'R/a/b', read: 'deny' }] }, expect: 'deny' },
];

function toRules(rules: Rule[] | undefined): PathRule[] {
  return (rules ?? []).map(({ at, ...levels }) => ({
    path: at.startsWith('R') ? root + at.slice(1) : at.startsWith('O') ? outside + at.slice(1) : at,
    ...levels,
  }));
}

describe('path policy resolution table', () => {
  it('has at least 40 rows', () => {
    expect(rows.length).toBeGreaterThanOrEqual(40);
  });

  it.each(rows)('$name → $expect', async (row) => {
    const typed = row.path.startsWith('O/') ? outside + row.path.slice(1) : row.path;
    const resolved = await resolvePath(typed, root);
    const policy = makePolicy({ ...row.policy, rules: toRules(row.rules) });
    const floor = row.floor === undefined ? undefined : makePolicy({ ...row.floor.policy, rules: toRules(row.floor.rules) });
    const decision = decidePathWithFloor(row.kind, resolved.realPath, policy, floor, {
      projectRoot: resolved.root,
      inside: resolved.inside,
      multiLinked: resolved.multiLinked,
    });
    expect(decision.level, decision.reason).toBe(row.expect);
    if (row.alwaysAsk !== undefined) expect(decision.alwaysAsk ?? false).toBe(row.alwaysAsk);
  });
});
