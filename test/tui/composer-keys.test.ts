/**
 * The input in a real terminal: the built CLI in tmux (an interactive bash, so Ctrl+Z and `fg`
 * are real job control) against the fake provider. Readline keys, Home/End/Delete, Ctrl+R and
 * history across two runs, bracketed pastes of 1,000 and 5,000 lines as chips sent whole,
 * Ctrl+G with a scripted editor, Ctrl+Z / fg, @ completion over a tree with ignored files and a
 * denied folder, !command, Ctrl+C putting a queued message back, and the real cursor at the caret.
 */
import { execFileSync } from 'node:child_process';
import { chmod, mkdir, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { hasTmux, until as untilOn } from '../support/tmux.js';
import { useBuild } from '../e2e/support/cli.js';
import { startFakeProvider, type FakeProvider, type RecordedRequest } from '../support/fake-provider.js';
import { FAKE_API_KEY, makeSandbox, shellQuote, type Sandbox } from '../support/sandbox.js';

const SOCKET = `lwyrm-keys-${process.pid}`;
const S = 'keys';

function tmux(...args: string[]): string {
  return execFileSync('tmux', ['-L', SOCKET, ...args], { encoding: 'utf8' });
}
const screen = (): string => tmux('capture-pane', '-p', '-t', S);
const until = (what: string, check: () => boolean | Promise<boolean>, timeoutMs?: number): Promise<void> => untilOn(what, check, screen, timeoutMs);
const keys = (...k: string[]): void => void tmux('send-keys', '-t', S, ...k);
const type = (text: string): void => void tmux('send-keys', '-t', S, '-l', text);
/** The input's rows: from the first row that starts with the prompt to the end of the screen. */
const inputText = (): string => {
  const rows = screen().split('\n');
  const at = rows.findIndex((r) => r.startsWith('› '));
  return at < 0 ? '' : rows.slice(at).join('\n').replace(/\s+$/, '');
};
const inputIs = (what: string, expected: string): Promise<void> => until(what, () => inputText() === `› ${expected}`);

/** Every text the model was sent in the newest request. */
function lastRequestText(fake: FakeProvider): string {
  const req = fake.requests.filter((r: RecordedRequest) => r.method === 'POST').at(-1);
  return JSON.stringify(req?.body ?? '');
}

describe.skipIf(!hasTmux)('the input in a real terminal (tmux)', () => {
  const cli = useBuild();
  let fake: FakeProvider;
  let sandbox: Sandbox | undefined;
  let root: string;
  let project: string;
  let answers = 0;
  const lwyrm = (): string => `env -u CI ${sandbox!.shellEnv} VISUAL=${shellQuote(join(root, 'editor.sh'))} TERM=xterm-256color ${shellQuote(process.execPath)} ${shellQuote(cli())}`;

  // Each run prints its own exit marker, so a test knows its lwyrm has gone, not an earlier one.
  let runs = 0;
  let running = false;
  const start = async (): Promise<void> => {
    runs += 1;
    keys('C-l');
    // Through a wrapper shell, as npx or a script would start it: Ctrl+Z must stop the whole job
    // (the marker is printed only when lwyrm has exited, not when it is stopped).
    type(`clear; sh -c ${shellQuote(`${lwyrm()}; echo "__EXIT${runs}=$?"`)}`);
    keys('Enter');
    running = true;
    await until('the header', () => /lindwyrm\s+fake/.test(screen()) && inputText().startsWith('›'));
    // The CLI draws its first frame before the view is live; a key echoed says the input is.
    type('x');
    await inputIs('the input live', 'x');
    keys('BSpace');
    await until('the input empty again', () => inputText().startsWith('› ask, or /help'));
  };
  // The echo's output, with the status: `fg` prints the job's command line, marker included.
  const exited = (): boolean => new RegExp(`__EXIT${runs}=\\d`).test(screen());
  const leave = async (): Promise<void> => {
    keys('C-c');
    keys('C-c');
    await until('the process to exit', () => exited());
    running = false;
  };
  const send = async (text: string): Promise<void> => {
    const before = answers;
    type(text);
    keys('Enter');
    await until(`the answer to ${text.slice(0, 30)}`, () => screen().includes(`answer ${before + 1}.`));
  };

  beforeAll(async () => {
    fake = await startFakeProvider({
      format: 'anthropic',
      replies: (req) => {
        const body = JSON.stringify(req.body);
        // The slow one: long enough to queue a message behind it and stop it.
        if (body.includes('take your time')) return { text: 'slow answer.', delayMs: 30_000 };
        answers += 1;
        return { text: `answer ${answers}.` };
      },
    });
    sandbox = await makeSandbox({ format: 'anthropic', baseUrl: fake.baseUrl, configToml: 'max_retries = 0\n' });
    ({ root, project } = sandbox);
    await writeFile(
      sandbox.configPath,
      `${await readFile(sandbox.configPath, 'utf8')}\n[[policy.rules]]\npath = ${JSON.stringify(join(project, 'secret'))}\nread = "deny"\n`,
    );
    await mkdir(join(project, 'src'), { recursive: true });
    await mkdir(join(project, 'secret'), { recursive: true });
    await mkdir(join(project, 'build'), { recursive: true });
    await writeFile(join(project, '.gitignore'), 'build/\nignored-alpha.txt\n');
    await writeFile(join(project, 'src', 'alpha-file.ts'), 'export const ALPHA_CONTENT = 42;\n');
    await writeFile(join(project, 'src', 'alpine.ts'), 'export const B = 1;\n');
    await writeFile(join(project, 'ignored-alpha.txt'), 'ignored\n');
    await writeFile(join(project, 'build', 'alpha-out.js'), 'built\n');
    await writeFile(join(project, 'secret', 'alpha-key.txt'), 'hidden\n');
    // The scripted editor: appends to the file it is given, as a user typing in it would.
    await writeFile(join(root, 'editor.sh'), '#!/bin/sh\nprintf "%s" " and more from the editor" >> "$1"\n');
    await chmod(join(root, 'editor.sh'), 0o755);
    tmux('new-session', '-d', '-s', S, '-x', '110', '-y', '32', '-c', project, `env -i PATH="$PATH" HOME=${shellQuote(root)} TERM=xterm-256color PS1='$ ' bash --norc --noprofile -i`);
    // capture-pane drops trailing spaces: the prompt "$ " shows as "$".
    await until('the shell', () => /^\$/m.test(screen()));
  });

  // Every test has a lwyrm of its own, so one that fails leaves no state for the next.
  beforeEach(async () => {
    await start();
  }, 90_000);
  afterEach(async () => {
    if (!running) return;
    try {
      await leave();
    } catch {
      // A test that failed may have left a modal or a turn: Ctrl+C until the shell is back.
      for (let i = 0; i < 5 && !exited(); i++) {
        keys('C-c');
        await new Promise((r) => setTimeout(r, 500));
      }
      running = false;
    }
  }, 90_000);

  afterAll(async () => {
    try {
      tmux('kill-server');
    } catch {
      // Already gone.
    }
    await fake?.close();
    await sandbox?.cleanup();
  });

  it('edits like readline: words, kill ring, undo, Home/End in the line, Delete forward', async () => {
    type('alpha beta gamma');
    keys('M-b');
    type('X');
    await inputIs('Alt+B to move back a word', 'alpha beta Xgamma');
    keys('Home');
    type('[');
    keys('End');
    type(']');
    await inputIs('Home / End in the line', '[alpha beta Xgamma]');
    keys('C-Left', 'C-Left');
    type('_');
    await inputIs('Ctrl+← twice', '[alpha _beta Xgamma]');
    keys('M-d');
    await inputIs('Alt+D to kill the next word', '[alpha _ Xgamma]');
    keys('C-y');
    await inputIs('Ctrl+Y to yank it back', '[alpha _beta Xgamma]');
    keys('M-BSpace');
    await inputIs('Alt+Backspace to kill the word before', '[alpha _ Xgamma]');
    keys('C-_');
    await inputIs('Ctrl+_ to undo', '[alpha _beta Xgamma]');
    keys('Home', 'DC');
    await inputIs('Delete to delete forward', 'alpha _beta Xgamma]');
    keys('M-f');
    type('!');
    await inputIs('Alt+F to move forward a word', 'alpha! _beta Xgamma]');
    // Ctrl+W goes back to a space (the shell's unix-word-rubout), unlike Alt+Backspace.
    keys('End', 'C-w', 'C-w');
    await inputIs('Ctrl+W twice', 'alpha!');
    keys('Home', 'C-k');
    await until('Ctrl+K to empty the line', () => inputText().startsWith('› ask, or /help'));
    keys('C-y');
    type('|');
    await inputIs('Ctrl+Y to yank the line back', 'alpha! |');
    // The real cursor sits at the caret: after "alpha! |" on the input row, and is shown.
    await until('the cursor at the caret', () => tmux('display-message', '-p', '-t', S, '#{cursor_x}').trim() === String('› alpha! |'.length));
    const [, y, shown] = tmux('display-message', '-p', '-t', S, '#{cursor_x} #{cursor_y} #{cursor_flag}').trim().split(' ').map(Number);
    expect(screen().split('\n')[y!]).toMatch(/^› alpha! \|/);
    expect(shown).toBe(1);
    keys('C-u');
    await until('the input to empty', () => inputText().startsWith('› ask, or /help'));
  }, 120_000);

  it('keeps the history across runs, redacted and private; Ctrl+R searches it', async () => {
    await send('first prompt one');
    await send(`second prompt two with ${FAKE_API_KEY} in it`);
    await leave();
    const dir = join(root, 'data', 'lindwyrm', 'history');
    const [file] = await readdir(dir);
    const saved = await readFile(join(dir, file!), 'utf8');
    expect(saved).toContain('first prompt one');
    expect(saved).not.toContain(FAKE_API_KEY);
    expect((await stat(join(dir, file!))).mode & 0o777).toBe(0o600);

    await start();
    keys('Up');
    await inputIs('the last prompt of the run before', 'second prompt two with [REDACTED] in it');
    keys('C-u');
    keys('C-r');
    type('one');
    await until('the search to find it', () => screen().includes('reverse-i-search: one') && inputText() === '› first prompt one');
    keys('Enter');
    await until('the match taken into the input', () => !screen().includes('reverse-i-search') && inputText() === '› first prompt one');
    keys('C-u');
  }, 120_000);

  it('takes pastes of 1,000 and 5,000 lines as chips, sends them whole, and keeps typing after them', async () => {
    for (const n of [1000, 5000]) {
      const text = Array.from({ length: n }, (_, i) => `pasted line ${i + 1} of ${n}`).join('\n');
      await writeFile(join(root, 'paste.txt'), text);
      tmux('load-buffer', '-b', 'p', join(root, 'paste.txt'));
      type('see: ');
      tmux('paste-buffer', '-p', '-d', '-b', 'p', '-t', S);
      await until(`the ${n}-line chip`, () => inputText() === `› see: [pasted ${n.toLocaleString('en-US')} lines]`);
      type(' ok');
      await inputIs('typing after the chip', `see: [pasted ${n.toLocaleString('en-US')} lines] ok`);
      const before = answers;
      keys('Enter');
      await until('the answer', () => screen().includes(`answer ${before + 1}.`));
      const body = lastRequestText(fake);
      expect(body).toContain(`pasted line 1 of ${n}`);
      expect(body).toContain(`pasted line ${n} of ${n} ok`);
    }
    // A chip expands with Ctrl+X into its lines, to edit; Backspace on a chip removes it whole.
    await writeFile(join(root, 'paste.txt'), 'one\ntwo\nthree\nfour\nfive');
    tmux('load-buffer', '-b', 'p', join(root, 'paste.txt'));
    tmux('paste-buffer', '-p', '-d', '-b', 'p', '-t', S);
    await inputIs('a small chip', '[pasted 5 lines]');
    keys('BSpace');
    await until('the chip gone whole', () => inputText().startsWith('› ask, or /help'));
    tmux('load-buffer', '-b', 'p', join(root, 'paste.txt'));
    tmux('paste-buffer', '-p', '-d', '-b', 'p', '-t', S);
    await inputIs('the chip again', '[pasted 5 lines]');
    keys('C-x');
    await until('the chip expanded', () => inputText() === '› one\n  two\n  three\n  four\n  five');
    keys('C-_');
    await inputIs('undo puts the chip back', '[pasted 5 lines]');
    keys('BSpace');
  }, 180_000);

  it('opens the prompt in $VISUAL with Ctrl+G and suspends with Ctrl+Z until fg', async () => {
    type('draft');
    keys('C-g');
    await inputIs('the editor’s text back in the input', 'draft and more from the editor');
    expect(tmux('display-message', '-p', '-t', S, '#{alternate_on}').trim()).toBe('1');
    keys('C-u');

    keys('C-z');
    await until('the job stopped', () => /Stopped/.test(screen()) && tmux('display-message', '-p', '-t', S, '#{alternate_on}').trim() === '0');
    type('fg');
    keys('Enter');
    await until('the view back', () => tmux('display-message', '-p', '-t', S, '#{alternate_on}').trim() === '1' && /lindwyrm\s+fake/.test(screen()));
    await send('still working after fg');
  }, 120_000);

  it('completes @ paths fuzzily without ignored or denied files and attaches the file; Tab cycles', async () => {
    type('look at @alp');
    keys('Tab');
    // Two files fit (src/alpha-file.ts, src/alpine.ts): they share "src/alp"; Tab then cycles.
    await inputIs('the shared part', 'look at @src/alp');
    keys('Tab');
    await until('the candidates', () => /Tab: .*\[src\/alp/.test(screen()) && /^› look at @src\/alp(ha-file|ine)\.ts$/.test(inputText()));
    const hint = screen();
    expect(hint).toContain('src/alpha-file.ts');
    expect(hint).toContain('src/alpine.ts');
    expect(hint).not.toContain('ignored-alpha');
    expect(hint).not.toContain('alpha-out');
    expect(hint).not.toContain('alpha-key');
    const first = inputText();
    expect(first).toMatch(/^› look at @src\/alp(ha-file|ine)\.ts$/);
    keys('Tab');
    await until('the next candidate', () => /^› look at @src\/alp(ha-file|ine)\.ts$/.test(inputText()) && inputText() !== first);
    keys('BTab');
    await until('Shift+Tab back', () => inputText() === first);
    keys('C-u');
    type('look at @src/alpha-file.ts');
    const before = answers;
    keys('Enter');
    await until('the answer', () => screen().includes(`answer ${before + 1}.`));
    expect(lastRequestText(fake)).toContain('ALPHA_CONTENT = 42');

    // A denied file mentioned by hand is refused by the policy, not read.
    await send('and @secret/alpha-key.txt');
    const body = lastRequestText(fake);
    expect(body).not.toContain('hidden');
    expect(body).toMatch(/could not be read/);
  }, 120_000);

  it('runs !command without asking and gives its output to the model', async () => {
    type('!echo shell-$((6*7))');
    keys('Enter');
    await until('the output', () => screen().includes('shell-42'));
    expect(screen()).not.toContain('requested');
    await send('what did it print?');
    expect(lastRequestText(fake)).toContain('shell-42');
  }, 120_000);

  it('Ctrl+C during a turn stops it and puts the queued message back into the input', async () => {
    type('take your time');
    keys('Enter');
    await until('the turn to run', () => screen().includes('type ahead'));
    type('queued after it');
    keys('Enter');
    await until('the message queued', () => screen().includes('queued (sent when this turn ends): queued after it'));
    keys('C-c');
    await until('the queued message back', () => inputText() === '› queued after it' && screen().includes('queued message is back'));
    keys('C-u');
    keys('C-l');
    await until('the redraw', () => /lindwyrm\s+fake/.test(screen()));
    await leave();
  }, 120_000);
});
