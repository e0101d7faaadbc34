/**
 * The rewind picker in a real terminal: the built CLI inside tmux, against the fake provider. A
 * turn changes files with bash and edit_file; Esc Esc on the empty input lists the turns with the
 * files they changed; Enter previews, Enter restores files and conversation; the prompt is back in
 * the input, and the next request repeats the history the provider saw before it. Needs tmux.
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

const SOCKET = `lwyrm-rewind-${process.pid}`;

function tmux(...args: string[]): string {
  return execFileSync('tmux', ['-L', SOCKET, ...args], { encoding: 'utf8' });
}

const screen = (): string => tmux('capture-pane', '-p', '-t', 'lw');
const until = (what: string, check: () => boolean | Promise<boolean>, timeoutMs?: number): Promise<void> => untilOn(what, check, screen, timeoutMs);
const keys = (...k: string[]): void => void tmux('send-keys', '-t', 'lw', ...k);
const type = (text: string): void => void tmux('send-keys', '-t', 'lw', '-l', text);

type Json = Record<string, unknown>;
const messagesOf = (body: unknown): Json[] =>
  JSON.parse(JSON.stringify((body as Json)['messages']), (key: string, v: unknown) => (key === 'cache_control' ? undefined : v)) as Json[];

describe.skipIf(!hasTmux)('the rewind picker in a real terminal (tmux)', () => {
  const cli = useBuild();
  let fake: FakeProvider;
  let sandbox: Sandbox | undefined;
  const lwyrm = (): string => `env -u CI ${sandbox!.shellEnv} TERM=xterm-256color ${shellQuote(process.execPath)} ${shellQuote(cli())}`;

  beforeAll(async () => {
    fake = await startFakeProvider({
      format: 'anthropic',
      replies: [
        { text: 'Hello.' },
        { toolCalls: [{ name: 'bash', input: { command: "sed -i 's/alpha/ALPHA/' notes.txt && mkdir -p out && echo built > out/result.txt" } }] },
        { toolCalls: [{ name: 'edit_file', input: { path: 'notes.txt', old_string: 'beta', new_string: 'BETA' } }] },
        { text: 'Changed the notes.' },
        { text: 'Second try.' },
      ],
    });
    sandbox = await makeSandbox({ format: 'anthropic', baseUrl: fake.baseUrl, configToml: 'max_retries = 0\n', presetToml: '' });
    await writeFile(join(sandbox.project, 'notes.txt'), 'alpha\nbeta\n');
    await writeFile(sandbox.configPath, (await readFile(sandbox.configPath, 'utf8')).replace('[code_map]', '[policy]\nwrite = "allow"\nbash = "allow"\n\n[code_map]'));
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

  it('Esc Esc lists the turns, Enter previews, Enter restores; the prompt returns and the old prefix is sent again', async () => {
    const project = sandbox!.project;
    tmux('new-session', '-d', '-s', 'lw', '-x', '120', '-y', '32', '-c', project, `${lwyrm()}; echo "__EXIT=$?"; sleep 600`);
    await until('the header', () => screen().includes('fake-model'));

    type('say hello');
    keys('Enter');
    await until('the first answer', () => screen().includes('Hello.'));
    type('change the notes');
    keys('Enter');
    await until('the second answer', () => screen().includes('Changed the notes.'));
    expect(await readFile(join(project, 'notes.txt'), 'utf8')).toBe('ALPHA\nBETA\n');

    // Two presses, as a person makes them (sent together, the terminal reads them as one Alt+Esc).
    keys('Escape');
    await new Promise((resolve) => setTimeout(resolve, 150));
    keys('Escape');
    await until('the picker', () => screen().includes('Rewind: go back to before a prompt (2)'));
    const list = screen();
    expect(list).toMatch(/2 .*change the notes\s+· 3 files \+3 −2/);
    expect(list).toMatch(/1 .*say hello\s+· no file changes/);

    keys('Enter');
    await until('the preview', () => screen().includes('Rewind to before 2: code and conversation'));
    const preview = screen();
    expect(preview).toMatch(/restore\s+notes\.txt \(\+2 −2\)/);
    expect(preview).toMatch(/delete\s+out\/result\.txt/);
    expect(preview).toMatch(/delete\s+out\//);
    expect(preview).toContain('the prompt returns to the input');
    // A preview changes nothing.
    expect(await readFile(join(project, 'notes.txt'), 'utf8')).toBe('ALPHA\nBETA\n');

    keys('Enter');
    await until('the files back', async () => (await readFile(join(project, 'notes.txt'), 'utf8')) === 'alpha\nbeta\n');
    expect(existsSync(join(project, 'out'))).toBe(false);
    await until('the report and the prompt in the input', () => screen().includes('Rewound to before 2') && /›\s*change the notes/.test(screen()));

    const secondTurnStart = messagesOf(fake.requests[1]!.body);
    keys('Escape');
    keys('C-u');
    type('change them differently');
    keys('Enter');
    await until('the new answer', () => screen().includes('Second try.'));
    const again = messagesOf(fake.requests.at(-1)!.body);
    expect(JSON.stringify(again.slice(0, -1))).toBe(JSON.stringify(secondTurnStart.slice(0, -1)));
    expect(JSON.stringify(again.at(-1))).toContain('change them differently');

    // Undo the rewind (checkpoint 3) after a hand edit: the edited file gets its own question.
    await writeFile(join(project, 'notes.txt'), 'by hand\n');
    keys('Escape');
    await new Promise((resolve) => setTimeout(resolve, 150));
    keys('Escape');
    await until('the picker again', () => screen().includes('Rewind: go back to before a prompt (4)'));
    expect(screen()).toMatch(/3 .*↶ rewind to 2: code and conversation\s+· 3 files .*⚠ 1 changed outside lindwyrm since/);
    keys('Down');
    type('c');
    await until('the preview of undoing the rewind', () => screen().includes('Rewind to before 3: code'));
    expect(screen()).toMatch(/restore\s+notes\.txt .*⚠ changed outside lindwyrm since/);
    keys('Enter');
    await until('the question', () => screen().includes('[ ] notes.txt'));
    keys('Enter');
    await until('out/ back', () => existsSync(join(project, 'out/result.txt')));
    await until('the report', () => screen().includes('Rewound to before 3'));
    expect(await readFile(join(project, 'notes.txt'), 'utf8')).toBe('by hand\n');
    expect(screen()).toMatch(/kept\s+notes\.txt: changed outside lindwyrm since/);

    keys('C-c');
    keys('C-c');
    await until('the process to exit', () => screen().includes('__EXIT='));
    expect(screen()).toMatch(/__EXIT=0/);
  }, 180_000);
});
