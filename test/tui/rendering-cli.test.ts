/**
 * The real terminal, through tmux, with the built CLI against the fake provider: the last answer
 * left on the normal screen is rendered (a table drawn, headings and code styled, paragraphs
 * wrapped to the terminal), Ctrl+O shows the reasoning in full while it is still streaming, and
 * the context meter reads what /context reads after /clear and after resuming from /sessions.
 * Needs tmux (`.ci/run` installs it) and a build (`npm run build`).
 */
import { execFileSync } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { hasTmux, until as untilOn, endServer } from '../support/tmux.js';
import { useBuild } from '../e2e/support/cli.js';
import { startFakeProvider, type FakeProvider, type ScriptedReply } from '../support/fake-provider.js';
import { makeSandbox, shellQuote, type Sandbox } from '../support/sandbox.js';

const SOCKET = `lwyrm-render-${process.pid}`;

function tmux(...args: string[]): string {
  return execFileSync('tmux', ['-L', SOCKET, ...args], { encoding: 'utf8' });
}

const screen = (...flags: string[]): string => tmux('capture-pane', '-p', ...flags, '-t', 'lw');
const until = (what: string, check: () => boolean | Promise<boolean>, timeoutMs?: number): Promise<void> => untilOn(what, check, () => screen(), timeoutMs);
const keys = (...k: string[]): void => void tmux('send-keys', '-t', 'lw', ...k);
const type = (text: string): void => {
  keys('-l', text);
  keys('Enter');
};

const PARAGRAPH = Array.from({ length: 30 }, (_, i) => `word${i}`).join(' ');
const ANSWER = [
  '## Prices',
  '',
  PARAGRAPH,
  '',
  '| Item | Qty |',
  '|------|----:|',
  '| apple | 3 |',
  '| pear | 12 |',
  '',
  '```python',
  'def total(items):',
  '    return sum(items)',
  '```',
].join('\n');

