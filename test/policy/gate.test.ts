import { link, readFile, symlink, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { authorize, decideForPath } from '../../src/policy/gate.js';
import { resolvePath } from '../../src/policy/resolve-path.js';
import { makePolicy } from '../tools/make-config.js';
import { makeContext, makeTempDir } from '../tools/make-context.js';

let root: string;
let outside: string;

beforeAll(async () => {
  root = await makeTempDir('lwyrm-gate-');
  outside = await makeTempDir('lwyrm-gate-out-');
  await mkdir(path.join(root, 'src'));
  await symlink(outside, path.join(root, 'out'));
});

async function ask(ctx: ReturnType<typeof makeContext>, typed: string, kind: 'read' | 'write' | 'delete' = 'write') {
  const resolved = await resolvePath(typed, root);
  return authorize(ctx, { kind, tool: 'write_file', decision: decideForPath(ctx, kind, resolved), path: resolved, summary: `write ${typed}`, diff: '+x\x1b[2J' });
}

describe('authorize', () => {
  it('asks with the real destination and an escaped diff', async () => {
    const ctx = makeContext(root);
    const result = await ask(ctx, 'out/f\u202etxt');
    expect(result.ok).toBe(true);
    expect(ctx.asked[0]?.path).toBe(path.join(outside, 'f\\u202etxt'));
    expect(ctx.asked[0]?.diff).toBe('+x\\x1b[2J');
    expect(ctx.asked[0]?.summary).toBe('write out/f\\u202etxt');
  });

  it('a "no" leaves a clear denial, a "quit" is marked so the turn stops', async () => {
    const no = await ask(makeContext(root, { answer: 'no' }), 'src/a');
    expect(no.ok).toBe(false);
    if (!no.ok) expect(no.result.content).toMatch(/declined/);
    const quit = await ask(makeContext(root, { answer: 'quit' }), 'src/a');
    expect(quit.ok === false && quit.result.quit === true && quit.result.interrupted === true).toBe(true);
  });

  it('[a]lways covers the kind inside the project only', async () => {
    const ctx = makeContext(root, { answer: 'always' });
    await ask(ctx, 'src/a');
    expect(ctx.sessionGrants.has('write')).toBe(true);
    await ask(ctx, 'src/b');
    expect(ctx.asked).toHaveLength(1);
    await ask(ctx, 'out/x');
    expect(ctx.asked).toHaveLength(2);
  });

  it('an [a]lways answered outside the project grants nothing', async () => {
    const ctx = makeContext(root, { answer: 'always' });
    await ask(ctx, 'out/x');
    expect(ctx.sessionGrants.size).toBe(0);
  });

  it('tells the approval whether [a]lways can grant more than this once (not for a hard-linked file)', async () => {
    await writeFile(path.join(root, 'src', 'linked.txt'), 'x');
    await link(path.join(root, 'src', 'linked.txt'), path.join(outside, 'other-name.txt'));
    const ctx = makeContext(root, { answer: 'always' });
    await ask(ctx, 'src/plain');
    const linked = makeContext(root, { answer: 'always' });
    await ask(linked, 'src/linked.txt');
    expect(ctx.asked[0]?.alwaysGrants).toBe(true);
    expect(linked.asked[0]?.alwaysGrants).toBe(false);
    // And it indeed grants nothing there.
    expect(linked.sessionGrants.size).toBe(0);
  });

  it('--allow pre-approves inside, but not a deny rule, nor exec-sensitive files, nor outside', async () => {
    const ctx = makeContext(root, {
      preApproved: ['write'],
      config: { policy: makePolicy({ rules: [{ path: path.join(root, 'locked'), write: 'deny' }] }) },
    });
    expect((await ask(ctx, 'src/a')).ok).toBe(true);
    expect(ctx.asked).toHaveLength(0);
    expect((await ask(ctx, 'locked/a')).ok).toBe(false);
    await ask(ctx, '.git/hooks/pre-commit');
    await ask(ctx, 'out/x');
    expect(ctx.asked.map((r) => r.path)).toEqual([path.join(root, '.git/hooks/pre-commit'), path.join(outside, 'x')]);
  });

  it('--read-only denies writes without asking', async () => {
    const ctx = makeContext(root, { readOnly: true, preApproved: ['write'] });
    const result = await ask(ctx, 'src/a');
    expect(result.ok).toBe(false);
    expect(ctx.asked).toHaveLength(0);
  });

  it('writes decision lines to the audit log without contents', async () => {
    const log = path.join(await makeTempDir('lwyrm-audit-'), 'sub', 'audit.jsonl');
    const ctx = makeContext(root, { answer: 'no', config: { auditLog: log } });
    await ask(ctx, 'src/secret-name');
    const lines = (await readFile(log, 'utf8')).trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ session: 'test-session', tool: 'write_file', event: 'decision', target: path.join(root, 'src/secret-name'), decision: 'confirm', answer: 'no' });
    expect(typeof lines[0]?.['time']).toBe('string');
    expect(JSON.stringify(lines)).not.toContain('\\u001b[2J');
  });
});
