/**
 * A budget in the real terminal: the built CLI in tmux, against the fake provider, with
 * max_tokens_per_turn set. The turn pauses at the budget with a question in place of the input;
 * "c" goes on with the budget raised once (and the status line shows spend against it), "s" at
 * the next pause stops the turn. Needs tmux and a build.
 */
import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasTmux, until as untilOn } from '../support/tmux.js';
import { useBuild } from '../e2e/support/cli.js';
import { startFakeProvider, type FakeProvider, type ScriptedReply } from '../support/fake-provider.js';
import { makeSandbox, shellQuote, type Sandbox } from '../support/sandbox.js';

const SOCKET = `lwyrm-budget-${process.pid}`;

function tmux(...args: string[]): string {
  return execFileSync('tmux', ['-L', SOCKET, ...args], { encoding: 'utf8' });
}

const screen = (): string => tmux('capture-pane', '-p', '-t', 'lw');
const until = (what: string, check: () => boolean | Promise<boolean>, timeoutMs?: number): Promise<void> => untilOn(what, check, screen, timeoutMs);

const step = (n: number): ScriptedReply => ({ toolCalls: [{ name: 'glob', input: { pattern: `*.step${n}` } }], text: `Looking, step ${n}.`, usage: { input: 600, output: 0 } });

describe.skipIf(!hasTmux)('a budget in the full screen (tmux)', () => {
  const cli = useBuild();
  let fake: FakeProvider;
  let sandbox: Sandbox | undefined;

  beforeAll(async () => {
    fake = await startFakeProvider({ format: 'anthropic', replies: [step(1), step(2), step(3), step(4), { text: 'never sent' }] });
    sandbox = await makeSandbox({ format: 'anthropic', baseUrl: fake.baseUrl, configToml: 'max_retries = 0\nmax_tokens_per_turn = 1000\n' });
  });

  afterAll(async () => {
    try {
      tmux('kill-server');
    } catch {
      // Already gone.
    }
    await fake?.close();
    await sandbox?.cleanup();
  });

  it('asks at the budget: continue raises it once, stop ends the turn', async () => {
    const lwyrm = `env -u CI ${sandbox!.shellEnv} TERM=xterm-256color ${shellQuote(process.execPath)} ${shellQuote(cli())}`;
    tmux('new-session', '-d', '-s', 'lw', '-x', '110', '-y', '30', '-c', sandbox!.project, `${lwyrm}; echo "__EXIT=$?"; sleep 600`);
    await until('the header', () => /lindwyrm\s+fake \(anthropic, fake-model\)/.test(screen()));

    tmux('send-keys', '-t', 'lw', '-l', 'look around');
    tmux('send-keys', '-t', 'lw', 'Enter');
    await until('the budget question', () => screen().includes('Budget reached'));
    let shown = screen();
    expect(shown).toContain('This turn was billed 1,200 tokens');
    expect(shown).toContain('reaching max_tokens_per_turn (1,000)');
    expect(shown).toContain('[c] continue (up to 2,000 tokens for this turn) (Enter)');
    expect(shown).toContain('[s] stop the turn');
    // Two requests so far; the third waits on the answer.
    expect(fake.requests).toHaveLength(2);
    expect(shown).toMatch(/turn 1,200\/1,000 tok/);

    tmux('send-keys', '-t', 'lw', 'c');
    await until('the budget raised', () => screen().includes('Going on: max_tokens_per_turn raised up to 2,000 tokens'));
    await until('the second pause', () => screen().includes('reaching max_tokens_per_turn (2,000)'));
    expect(fake.requests).toHaveLength(4);
    shown = screen();
    expect(shown).toMatch(/turn 2,400\/2,000 tok/);

    tmux('send-keys', '-t', 'lw', 's');
    await until('the turn to stop', () => /Stopped at a budget/.test(screen()) && !screen().includes('[s] stop the turn'));
    expect(fake.requests).toHaveLength(4);
    // The input is back.
    tmux('send-keys', '-t', 'lw', '-l', 'typed after');
    await until('the input to take keys', () => screen().includes('typed after'));

    tmux('send-keys', '-t', 'lw', 'C-c');
    tmux('send-keys', '-t', 'lw', 'C-c');
    await until('the process to exit', () => screen().includes('__EXIT='));
    expect(screen()).toMatch(/__EXIT=0/);
  }, 180_000);
});