describe.skipIf(!hasTmux)('rendering in a real terminal (tmux)', () => {
  const cli = useBuild();
  let fake: FakeProvider | undefined;
  let sandbox: Sandbox | undefined;

  afterEach(async () => {
    await endServer(tmux);
    await fake?.close();
    await sandbox?.cleanup();
    fake = sandbox = undefined;
  });

  async function launch(replies: ScriptedReply[], args = '', columns = 80, envVars = ''): Promise<void> {
    fake = await startFakeProvider({ format: 'anthropic', replies });
    sandbox = await makeSandbox({ format: 'anthropic', baseUrl: fake.baseUrl, configToml: 'max_retries = 0\n' });
    // Ink stops live rendering when CI is set: unset it for the child.
    const lwyrm = `env -u CI -u NO_COLOR ${sandbox.shellEnv} ${envVars} TERM=xterm-256color ${shellQuote(process.execPath)} ${shellQuote(cli())} ${args}`;
    tmux('new-session', '-d', '-s', 'lw', '-x', String(columns), '-y', '30', '-c', sandbox.project, `${lwyrm}; echo "__EXIT=$?"; sleep 600`);
    await until('the header', () => screen().includes('fake (anthropic, fake-model)'));
  }

  it('leaves the last answer rendered on the normal screen: table drawn, heading styled, paragraph wrapped', async () => {
    await launch([{ text: ANSWER }]);
    type('what are the prices?');
    await until('the answer', () => screen().includes('pear'));
    keys('C-c');
    await until('the first Ctrl+C', () => screen().includes('Press Ctrl+C again'));
    keys('C-c');
    await until('the exit', () => screen().includes('__EXIT='));
    expect(tmux('display-message', '-p', '-t', 'lw', '#{alternate_on}').trim()).toBe('0');
    // -J joins the terminal's own soft wraps: what is left split was wrapped by lwyrm, at words.
    const joined = screen('-J');
    expect(joined).toMatch(/┌─+┬─+┐/);
    expect(joined).toMatch(/│ apple +│ +3 │/);
    expect(joined).toMatch(/│ pear +│ +12 │/);
    expect(joined).not.toMatch(/\|-+\|/);
    expect(joined).not.toContain('## Prices');
    expect(joined).toContain('╭─ python');
    expect(joined).toContain('│ def total(items):');
    const paragraph = joined.split('\n').filter((l) => /^word\d/.test(l));
    expect(paragraph.length).toBeGreaterThan(1);
    for (const line of paragraph) expect(line.length).toBeLessThanOrEqual(80);
    expect(paragraph.join(' ').split(/\s+/)).toEqual(PARAGRAPH.split(' '));
    // Styled, not raw: the heading carries SGR attributes on the normal screen too.
    const styled = screen('-e', '-J');
    const headingLine = styled.split('\n').find((l) => l.includes('Prices') && !l.includes('what are'));
    // eslint-disable-next-line no-control-regex -- an SGR sequence before the heading's text
    expect(headingLine).toMatch(/\x1b\[[0-9;]*m.*Prices/);
    // Highlighted with the code map's Python grammar, which the CLI hands to the view: `def` a
    // keyword (magenta), `total` a function name (blue).
    // eslint-disable-next-line no-control-regex -- SGR sequences are what is being read
    const codeLine = styled.split('\n').find((l) => l.replace(/\x1b\[[0-9;]*m/g, '').includes('def total(items)')) ?? '';
    // eslint-disable-next-line no-control-regex -- SGR sequences are what is being read
    expect(codeLine).toMatch(/\x1b\[[0-9;]*35[0-9;]*m(\x1b\[[0-9;]*m)*def/);
    // eslint-disable-next-line no-control-regex -- SGR sequences are what is being read
    expect(codeLine).toMatch(/\x1b\[[0-9;]*34[0-9;]*m(\x1b\[[0-9;]*m)*total/);
    expect(joined).toMatch(/lwyrm --resume \S+/);
  }, 120_000);

  it('under NO_COLOR draws the whole screen without a colour, keeping bold for emphasis', async () => {
    /** The SGR parameters on the pane: colours are 30-37, 38, 40-47, 48, 90-97, 100-107. */
    const colours = (text: string): string[] =>
      // eslint-disable-next-line no-control-regex -- SGR sequences are what is being read
      [...text.matchAll(/\x1b\[([0-9;]*)m/g)].flatMap((m) => m[1]!.split(';')).filter((p) => /^(3[0-8]|4[0-8]|9[0-7]|10[0-7])$/.test(p));
    for (const noColor of [false, true]) {
      await launch([{ text: ANSWER }, { toolCalls: [{ name: 'write_file', input: { path: 'n.txt', content: 'x\n' } }] }], '', 80, noColor ? 'NO_COLOR=1' : '');
      type('what are the prices?');
      await until('the answer', () => screen().includes('return sum(items)'));
      type('write it down');
      await until('the approval', () => screen().includes('WRITE requested'));
      const painted = screen('-e');
      if (noColor) {
        expect(colours(painted)).toEqual([]);
        // Bold is still used (keywords, headings, the approval's keys).
        // eslint-disable-next-line no-control-regex -- SGR sequences are what is being read
        expect([...painted.matchAll(/\x1b\[([0-9;]*)m/g)].some((m) => m[1]!.split(';').includes('1'))).toBe(true);
      } else {
        // The same screen with colour allowed is coloured: the check above can fail.
        expect(colours(painted).length).toBeGreaterThan(0);
      }
      await endServer(tmux);
      await fake?.close();
      await sandbox?.cleanup();
      fake = sandbox = undefined;
    }
  }, 180_000);

  it('Ctrl+O shows the reasoning in full while it is still streaming, and hides it again', async () => {
    const thinking = Array.from({ length: 40 }, (_, i) => `considering option ${i + 1}\n`).join('');
    await launch([{ thinking, text: 'Chose option 40.', chunkDelayMs: 60 }], '--thinking');
    type('pick one');
    await until('the reasoning pane', () => screen().includes('┌ thinking…'));
    keys('C-o');
    const shown = (): number => (screen().match(/│ considering option \d+/g) ?? []).length;
    await until('the full reasoning, growing', () => screen().includes('▾ reasoning (Ctrl+O hides)') && shown() > 4);
    const during = screen();
    // Still streaming: the answer has not started, and the pane with its tail is gone.
    expect(during).not.toContain('Chose option 40.');
    expect(during).not.toContain('┌ thinking');
    expect(during).toContain('│ considering option 1\n');
    keys('C-o');
    await until('the pane again', () => screen().includes('┌ thinking…') || screen().includes('thought for'));
    expect(screen()).not.toContain('▾ reasoning');
  }, 120_000);

  it('the meter reads what /context reads after /clear and after resuming from /sessions', async () => {
    await launch([{ text: 'An answer with a handful of words in it, so the history is not empty.', usage: { input: 2_000, output: 40 } }], '', 120);
    const meterTokens = (): number | undefined => {
      const m = /% of 200k · compaction at \d+% \(([\d,]+) tokens/.exec(screen());
      return m ? Number(m[1]!.replaceAll(',', '')) : undefined;
    };
    const contextTokens = async (): Promise<number> => {
      type('/context');
      await until('the /context panel', () => /\/context/.test(screen()) && /% of 200,000/.test(screen()));
      const m = /% of 200,000 · compaction at \d+% +\(([\d,]+) tokens/.exec(screen())!;
      keys('Escape');
      await until('the panel to close', () => !/% of 200,000/.test(screen()));
      return Number(m[1]!.replaceAll(',', ''));
    };

    type('a question');
    await until('the turn to end', () => screen().includes('─ finished'));
    expect(meterTokens()).toBe(await contextTokens());

    type('/clear');
    await until('the new session', () => screen().includes('New session'));
    const cleared = meterTokens();
    expect(cleared).toBeGreaterThan(0);
    expect(cleared).toBe(await contextTokens());

    type('/sessions');
    await until('the sessions panel', () => screen().includes('Sessions of this project'));
    // The newest first is the cleared one; the one with the answer is below it.
    keys('Down');
    keys('Enter');
    await until('the resumed transcript', () => screen().includes('handful of words'));
    const resumed = meterTokens();
    expect(resumed).toBeGreaterThan(cleared!);
    expect(resumed).toBe(await contextTokens());
  }, 180_000);
});
