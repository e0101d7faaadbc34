/**
 * Approvals in a real terminal (tmux), at 40x12, 80x24 and 200x60: the built CLI against the fake
 * provider in a temp project and HOME. What is approved is always on screen (every line of a
 * command, numbered; a long diff in the rows the screen gives, line-numbered, Home/End/PgUp/PgDn);
 * a no can carry words to the model; [a]lways grants a prefix the header counts and /policy
 * revokes; [s]ave shows the rule and writes it to the user config; the transcript shows every
 * line of what ran, folded after a few and unfolded with Ctrl+O.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { hasTmux, until as untilOn, endServer } from '../support/tmux.js';
import { useBuild } from '../e2e/support/cli.js';
import { startFakeProvider, type FakeProvider, type ScriptedReply } from '../support/fake-provider.js';
import { makeSandbox, shellQuote, type Sandbox } from '../support/sandbox.js';

const SOCKET = `lwyrm-approvals-${process.pid}`;
const PANE = 'ap';

function tmux(...args: string[]): string {
  return execFileSync('tmux', ['-L', SOCKET, ...args], { encoding: 'utf8' });
}
const screen = (): string => tmux('capture-pane', '-p', '-t', PANE).replace(/\n+$/, '');
const until = (what: string, check: () => boolean | Promise<boolean>, timeoutMs?: number): Promise<void> => untilOn(what, check, screen, timeoutMs);
const keys = (...k: string[]): void => void tmux('send-keys', '-t', PANE, ...k);
const type = (text: string): void => void tmux('send-keys', '-t', PANE, '-l', text);

/** The 41-line script of the report: 40 harmless lines, then the one that matters. */
const SCRIPT = [...Array.from({ length: 40 }, (_, i) => `echo step ${i + 1}`), 'rm -rf ./important-data'].join('\n');

/** The text of every tool_result the model was sent. */
function toolResults(fake: FakeProvider): string {
  return JSON.stringify(fake.requests.map((r) => r.body));
}

