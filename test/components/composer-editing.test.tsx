/**
 * The composer's shell-like editing through the real app (ink-testing-library): readline keys,
 * the kill ring and undo, Tab cycling over slash commands and @ paths, pasted chips, Ctrl+R.
 */
import { describe, expect, it } from 'vitest';
import { FakeEngine, initialState } from './fake-engine.js';
import { KEYS, renderApp, settle } from './render-app.js';

const input = (frame: string): string => frame.split('\n').find((row) => row.startsWith('› '))?.trimEnd() ?? '';
const PASTE = (text: string): string => `\x1b[200~${text}\x1b[201~`;

describe('the composer edits like a shell', () => {
  it('moves and kills by words, yanks and undoes', async () => {
    const r = renderApp();
    await r.type('alpha beta gamma', '\x1bb', 'X');
    expect(input(r.frame())).toBe('› alpha beta Xgamma');
    await r.type(KEYS.home, '[', KEYS.end, ']');
    expect(input(r.frame())).toBe('› [alpha beta Xgamma]');
    await r.type('\x1b[1;5D', '\x1b[1;5D', '_');
    expect(input(r.frame())).toBe('› [alpha _beta Xgamma]');
    await r.type('\x1bd');
    expect(input(r.frame())).toBe('› [alpha _ Xgamma]');
    await r.type('\x19');
    expect(input(r.frame())).toBe('› [alpha _beta Xgamma]');
    await r.type('\x1b\x7f');
    expect(input(r.frame())).toBe('› [alpha _ Xgamma]');
    await r.type('\x1f');
    expect(input(r.frame())).toBe('› [alpha _beta Xgamma]');
    await r.type(KEYS.home, '\x1b[3~');
    expect(input(r.frame())).toBe('› alpha _beta Xgamma]');
    // Backspace still erases to the left.
    await r.type(KEYS.end, KEYS.backspace);
    expect(input(r.frame())).toBe('› alpha _beta Xgamma');
    // Kills in a row are one kill-ring entry: two Ctrl+W yank back as one.
    await r.type('\x17', '\x17');
    expect(input(r.frame())).toBe('› alpha');
    await r.type('\x19');
    expect(input(r.frame())).toBe('› alpha _beta Xgamma');
  });

  it('Tab completes the shared part, then cycles through the matches; Shift+Tab goes back', async () => {
    const commands = [
      { name: '/thinking', help: 'reasoning', args: '[on|off]', choices: ['on', 'off'] },
      { name: '/think', help: 'alias-like' },
      { name: '/help', help: 'help' },
    ];
    const r = renderApp({ engine: new FakeEngine(initialState({ commands })) });
    await r.type('/th', KEYS.tab);
    expect(input(r.frame())).toBe('› /think');
    await r.type(KEYS.tab);
    expect(input(r.frame())).toBe('› /thinking');
    expect(r.frame()).toContain('Tab: [/thinking]  /think');
    await r.type(KEYS.tab);
    expect(input(r.frame())).toBe('› /think');
    await r.type('\x1b[Z');
    expect(input(r.frame())).toBe('› /thinking');
  });

  it('completes @ paths fuzzily from the listed paths', async () => {
    const r = renderApp({ mentionPaths: () => Promise.resolve(['README.md', 'src/', 'src/alpha-file.ts', 'src/alpine.ts', 'test/beta.ts']) });
    await settle();
    await r.type('read @alfi', KEYS.tab);
    expect(input(r.frame())).toBe('› read @src/alpha-file.ts');
    // A single match is finished with a space, as a shell does.
    await r.type('and @bta', KEYS.tab);
    expect(input(r.frame())).toBe('› read @src/alpha-file.ts and @test/beta.ts');
    // Typed text and the Tab in one read (a fast terminal): still a Tab, not a tab character.
    await r.type('@READ\t');
    expect(input(r.frame())).toBe('› read @src/alpha-file.ts and @test/beta.ts @README.md');
  });

  it('a fuzzy @ query gets the part its matches share first, then Tab cycles them', async () => {
    const r = renderApp({ mentionPaths: () => Promise.resolve(['README.md', 'src/', 'src/alpha-file.ts', 'src/alpine.ts']) });
    await settle();
    await r.type('look at @alp', KEYS.tab);
    expect(input(r.frame())).toBe('› look at @src/alp');
    await r.type(KEYS.tab);
    const first = input(r.frame());
    expect(first).toMatch(/^› look at @src\/alp(ha-file|ine)\.ts$/);
    await r.type(KEYS.tab);
    expect(input(r.frame())).not.toBe(first);
    await r.type('\x1b[Z');
    expect(input(r.frame())).toBe(first);
    // What is typed is never cut back: "@alpf" is not replaced by the shorter shared "src/alp".
    await r.type('\x15', 'see @alpf', KEYS.tab);
    expect(input(r.frame())).toBe('› see @src/alpha-file.ts');
  });

  it('completes @ with the MCP servers\' resources once they are listed, beside the paths', async () => {
    const r = renderApp({ mentionPaths: () => Promise.resolve(['README.md', 'docs/guide.md']) });
    await settle();
    // The servers answer after the view is up: their resources are offered from then on.
    r.engine.resources = ['docs:file:///api/reference.md'];
    await r.type('see @docs:file', KEYS.tab);
    expect(input(r.frame())).toBe('› see @docs:file:///api/reference.md');
  });

  it('shows a long paste as a chip, sends it whole, and expands it with Ctrl+X', async () => {
    const r = renderApp();
    const lines = Array.from({ length: 500 }, (_, i) => `line ${i}`).join('\n');
    await r.type('see ', PASTE(lines), ' end');
    expect(input(r.frame())).toBe('› see [pasted 500 lines] end');
    await r.type(KEYS.enter);
    expect(r.engine.submitted.at(-1)).toBe(`see ${lines} end`);
    await r.type(PASTE('a\nb\nc\nd'));
    expect(input(r.frame())).toBe('› [pasted 4 lines]');
    await r.type('\x18');
    expect(r.frame()).toMatch(/› a\n {2}b\n {2}c\n {2}d/);
  });

  it('Ctrl+R finds earlier prompts; Esc puts back what was typed', async () => {
    const r = renderApp({ history: { entries: ['make the build faster', 'fix the flaky test', 'write docs'], add: () => undefined } });
    await r.type('draft', '\x12', 'fla');
    expect(r.frame()).toContain('reverse-i-search: fla');
    expect(input(r.frame())).toBe('› fix the flaky test');
    await r.type(KEYS.escape);
    expect(input(r.frame())).toBe('› draft');
    await r.type('\x15', '\x12', 'build', KEYS.enter);
    expect(input(r.frame())).toBe('› make the build faster');
    expect(r.engine.submitted).toEqual([]);
  });
});
