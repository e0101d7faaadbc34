/**
 * Config files → the final per-path decision: an untrusted project's [policy] can tighten but never
 * loosen, judged on the decision for a path (through the policy module the tools use).
 */
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load-config.js';
import { decideBashWithFloor } from '../../src/policy/bash-policy.js';
import { decidePathWithFloor } from '../../src/policy/path-policy.js';
import type { Config, PathKind } from '../../src/config/types.js';
import { makeTempEnv, type TempEnv } from './temp-env.js';

let t: TempEnv;
beforeEach(async () => {
  t = await makeTempEnv();
});
afterEach(async () => {
  await t.cleanup();
});

const load = () => loadConfig({ cwd: t.project, env: t.env });
const decide = (c: Config, kind: PathKind, path: string) =>
  decidePathWithFloor(kind, path, c.policy, c.policyFloor, { projectRoot: c.projectRoot, inside: path.startsWith(`${c.projectRoot}/`), home: t.home }).level;

describe('untrusted project policy, decided per path', () => {
  const project = [
    '[policy]',
    'write = "allow"', // looser than the user's confirm: no effect
    'delete = "deny"', // stricter: applies
    'bash = "allow"',
    '[[policy.rules]]',
    'path = "~/.ssh"',
    'read = "allow"', // tries to open the user's keys: no effect
    '[[policy.rules]]',
    'path = "vendor"',
    'write = "deny"', // stricter: applies
  ].join('\n');

  it('keeps the user decisions wherever the project is looser, and takes the stricter ones', async () => {
    await t.writeUser('[[policy.rules]]\npath = "~/.ssh"\nread = "deny"\n');
    await t.writeProject(project);
    const c = await load();
    expect(decide(c, 'write', join(t.project, 'src', 'a.ts'))).toBe('confirm');
    expect(decide(c, 'delete', join(t.project, 'src', 'a.ts'))).toBe('deny');
    expect(decide(c, 'write', join(t.project, 'vendor', 'lib.js'))).toBe('deny');
    expect(decide(c, 'read', join(t.home, '.ssh', 'id_ed25519'))).toBe('deny');
    expect(decideBashWithFloor('ls', c.policy, c.policyFloor).level).toBe('confirm');
  });

  it('applies the same project file in full once the project is trusted', async () => {
    await t.writeUser(`trusted_projects = ["${t.project}"]\n`);
    await t.writeProject(project);
    const c = await load();
    expect(decide(c, 'write', join(t.project, 'src', 'a.ts'))).toBe('allow');
    expect(decideBashWithFloor('ls', c.policy, c.policyFloor).level).toBe('allow');
  });
});
