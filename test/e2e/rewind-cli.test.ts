/**
 * Rewind through the built CLI: a one-shot turn against the fake provider changes the project with
 * bash (sed -i, a Python heredoc writing several files, rm, mv, chmod, mkdir, ln -s) and with
 * edit_file, write_file and delete_file; `lwyrm --rewind` puts every path back byte for byte with
 * its mode, in a git repository (its .git untouched) and in a plain folder. Run `npm run build` first.
 */
import { execFileSync } from 'node:child_process';
import { chmod, mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startFakeProvider, type FakeProvider, type ScriptedReply } from '../support/fake-provider.js';
import type { Sandbox } from '../support/sandbox.js';
import { snapshotTree } from '../rewind/support.js';
import { makeEnv, run, useBuild } from './support/cli.js';

vi.setConfig({ testTimeout: 90_000 });

const cli = useBuild();

const BASH = `sed -i 's/result = 0/result = 1/' prices.py
python3 - <<'EOF'
for name in ("gen_a.txt", "gen_b.txt", "docs/gen_c.md"):
    import os
    os.makedirs(os.path.dirname(name) or ".", exist_ok=True)
    with open(name, "w") as f:
        f.write(f"generated {name}\\n")
EOF
rm gone.txt
mv old.txt moved.txt
chmod 600 run.sh
chmod 700 keep
mkdir -p newdir/sub && echo hi > newdir/sub/x.txt
ln -s prices.py link.py
rm -r olddir`;

function turnReplies(): ScriptedReply[] {
  return [
    { toolCalls: [{ name: 'bash', input: { command: BASH } }] },
    { toolCalls: [{ name: 'edit_file', input: { path: 'notes.txt', old_string: 'first', new_string: 'changed' } }] },
    { toolCalls: [{ name: 'write_file', input: { path: 'made/by/tool.md', content: '# new\n' } }] },
    { toolCalls: [{ name: 'delete_file', input: { path: 'keep/doomed.txt' } }] },
    { text: 'Done.' },
  ];
}

async function populate(project: string): Promise<void> {
  await writeFile(join(project, 'notes.txt'), 'first line\nsecond line\n');
  await writeFile(join(project, 'run.sh'), '#!/bin/sh\necho run\n');
  await chmod(join(project, 'run.sh'), 0o755);
  await writeFile(join(project, 'old.txt'), 'old contents\n');
  await writeFile(join(project, 'gone.txt'), 'soon gone\n');
  await mkdir(join(project, 'keep'));
  await writeFile(join(project, 'keep/doomed.txt'), 'deleted by the tool\n');
  await writeFile(join(project, 'keep/stays.txt'), 'stays\n');
  await mkdir(join(project, 'olddir/inner'), { recursive: true });
  await writeFile(join(project, 'olddir/inner/deep.bin'), Buffer.from([0, 1, 2, 255, 254]));
  await symlink('notes.txt', join(project, 'notes-link'));
}

const GIT_ENV = { GIT_CONFIG_NOSYSTEM: '1', GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@t', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@t' };

function git(project: string, env: NodeJS.ProcessEnv, ...args: string[]): void {
  execFileSync('git', args, { cwd: project, env: { ...env, ...GIT_ENV }, stdio: 'ignore' });
}

describe.each(['a plain folder', 'a git repository'])('lwyrm --rewind in %s', (kind) => {
  let fake: FakeProvider | undefined;
  let e: Sandbox | undefined;

  afterEach(async () => {
    await fake?.close();
    await e?.cleanup();
    fake = e = undefined;
  });

  async function setup(replies: ScriptedReply[]): Promise<Sandbox> {
    fake = await startFakeProvider({ format: 'anthropic', replies });
    e = await makeEnv('anthropic', fake.baseUrl);
    await populate(e.project);
    if (kind === 'a git repository') {
      git(e.project, e.env, 'init', '-q');
      git(e.project, e.env, 'add', '-A');
      git(e.project, e.env, 'commit', '-q', '-m', 'start');
    }
    return e;
  }

  const ALLOW = ['--allow', 'write', '--allow', 'bash', '--allow', 'delete'];

  it('restores every path the turn changed, byte for byte with its mode, and can undo that', async () => {
    const env = await setup(turnReplies());
    const before = await snapshotTree(env.project);
    const turn = await run(cli(), env, ['-p', 'change the project', ...ALLOW]);
    expect(turn.status, turn.stderr).toBe(0);
    const after = await snapshotTree(env.project);
    expect(after['prices.py']).not.toEqual(before['prices.py']);
    expect(after['made/by/tool.md']).toBeDefined();
    expect(after['link.py']).toBe('link prices.py');
    expect(after['olddir']).toBeUndefined();

    const rewound = await run(cli(), env, ['--rewind']);
    expect(rewound.status, rewound.stderr).toBe(0);
    expect(rewound.stdout).toMatch(/Rewound to before 1 \(change the project\)/);
    expect(rewound.stdout).toMatch(/deleted\s+gen_a\.txt/);
    expect(rewound.stdout).toMatch(/recreated olddir\/inner\/deep\.bin/);
    expect(await snapshotTree(env.project)).toEqual(before);

    // The rewind is checkpoint 2: going back to it puts the turn's changes back.
    const redo = await run(cli(), env, ['--rewind', '2']);
    expect(redo.status, redo.stderr).toBe(0);
    expect(await snapshotTree(env.project)).toEqual(after);
  });

  it('an unknown checkpoint is a usage error (exit 2) and changes nothing', async () => {
    const env = await setup([{ toolCalls: [{ name: 'bash', input: { command: 'echo x > new.txt' } }] }, { text: 'ok' }]);
    expect((await run(cli(), env, ['-p', 'one turn', ...ALLOW])).status).toBe(0);
    const now = await snapshotTree(env.project);
    const missing = await run(cli(), env, ['--rewind', '7']);
    expect(missing.status).toBe(2);
    expect(missing.stderr).toMatch(/no checkpoint 7 .*checkpoints 1–1/);
    expect((await run(cli(), env, ['--rewind', 'x'])).status).toBe(2);
    expect(await snapshotTree(env.project)).toEqual(now);
  });

  it('a file edited by hand after the turn is detected and kept; the rest is restored', async () => {
    const env = await setup([{ toolCalls: [{ name: 'bash', input: { command: "sed -i 's/first/agent/' notes.txt && echo made > made.txt" } }] }, { text: 'ok' }]);
    expect((await run(cli(), env, ['-p', 'edit notes', ...ALLOW])).status).toBe(0);
    await writeFile(join(env.project, 'notes.txt'), 'edited by hand\n');
    const rewound = await run(cli(), env, ['--rewind', '1']);
    expect(rewound.status).toBe(1);
    expect(rewound.stdout).toMatch(/kept\s+notes\.txt: changed outside lindwyrm since/);
    expect(rewound.stderr).toMatch(/changed outside lindwyrm since/);
    expect(await readFile(join(env.project, 'notes.txt'), 'utf8')).toBe('edited by hand\n');
    await expect(readFile(join(env.project, 'made.txt'))).rejects.toThrow();
  });
});
