/** When bash_in_sandbox = "allow" turns a confirm into an allow, and when it must not. */
import { describe, expect, it } from 'vitest';
import { decideInSandbox, namedAlwaysAskFile } from '../../src/sandbox/bash-in-sandbox.js';
import type { SandboxSettings } from '../../src/config/types.js';

const allow: SandboxSettings = { mode: 'auto', writable: [], network: [], bashInSandbox: 'allow' };
const confirm = { level: 'confirm' as const, reason: 'bash=confirm' };
const opts = (command: string, over: Partial<Parameters<typeof decideInSandbox>[1]> = {}) => ({
  command,
  settings: allow,
  sandboxed: true,
  projectRoot: '/work/app',
  home: '/home/u',
  ...over,
});

describe('decideInSandbox', () => {
  it('allows a confirm when sandboxed and opted in', () => {
    expect(decideInSandbox(confirm, opts('npm test')).level).toBe('allow');
  });

  it('leaves it alone unsandboxed, without the opt-in, for denials and for always-ask', () => {
    expect(decideInSandbox(confirm, opts('npm test', { sandboxed: false })).level).toBe('confirm');
    expect(decideInSandbox(confirm, opts('npm test', { settings: { ...allow, bashInSandbox: 'confirm' } })).level).toBe('confirm');
    expect(decideInSandbox({ level: 'deny', reason: 'denylist: rm' }, opts('rm -rf x')).level).toBe('deny');
    expect(decideInSandbox({ ...confirm, alwaysAsk: true }, opts('ls')).level).toBe('confirm');
  });

  it.each(['echo x >> .git/config', 'cp evil .git/hooks/pre-commit', 'vim .envrc', 'echo >~/.bashrc', 'sed -i s/a/b/ .github/workflows/ci.yml'])(
    'still asks for %j, which names an always-ask file',
    (command) => {
      const d = decideInSandbox(confirm, opts(command));
      expect(d.level).toBe('confirm');
      expect(d.reason).toContain('makes other programs run code');
    },
  );

  it('finds the file name inside redirections and options', () => {
    expect(namedAlwaysAskFile('git --git-dir=.git log', '/work/app', '/home/u')).toBe('.git');
    expect(namedAlwaysAskFile('npm run build', '/work/app', '/home/u')).toBeUndefined();
  });
});
