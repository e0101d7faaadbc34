/**
 * Keys typed before the full-screen view is loaded, in a real terminal (tmux) with the built CLI:
 * the view's chunk is held back (test/support/hold-view.mjs) until the test lets it load, so what
 * shows meanwhile is the early input's own echo. Text and Backspace (a character split across two
 * reads included) are echoed into the first frame's input; an arrow, more text, a bracketed paste
 * and Enter wait for the view; once it is up, the prompt the fake provider receives is exactly
 * what was typed. Ctrl+C before the view leaves at once, the normal screen back.
 * Needs tmux (`.ci/run` installs it) and a build (`npm run build`).
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { hasTmux, until as untilOn, endServer } from '../support/tmux.js';
import { useBuild } from '../e2e/support/cli.js';
import { startFakeProvider, type FakeProvider } from '../support/fake-provider.js';
import { makeSandbox, shellQuote, type Sandbox } from '../support/sandbox.js';

const SOCKET = `lwyrm-early-${process.pid}`;
const HOLD_VIEW = resolve('test/support/hold-view.mjs');

function tmux(...args: string[]): string {
  return execFileSync('tmux', ['-L', SOCKET, ...args], { encoding: 'utf8' });
}

const screen = (): string => tmux('capture-pane', '-p', '-t', 'lw');
const until = (what: string, check: () => boolean | Promise<boolean>, timeoutMs?: number): Promise<void> => untilOn(what, check, screen, timeoutMs);
const keys = (...k: string[]): void => void tmux('send-keys', '-t', 'lw', ...k);
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
/** The input's row: the pane's last line. */
const inputRow = (): string => screen().trimEnd().split('\n').at(-1) ?? '';

describe.skipIf(!hasTmux)('keys typed before the view is loaded (tmux)', () => {
  const cli = useBuild();
  let fake: FakeProvider | undefined;
  let sandbox: Sandbox | undefined;

  afterEach(async () => {
    await endServer(tmux);
    await fake?.close();
    await sandbox?.cleanup();
    fake = sandbox = undefined;
  });

  /** Starts lwyrm with its view held back; returns the function that lets the view load. */
  async function launch(): Promise<() => void> {
    fake = await startFakeProvider({ format: 'anthropic', replies: [{ text: 'early-reply-marker' }] });
    sandbox = await makeSandbox({ format: 'anthropic', baseUrl: fake.baseUrl, configToml: 'max_retries = 0\n' });
    const gate = join(sandbox.root, 'view-gate');
    const lwyrm = `env -u CI -u NO_COLOR ${sandbox.shellEnv} LWYRM_TEST_VIEW_GATE=${shellQuote(gate)} TERM=xterm-256color ${shellQuote(process.execPath)} --import ${shellQuote(HOLD_VIEW)} ${shellQuote(cli())}`;
    tmux('new-session', '-d', '-s', 'lw', '-x', '100', '-y', '30', '-c', sandbox.project, `${lwyrm}; echo "__EXIT=$?"; sleep 600`);
    await until('the early first frame', () => screen().includes('fake (anthropic, fake-model)'));
    return () => writeFileSync(gate, '');
  }

  it('echoes text at once, and the prompt sent once the view is up is exactly what was typed', async () => {
    const letViewLoad = await launch();
    keys('-l', 'fix the bugs');
    keys('BSpace');
    keys('-l', ' ');
    // é as its two UTF-8 bytes, in two separate writes to the terminal.
    keys('-H', 'c3');
    await sleep(150);
    keys('-H', 'a9');
    await until('the early echo', () => inputRow() === '› fix the bug é');
    expect(screen()).toContain('starting…');

    // Not echoed before the view: they wait for it, in order.
    keys('Left');
    keys('-l', 'X');
    tmux('set-buffer', '-b', 'early', 'PASTED');
    tmux('paste-buffer', '-p', '-b', 'early', '-t', 'lw');
    keys('Enter');
    await sleep(300);
    expect(inputRow()).toBe('› fix the bug é');
    expect(fake!.requests).toHaveLength(0);

    letViewLoad();
    await until('the reply', () => screen().includes('early-reply-marker'));
    const body = fake!.requests[0]?.body as { messages: { role: string; content: { type: string; text?: string }[] | string }[] };
    const last = body.messages.at(-1)!;
    const text = typeof last.content === 'string' ? last.content : last.content.map((c) => c.text ?? '').join('');
    expect(text).toBe('fix the bug XPASTEDé');
    expect(screen().match(/fix the bug XPASTEDé/g)).toHaveLength(1);
    await until('the input empty again', () => inputRow() === '› ask, or /help');
  }, 120_000);

  it('leaves at once on Ctrl+C before the view is up, the normal screen back', async () => {
    await launch();
    keys('-l', 'abc');
    await until('the early echo', () => inputRow() === '› abc');
    keys('C-c');
    await until('the process to exit', () => screen().includes('__EXIT='), 10_000);
    expect(screen()).toMatch(/__EXIT=130/);
    expect(tmux('display-message', '-p', '-t', 'lw', '#{alternate_on}').trim()).toBe('0');
  }, 60_000);
});