describe.skipIf(!hasTmux)('approvals in a real terminal (tmux)', () => {
  const cli = useBuild();
  let fake: FakeProvider | undefined;
  let sandbox: Sandbox | undefined;

  async function launch(columns: number, rows: number, replies: ScriptedReply[]): Promise<{ project: string; sandbox: Sandbox; fake: FakeProvider }> {
    fake = await startFakeProvider({ format: 'anthropic', replies });
    sandbox = await makeSandbox({ format: 'anthropic', baseUrl: fake.baseUrl, configToml: 'max_retries = 0\nsandbox = "off"\n' });
    // Ink stops live rendering when CI is set: unset it for the child.
    const lwyrm = `env -u CI ${sandbox.shellEnv} TERM=xterm-256color ${shellQuote(process.execPath)} ${shellQuote(cli())}`;
    const args = ['new-session', '-d', '-s', PANE, '-x', String(columns), '-y', String(rows), '-c', sandbox.project, `${lwyrm}; echo "__EXIT=$?"; sleep 600`];
    try {
      tmux(...args);
    } catch {
      // The previous test's server may still be going away on this socket ("server exited
      // unexpectedly"): a new one starts once it has.
      await new Promise((r) => setTimeout(r, 1000));
      tmux(...args);
    }
    await until('the input', () => screen().includes('›'));
    return { project: sandbox.project, sandbox, fake };
  }

  afterEach(async () => {
    await endServer(tmux);
    await fake?.close();
    await sandbox?.cleanup();
    fake = undefined;
    sandbox = undefined;
  });

  it('40x12: the whole 41-line command is on the approval, End reaches its last line, and a no with words reaches the model', async () => {
    const { project, fake } = await launch(40, 12, [
      { toolCalls: [{ name: 'bash', input: { command: SCRIPT } }] },
      { text: 'Understood, kept it.' },
    ]);
    await mkdir(join(project, 'important-data'));
    await writeFile(join(project, 'important-data', 'keep.txt'), 'precious\n');
    type('clean up');
    keys('Enter');
    await until('the bash approval', () => screen().includes('BASH requested'));
    const first = screen();
    expect(first.split('\n').length).toBeLessThanOrEqual(12);
    // Numbered lines of the body, what [a]lways grants, and the keys: nothing of it hidden.
    expect(first).toMatch(/ 1 │echo step 1/);
    expect(first).toMatch(/more lines/);
    expect(first).toMatch(/\[a\]lways allows for this session: echo/);
    expect(first).toMatch(/rm -rf \.\/important-data \(exactly\)/);
    expect(first).toMatch(/\[y\]es \[n\]o \[a\]lways \[q\]uit/);

    keys('End');
    await until('the last line of the command', () => /41 │rm -rf \.\/important-data/.test(screen()));
    keys('Home');
    await until('the first line again', () => / 1 │echo step 1/.test(screen()));
    keys('PPage');
    keys('NPage');
    await until('a page down', () => !/ 1 │echo step 1/.test(screen()) && /│echo step \d+/.test(screen()));

    keys('t');
    await until('the reason field', () => screen().includes('Enter send'));
    type('keep important-data, delete only ./tmp');
    await until('the typed reason', () => screen().includes('keep important-data'));
    keys('Enter');
    await until('the answer after the no', () => screen().includes('Understood, kept it.'));
    expect(existsSync(join(project, 'important-data', 'keep.txt'))).toBe(true);
    const sent = toolResults(fake);
    expect(sent).toContain('The user declined this bash');
    expect(sent).toContain('keep important-data, delete only ./tmp');

    // The transcript: the command's lines, folded with a count, at this size too.
    keys('PPage');
    await until('the command in the transcript', () => /… 37 more lines/.test(screen()) || /│ echo step/.test(screen()));
  }, 180_000);

  it('80x24: a 300-line diff fills the modal with numbered lines; [a]lways on seq 1 3 is counted, narrow, and revocable', async () => {
    const big = Array.from({ length: 300 }, (_, i) => `line ${i + 1}`).join('\n') + '\n';
    const changed = big.replace(/^line (\d+)$/gm, (m, n: string) => (Number(n) % 3 === 0 ? `LINE ${n}` : m));
    const { project, sandbox } = await launch(80, 24, [
      { toolCalls: [{ name: 'write_file', input: { path: 'big.txt', content: changed } }] },
      { text: 'Rewrote big.txt.' },
      { toolCalls: [{ name: 'bash', input: { command: 'seq 1 3' } }] },
      { text: 'Counted.' },
      { toolCalls: [{ name: 'bash', input: { command: 'seq 1 3 && echo chained' } }] },
      { text: 'Not chained.' },
      { toolCalls: [{ name: 'bash', input: { command: 'seq 2 4' } }] },
      { text: 'Counted again.' },
    ]);
    await writeFile(join(project, 'big.txt'), big);
    type('rewrite big.txt');
    keys('Enter');
    await until('the write approval', () => screen().includes('WRITE requested'));
    const modal = screen();
    // Old and new line numbers in the gutter, then the sign.
    const numbered = modal.split('\n').filter((l) => /^│(?=[\s\d]*\d)[\s\d]{5,} [-+ ]\S/.test(l));
    // Of 24 rows: the header, two of the transcript and the status line; the rest is the modal,
    // and all of its body but the path, the file names, the hunk and the "more" row is diff.
    expect(numbered.length).toBeGreaterThanOrEqual(8);
    expect(modal).toMatch(/│\s+3\s+-line 3/);
    expect(modal).toMatch(/│\s+3 \+LINE 3/);
    keys('End');
    await until('the end of the diff', () => /300 \+LINE 300/.test(screen()));
    keys('y');
    await until('the file to change', async () => (await readFile(join(project, 'big.txt'), 'utf8')) === changed);
    await until('the answer', () => screen().includes('Rewrote big.txt.'));

    type('count');
    keys('Enter');
    await until('the seq approval', () => screen().includes('BASH requested') && screen().includes('seq 1 3'));
    expect(screen()).toMatch(/\[a\]lways allows for this session: seq …/);
    keys('a');
    await until('the count', () => screen().includes('Counted.'));
    expect(screen()).toMatch(/bash=confirm \+1 always/);

    // A grant never spans && : the chained command is asked again.
    type('chain it');
    keys('Enter');
    await until('the chained approval', () => screen().includes('BASH requested') && screen().includes('echo chained'));
    keys('Escape');
    await until('the no', () => screen().includes('Not chained.'));

    // Within the grant: not asked.
    type('again');
    keys('Enter');
    await until('the second count', () => screen().includes('Counted again.'));
    expect(screen()).not.toContain('BASH requested');

    type('/policy');
    keys('Enter');
    await until('the policy panel', () => screen().includes('granted this session'));
    expect(screen()).toMatch(/1\. bash: seq/);
    keys('Escape');
    type('/policy revoke 1');
    keys('Enter');
    await until('the revocation', () => screen().includes('Revoked bash: seq'));
    await until('the header without the grant', () => /bash=confirm(?! \+)/.test(screen()));
    // Nothing was written to any config: [a]lways is for this session.
    expect(await readFile(sandbox.configPath, 'utf8')).not.toContain('bash_rules');
  }, 180_000);

  it('200x60: every line shows on the modal; [s]ave shows the rule, writes it to the user config, and the transcript folds the command', async () => {
    const command = ['npm test', ...Array.from({ length: 7 }, (_, i) => `echo part ${i + 2}`)].join('\n');
    const { sandbox } = await launch(200, 60, [
      { toolCalls: [{ name: 'bash', input: { command } }] },
      { text: 'Tests ran.' },
    ]);
    type('run the tests');
    keys('Enter');
    await until('the bash approval', () => screen().includes('BASH requested'));
    // The modal: from its top border down.
    const modal = screen().slice(screen().lastIndexOf('╭'));
    for (let i = 2; i <= 8; i++) expect(modal).toMatch(new RegExp(`${i} │echo part ${i}`));
    expect(modal).not.toMatch(/more lines/);
    expect(modal).toMatch(/\[e\]very command: nothing is asked again this session/);
    expect(modal).toMatch(/\[s\]ave/);

    keys('s');
    await until('the rule preview', () => screen().includes('[s]ave appends this to'));
    expect(screen()).toContain(sandbox.configPath);
    expect(screen()).toContain('[[policy.bash_rules]]');
    expect(screen()).toContain('prefix = ["npm", "test"]');
    // Shown, not yet written.
    expect(await readFile(sandbox.configPath, 'utf8')).not.toContain('bash_rules');
    keys('y');
    await until('the answer', () => screen().includes('Tests ran.'));
    const saved = await readFile(sandbox.configPath, 'utf8');
    expect(saved).toContain('[[policy.bash_rules]]\nprefix = ["npm", "test"]');
    expect(saved.startsWith('default_preset = "fake"')).toBe(true);

    const folded = screen();
    expect(folded).toMatch(/1 │ npm test/);
    expect(folded).toMatch(/4 │ echo part 4/);
    expect(folded).not.toMatch(/8 │ echo part 8/);
    expect(folded).toMatch(/… 4 more lines of this command \(Ctrl\+O shows all\)/);
    keys('C-o');
    await until('every line of the command', () => /8 │ echo part 8/.test(screen()));
  }, 180_000);
});
