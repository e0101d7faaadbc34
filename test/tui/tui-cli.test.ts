/**
 * The real terminal: the built CLI (`node dist/cli.js`) runs inside tmux against the fake provider,
 * in a temp project with a temp HOME and XDG dirs. The test types a task, answers the diff modal
 * with y and sees the file change on disk and the answer on screen, answers the next approval with
 * n and sees the denial, then leaves with Ctrl+C twice and checks the process exited and the
 * normal screen is back. Needs tmux (`.ci/run` installs it) and a build (`npm run build`).
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasTmux, until as untilOn } from '../support/tmux.js';
import { useBuild } from '../e2e/support/cli.js';
import { startFakeProvider, type FakeProvider } from '../support/fake-provider.js';
import { makeSandbox, shellQuote, type Sandbox } from '../support/sandbox.js';

const SOCKET = `lwyrm-tui-${process.pid}`;
const ORIGINAL = 'def total(items):\n    result = 0\n    for item in items:\n        result = result + item["price"]\n    return result\n';
const REWRITTEN = 'def total(items):\n    return sum(item["price"] for item in items)\n';

function tmux(...args: string[]): string {
  return execFileSync('tmux', ['-L', SOCKET, ...args], { encoding: 'utf8' });
}

const screen = (): string => tmux('capture-pane', '-p', '-t', 'lw');

const until = (what: string, check: () => boolean | Promise<boolean>, timeoutMs?: number): Promise<void> =>
  untilOn(what, check, screen, timeoutMs);

describe.skipIf(!hasTmux)('lwyrm in a real terminal (tmux)', () => {
  const cli = useBuild();
  let fake: FakeProvider;
  let sandbox: Sandbox | undefined;
  let root: string;
  let project: string;
  // Ink stops live rendering when CI is set: unset it for the child.
  const lwyrm = (): string => `env -u CI ${sandbox!.shellEnv} TERM=xterm-256color ${shellQuote(process.execPath)} ${shellQuote(cli())}`;

  beforeAll(async () => {
    fake = await startFakeProvider({
      format: 'anthropic',
      replies: [
        {
          toolCalls: [
            { name: 'edit_file', input: { path: 'prices.py', old_string: ORIGINAL.slice(18), new_string: REWRITTEN.slice(18) } },
          ],
        },
        { text: 'Rewrote total() as a one-line sum.' },
        { toolCalls: [{ name: 'write_file', input: { path: 'notes.txt', content: 'hello\n' } }] },
        { text: 'Understood, I left notes.txt alone.' },
      ],
    });
    sandbox = await makeSandbox({ format: 'anthropic', baseUrl: fake.baseUrl, configToml: 'max_retries = 0\n' });
    ({ root, project } = sandbox);
    await writeFile(join(project, 'prices.py'), ORIGINAL);
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

  it('approves an edit with y, denies a write with n, and leaves with Ctrl+C twice', async () => {
    const command = `${lwyrm()}; echo "__EXIT=$?"; sleep 600`;
    tmux('new-session', '-d', '-s', 'lw', '-x', '100', '-y', '30', '-c', project, command);

    await until('the header', () => /lindwyrm\s+fake \(anthropic, fake-model\)/.test(screen()));
    expect(tmux('display-message', '-p', '-t', 'lw', '#{alternate_on}').trim()).toBe('1');

    tmux('send-keys', '-t', 'lw', '-l', 'rewrite total() as a sum');
    tmux('send-keys', '-t', 'lw', 'Enter');
    await until('the edit approval', () => screen().includes('WRITE requested'));
    const modal = screen();
    expect(modal).toContain(join(project, 'prices.py'));
    expect(modal).toContain('+    return sum(item["price"] for item in items)');
    expect(modal).toContain('[y]es');

    tmux('send-keys', '-t', 'lw', 'y');
    await until('the file to change', async () => (await readFile(join(project, 'prices.py'), 'utf8')) === REWRITTEN);
    await until('the answer', () => screen().includes('Rewrote total() as a one-line sum.'));

    tmux('send-keys', '-t', 'lw', '-l', 'also write some notes');
    tmux('send-keys', '-t', 'lw', 'Enter');
    await until('the write approval', () => screen().includes('WRITE requested') && screen().includes('notes.txt'));
    tmux('send-keys', '-t', 'lw', 'n');
    await until('the denial', () => /⊘|denied/i.test(screen()) && screen().includes('left notes.txt alone'));
    expect(existsSync(join(project, 'notes.txt'))).toBe(false);

    tmux('send-keys', '-t', 'lw', 'C-c');
    await until('the first Ctrl+C to register', () => screen().includes('Press Ctrl+C again to leave'));
    tmux('send-keys', '-t', 'lw', 'C-c');
    await until('the process to exit', () => screen().includes('__EXIT='));
    const after = screen();
    expect(after).toMatch(/__EXIT=0/);
    expect(tmux('display-message', '-p', '-t', 'lw', '#{alternate_on}').trim()).toBe('0');
    // The last answer and how to resume stay on the normal screen, in the scrollback.
    expect(after).toContain('Understood, I left notes.txt alone.');
    expect(after).toMatch(/lwyrm --resume \S+/);
  }, 180_000);

  it('keeps keys typed before the view is up, and restores the screen on SIGTERM right at the first frame', async () => {
    const pidFile = join(root, 'early.pid');
    const start = `echo $$ > ${shellQuote(pidFile)}; exec ${lwyrm()}`;
    const session = (n: number): string => `early${n}`;
    const pane = (n: number): string => tmux('capture-pane', '-p', '-t', session(n));
    const launch = (n: number): void => {
      // The shell waits for a key, so the test decides when lwyrm starts.
      tmux('new-session', '-d', '-s', session(n), '-x', '100', '-y', '30', '-c', project, `read _; sh -c ${shellQuote(start)}; echo "__EXIT=$?"; sleep 600`);
      tmux('send-keys', '-t', session(n), 'Enter');
    };

    // Typed while lwyrm is still starting: nothing is echoed over the frame, nothing is lost.
    launch(1);
    tmux('send-keys', '-t', session(1), '-l', 'typed early');
    await until('the early keys in the input', () => /› typed early/.test(pane(1)));
    expect(pane(1)).toMatch(/lindwyrm\s+fake \(anthropic, fake-model\)/);
    expect(pane(1).match(/typed early/g)).toHaveLength(1);

    // SIGTERM the moment the header shows, before or just after the view has taken over.
    launch(2);
    const deadline = Date.now() + 30_000;
    while (!pane(2).includes('fake-model')) {
      if (Date.now() > deadline) throw new Error(`no header; screen:\n${pane(2)}`);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    const pid = Number((await readFile(pidFile, 'utf8')).trim());
    process.kill(pid, 'SIGTERM');
    await until('the process to exit', () => pane(2).includes('__EXIT='));
    expect(pane(2)).toMatch(/__EXIT=143/);
    expect(tmux('display-message', '-p', '-t', session(2), '#{alternate_on}').trim()).toBe('0');
  }, 120_000);
});
