import { describe, expect, it } from 'vitest';
import { KEYS, renderApp, settle } from './render-app.js';
import { toKeyCommands } from '../../components/keys/key-commands.js';
import { completeSlash as completeWith } from '../../components/composer/slash-commands.js';
import { BUILTIN_SLASH_INFO } from '../../src/slash/builtin-info.js';

/** Completion over the built-in commands, as the view gets them from the engine. */
const completeSlash = (text: string): string | undefined => completeWith(text, BUILTIN_SLASH_INFO);

const noKey = {
  upArrow: false, downArrow: false, leftArrow: false, rightArrow: false, pageDown: false, pageUp: false, home: false, end: false,
  return: false, escape: false, ctrl: false, shift: false, tab: false, backspace: false, delete: false, meta: false, super: false,
  hyper: false, capsLock: false, numLock: false,
};

describe('composer', () => {
  it('sends on Enter and recalls earlier prompts with ↑ / ↓, keeping the draft', async () => {
    const r = renderApp();
    await r.type('first', KEYS.enter);
    r.engine.emit({ type: 'turn.end', blockId: 'e1', status: 'finished' });
    await r.type('second', KEYS.enter);
    r.engine.emit({ type: 'turn.end', blockId: 'e2', status: 'finished' });
    await settle();
    expect(r.engine.submitted).toEqual(['first', 'second']);
    await r.type('draft', KEYS.up);
    expect(r.frame()).toContain('› second');
    await r.type(KEYS.up);
    expect(r.frame()).toContain('› first');
    await r.type(KEYS.down, KEYS.down);
    expect(r.frame()).toContain('› draft');
  });

  it('takes a newline with Ctrl+J and Alt+Enter and sends the lines together', async () => {
    const r = renderApp();
    await r.type('one', KEYS.ctrlJ, 'two', KEYS.altEnter, 'three');
    const f = r.frame();
    expect(f).toContain('› one');
    expect(f).toContain('  two');
    expect(f).toContain('  three');
    await r.type(KEYS.enter);
    expect(r.engine.submitted).toEqual(['one\ntwo\nthree']);
  });

  it('edits: backspace, Ctrl+U, Ctrl+W', async () => {
    const r = renderApp();
    await r.type('hello world', KEYS.backspace, KEYS.backspace);
    expect(r.frame()).toContain('› hello wor');
    await r.type('\x17');
    expect(r.frame()).toMatch(/› hello$/m);
    await r.type('\x15', 'x', KEYS.enter);
    expect(r.engine.submitted).toEqual(['x']);
  });

  it('completes slash commands with Tab and lists the candidates', async () => {
    const r = renderApp();
    await r.type('/th');
    expect(r.frame()).toContain('Tab: /thinking  /think');
    await r.type(KEYS.backspace, KEYS.backspace, 'he', KEYS.tab, 'x');
    expect(r.frame()).toContain('› /help x');
    expect(completeSlash('/se')).toBe('/sessions ');
    expect(completeSlash('/c')).toBeUndefined();
    expect(completeSlash('/thi')).toBe('/think');
    expect(completeSlash('/co')).toBeUndefined();
    expect(completeSlash('/com')).toBe('/compact ');
  });

  it('lets you type while a turn runs and sends the text when it ends', async () => {
    const r = renderApp();
    await r.type('go', KEYS.enter);
    expect(r.engine.getSnapshot().busy).toBe(true);
    await r.type('next step', KEYS.enter);
    expect(r.engine.submitted).toEqual(['go']);
    expect(r.frame()).toContain('queued (sent when this turn ends): next step');
    r.engine.emit({ type: 'turn.end', blockId: 'e1', status: 'finished' });
    await settle();
    expect(r.engine.submitted).toEqual(['go', 'next step']);
  });

  it('holds text typed after a turn ended until the engine has let go of that turn', async () => {
    const r = renderApp();
    let release: () => void = () => undefined;
    r.engine.submit = (text) => {
      r.engine.submitted.push(text);
      r.engine.emit({ type: 'turn.start', blockId: r.engine.id('u'), text });
      // The engine says the turn ended once it has let go of it (saved it, taken its hands off):
      // until then the view holds what is typed. (That the real engine takes a prompt sent the
      // moment it says so is test/agent/engine.test.ts's.)
      return new Promise((resolve) => (release = () => {
        r.engine.emit({ type: 'turn.end', blockId: 'e1', status: 'finished' });
        resolve({ status: 'finished', result: '', steps: 1 });
      }));
    };
    await r.type('first', KEYS.enter);
    await r.type('second', KEYS.enter);
    expect(r.engine.submitted).toEqual(['first']);
    expect(r.frame()).toContain('queued (sent when this turn ends): second');
    release();
    await settle();
    expect(r.engine.submitted).toEqual(['first', 'second']);
  });

  it('puts a prompt the engine refused back into the input, with the reason', async () => {
    const r = renderApp();
    r.engine.submit = () => Promise.resolve({ status: 'error', result: '', detail: 'A turn is already running.', steps: 0 });
    await r.type('do it', KEYS.enter);
    await settle();
    expect(r.frame()).toContain('Not sent: A turn is already running.');
    expect(r.frame()).toMatch(/^› do it/m);
  });

  it('Ctrl+C stops the turn and clears the line; a second Ctrl+C leaves', async () => {
    const r = renderApp();
    await r.type('go', KEYS.enter, 'half typed');
    await r.type(KEYS.ctrlC);
    expect(r.engine.interrupts).toBe(1);
    expect(r.frame()).not.toContain('half typed');
    expect(r.frame()).toContain('Press Ctrl+C again to leave');
    expect(r.exits()).toBe(0);
    await r.type(KEYS.ctrlC);
    expect(r.exits()).toBe(1);
  });

  it('Ctrl+D leaves only on an empty line', async () => {
    const r = renderApp();
    await r.type('x', KEYS.ctrlD);
    expect(r.exits()).toBe(0);
    await r.type(KEYS.backspace, KEYS.ctrlD);
    expect(r.exits()).toBe(1);
  });

  it('splits typed-ahead input into keys, treating inner line breaks of a paste as newlines', () => {
    expect(toKeyCommands('fix it\r', noKey)).toEqual([{ name: 'text', text: 'fix it' }, { name: 'submit' }]);
    expect(toKeyCommands('line1\rline2', noKey)).toEqual([{ name: 'text', text: 'line1\nline2' }]);
    expect(toKeyCommands('ab\x7f\x03', noKey)).toEqual([{ name: 'text', text: 'ab' }, { name: 'backspace' }, { name: 'interrupt' }]);
    // Tab pressed twice before the app read the first: two completions, not a tab in the text.
    expect(toKeyCommands('\t\t', noKey)).toEqual([{ name: 'complete' }, { name: 'complete' }]);
    expect(toKeyCommands('@src\t\t', noKey)).toEqual([{ name: 'text', text: '@src' }, { name: 'complete' }, { name: 'complete' }]);
    expect(toKeyCommands('a\tb\t', noKey)).toEqual([{ name: 'text', text: 'a\tb' }, { name: 'complete' }]);
  });
});
