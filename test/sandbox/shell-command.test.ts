/** A wrapped command as one shell line (the editor's terminal over ACP) means the same argv and environment. */
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { asShellCommand } from '../../src/sandbox/shell-command.js';

describe('asShellCommand', () => {
  it('runs the same argv, with the sandbox\'s additions and removals to the environment', () => {
    const base = { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HTTPS_PROXY: 'http://corp:3128', KEEP: 'same' };
    const wrapped = {
      argv: ['/bin/sh', '-c', 'printf "%s|" "$1" "$2" "$TMPDIR" "${HTTPS_PROXY-unset}" "$KEEP"', 'name', "it's a test", '$(echo no)'],
      env: { PATH: base.PATH, KEEP: 'same', TMPDIR: "/tmp/with 'quote'" },
    };
    const out = execFileSync('/bin/sh', ['-c', asShellCommand(wrapped, base)], { env: base, encoding: 'utf8' });
    expect(out).toBe("it's a test|$(echo no)|/tmp/with 'quote'|unset|same|");
  });
});
