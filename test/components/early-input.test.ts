/**
 * The early input (components/terminal/early-input.ts): keys typed while the view loads are
 * echoed when they are plain text or Backspace, and everything from the first other key on is
 * kept byte for byte for the view, in order; Ctrl+C outside a paste interrupts. Driven through
 * a real stream, as the terminal's stdin is.
 */
import { describe, expect, it } from 'vitest';
import { EarlyKeys, startEarlyInput } from '../../components/terminal/early-input.js';
import { StreamStdin } from '../support/fake-tty.js';

const bytes = (s: string): Buffer => Buffer.from(s, 'utf8');

function feed(...chunks: (string | Buffer)[]): EarlyKeys {
  const keys = new EarlyKeys();
  for (const chunk of chunks) keys.push(typeof chunk === 'string' ? bytes(chunk) : chunk);
  return keys;
}

describe('the early keys', () => {
  it('types plain text and Backspace, as the commands the input will replay', () => {
    const keys = feed('fix the bugs', '\x7f', ' ok');
    expect(keys.typed.buffer).toEqual({ text: 'fix the bug ok', cursor: 14 });
    expect(keys.typed.commands.filter((c) => c.name === 'backspace')).toHaveLength(1);
    expect(keys.typed.commands.map((c) => (c.name === 'text' ? c.text : '⌫')).join('')).toBe('fix the bugs⌫ ok');
    expect(keys.ended).toBe(false);
    expect(keys.takeKept().length).toBe(0);
  });

  it('waits for the rest of a character split across reads', () => {
    const e = bytes('é');
    const keys = feed('caf', e.subarray(0, 1));
    expect(keys.typed.buffer.text).toBe('caf');
    keys.push(e.subarray(1));
    expect(keys.typed.buffer.text).toBe('café');
    expect(keys.ended).toBe(false);
  });

  it.each([
    ['Enter', '\r'],
    ['Tab', '\t'],
    ['an arrow', '\x1b[D'],
    ['Escape', '\x1b'],
    ['a paste', '\x1b[200~pasted\x1b[201~'],
    ['Ctrl+D', '\x04'],
    ['a wide character', '漢字'],
    ['an emoji', '😀'],
    ['a combining mark', 'e\u0301'.slice(1)],
  ])('ends the echo at %s and keeps every byte from there on, in order', (_label, key) => {
    const keys = feed('ab', `${key}cd`, 'ef');
    expect(keys.typed.buffer.text).toBe('ab');
    expect(keys.ended).toBe(true);
    expect(keys.takeKept().toString('utf8')).toBe(`${key}cdef`);
    expect(keys.interrupted).toBe(false);
  });

  it('leaves a slash command to the view (its hint row comes from the engine), but echoes a slash inside text', () => {
    const slash = feed('/he', 'lp');
    expect(slash.typed.buffer.text).toBe('');
    expect(slash.takeKept().toString()).toBe('/help');
    expect(feed('a/b').typed.buffer.text).toBe('a/b');
  });

  it('keeps a character split across reads whole when the echo ends after it', () => {
    const wide = bytes('漢');
    const keys = feed('x', wide.subarray(0, 2));
    expect(keys.ended).toBe(false);
    keys.push(Buffer.concat([wide.subarray(2), bytes('y')]));
    expect(keys.typed.buffer.text).toBe('x');
    expect(keys.takeKept().toString('utf8')).toBe('漢y');
  });

  it('is interrupted by Ctrl+C while echoing and after the echo ended, not by one inside a paste', () => {
    expect(feed('ab\x03').interrupted).toBe(true);
    expect(feed('ab', '\x1b[A', 'c\x03').interrupted).toBe(true);
    expect(feed('\x1b[200~a\x03b\x1b[201~').interrupted).toBe(false);
    expect(feed('\x1b[200~a\x03b\x1b[201~', 'x\x03').interrupted).toBe(true);
    // Paste markers split across reads are still seen.
    expect(feed('\x1b[20', '0~a\x03b\x1b[2', '01~').interrupted).toBe(false);
    expect(feed('\x1b[20', '0~a\x03b\x1b[2', '01~', '\x03').interrupted).toBe(true);
  });
});

describe('the early input on a stream', () => {
  const tick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

  it('echoes text as it comes and hands the kept bytes back in front of what came since', async () => {
    const stdin = new StreamStdin();
    const echoed: string[] = [];
    const input = startEarlyInput(stdin, { echo: (b) => echoed.push(b.text) > 0, interrupt: () => undefined });
    stdin.type('hi');
    await tick();
    stdin.type(' there\x1b[D!');
    await tick();
    expect(echoed).toEqual(['hi', 'hi there']);
    // Typed after the reader stopped, before the view reads: stays behind the kept bytes.
    const typed = input.handOver();
    stdin.type('?\r');
    await tick();
    expect(typed.buffer.text).toBe('hi there');
    let rest = '';
    let chunk: Buffer | null;
    while ((chunk = stdin.read() as Buffer | null) !== null) rest += chunk.toString('utf8');
    expect(rest).toBe('\x1b[D!?\r');
    expect(input.handOver()).toEqual(typed);
  });

  it('stops echoing when the frame cannot be redrawn, keeping what follows', async () => {
    const stdin = new StreamStdin();
    const input = startEarlyInput(stdin, { echo: () => false, interrupt: () => undefined });
    stdin.type('a');
    await tick();
    stdin.type('b');
    await tick();
    expect(input.handOver().buffer.text).toBe('a');
    expect((stdin.read() as Buffer).toString()).toBe('b');
  });

  it('calls interrupt on Ctrl+C and reads no further', async () => {
    const stdin = new StreamStdin();
    let interrupted = 0;
    startEarlyInput(stdin, { echo: () => true, interrupt: () => interrupted++ });
    stdin.type('abc\x03');
    await tick();
    stdin.type('more');
    await tick();
    expect(interrupted).toBe(1);
    expect(stdin.listenerCount('readable')).toBe(0);
  });
});
