import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createOneShotApprover, formatApproval } from '../../src/headless/oneshot-approver.js';
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
});
