import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createOneShotApprover, formatApproval, TYPE_AHEAD_MS } from '../../src/headless/oneshot-approver.js';
import type { ApprovalRequest } from '../../src/policy/types.js';

const edit: ApprovalRequest = {
  id: 'a1',
  kind: 'write',
  tool: 'edit_file',
  path: '/p/prices.py',
  diff: '@@ -1,2 +1,1 @@\n-a\n+b\n',
  summary: 'edit prices.py (+1 -1)',
  reason: 'default write=confirm',
};

function sink(): PassThrough & { text: () => string } {
  const s = new PassThrough() as PassThrough & { text: () => string };
  let t = '';
  s.on('data', (c: Buffer) => (t += c.toString()));
  s.text = () => t;
  return s;
}

describe('one-shot approvals', () => {
  it('asks on a terminal, shows the diff, re-asks on a bad answer and takes a', async () => {
    const stdin = new PassThrough();
    const stderr = sink();
    const a = createOneShotApprover({ stdin, stderr, interactive: true });
    const decision = a.approver(edit);
    stdin.write('maybe\n');
    stdin.write('a\n');
    await expect(decision).resolves.toBe('always');
    expect(stderr.text()).toContain('WRITE requested: edit prices.py (+1 -1)');
    // The diff with its line numbers: old, new, then the line itself.
    expect(stderr.text()).toContain('    1   -a\n');
    expect(stderr.text()).toContain('      1 +b\n');
    expect(stderr.text().match(/Allow\? \[y\]es/g)).toHaveLength(2);
    expect(a.takeDenialNote()).toBeUndefined();
  });

  it('treats the end of input as no, and close() as quit', async () => {
    const stdin = new PassThrough();
    const a = createOneShotApprover({ stdin, stderr: sink(), interactive: true });
    const first = a.approver(edit);
    stdin.end();
    await expect(first).resolves.toBe('no');
    const stdin2 = new PassThrough();
    const b = createOneShotApprover({ stdin: stdin2, stderr: sink(), interactive: true });
    const second = b.approver({ ...edit, kind: 'bash', command: 'rm -rf build', diff: undefined });
    b.close();
    await expect(second).resolves.toBe('quit');
  });

  it('denies without a terminal, names what would allow it, and leaves a note for the model once', async () => {
    const stderr = sink();
    const a = createOneShotApprover({ stdin: new PassThrough(), stderr, interactive: false });
    await expect(a.approver({ ...edit, kind: 'bash', command: 'make', summary: 'run make' })).resolves.toBe('no');
    expect(stderr.text()).toMatch(/denied run make .*--allow bash, or add the command to bash_allowlist/);
    expect(a.takeDenialNote()).toMatch(/could not be approved/);
    expect(a.takeDenialNote()).toBeUndefined();
  });

  it('formats a command approval line by line', () => {
    const text = formatApproval({ ...edit, kind: 'bash', diff: undefined, path: undefined, command: 'echo a\necho b' });
    expect(text).toContain('    $ echo a\n    $ echo b');
  });

  it('never takes keys typed before the prompt opened as the answer', async () => {
    const stdin = new PassThrough();
    const stderr = sink();
    // Typed while the model was still thinking: already waiting when the question opens.
    stdin.write('y\n');
    const a = createOneShotApprover({ stdin, stderr, interactive: true });
    let settled = false;
    const decision = a.approver(edit).then((d) => ((settled = true), d));
    await new Promise((r) => setTimeout(r, 50));
    expect(settled).toBe(false);
    stdin.write('n\n');
    await expect(decision).resolves.toBe('no');
  });

  it('on a terminal, drops what the terminal held when raw mode took over, and only then asks', async () => {
    const stdin = Object.assign(new PassThrough(), { isTTY: true, isRaw: false, modes: [] as boolean[], setRawMode(mode: boolean) { this.modes.push(mode); this.isRaw = mode; return this; } });
    const stderr = sink();
    const a = createOneShotApprover({ stdin, stderr, interactive: true });
    let settled = false;
    const decision = a.approver(edit).then((d) => ((settled = true), d));
    // Typed before the question: the terminal hands it over when raw mode starts.
    stdin.write('y\r');
    expect(stderr.text()).not.toContain('Allow?');
    await new Promise((r) => setTimeout(r, TYPE_AHEAD_MS + 60));
    expect(settled).toBe(false);
    // Asked only now, so what was dropped was typed before the question was on screen.
    expect(stderr.text()).toContain('Allow? [y]es / [n]o / [a]lways (write) / [q]uit: ');
    stdin.write('nx\x7f\r');
    await expect(decision).resolves.toBe('no');
    expect(stdin.modes).toEqual([true, false]);
  });

  it('n with words is a no that carries them to the model; e and s answer what they say', async () => {
    const bash: ApprovalRequest = { ...edit, kind: 'bash', tool: 'bash', path: undefined, diff: undefined, command: 'seq 1 3', summary: 'run seq 1 3', every: true, always: { grants: [{ text: 'seq …', exact: false }], refused: [] } };
    const run = async (lines: string[], request: ApprovalRequest = bash) => {
      const stdin = new PassThrough();
      const stderr = sink();
      const a = createOneShotApprover({ stdin, stderr, interactive: true });
      const d = a.approver(request);
      for (const line of lines) stdin.write(`${line}\n`);
      return { decision: await d, text: stderr.text() };
    };
    expect((await run(['n use make test instead'])).decision).toEqual({ decision: 'no', note: 'use make test instead' });
    const every = await run(['e']);
    expect(every.decision).toBe('every');
    expect(every.text).toContain('a = allow for this session: seq …');
    expect(every.text).toContain('e = every command this session');
    expect(every.text).toContain('Allow? [y]es / [n]o / [a]lways (as above) / [q]uit: ');
    const save = await run(['s', 'y'], { ...bash, save: { file: '/home/u/.config/lindwyrm/config.toml', block: '[[policy.bash_rules]]\nprefix = ["seq"]\n' } });
    expect(save.decision).toBe('save');
    expect(save.text).toContain('    prefix = ["seq"]');
    expect(save.text).toContain('Append this to /home/u/.config/lindwyrm/config.toml?');
  });

  it('without a terminal, the denial on stderr shows the whole command, escaped', async () => {
    const stderr = sink();
    const a = createOneShotApprover({ stdin: new PassThrough(), stderr, interactive: false });
    const command = 'echo step 1\necho step 2\nrm -rf \\x1b[2J~/important-data';
    await a.approver({ ...edit, kind: 'bash', command, summary: 'run echo step 1 (3 lines)', diff: undefined, path: undefined });
    expect(stderr.text()).toContain('    $ echo step 1\n    $ echo step 2\n    $ rm -rf \\x1b[2J~/important-data\n');
  });
});

