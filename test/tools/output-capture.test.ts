/**
 * The two copies of a command's output: clipped for the context, whole (up to the on-disk cap) for
 * the snapshot, with both cuts stated from the same counts.
 */
import { describe, expect, it } from 'vitest';
import { OutputCapture } from '../../src/tools/output-capture.js';

const seq = (n: number): string => Array.from({ length: n }, (_, i) => `${i + 1}\n`).join('');

describe('OutputCapture', () => {
  it('keeps the whole output for the snapshot while the context copy is clipped', () => {
    const capture = new OutputCapture(200);
    const text = seq(1000);
    for (let i = 0; i < text.length; i += 77) capture.push(text.slice(i, i + 77));
    expect(capture.clipped).toBe(true);
    expect(capture.whole()).toBe(text);
    expect(capture.wholeCut()).toBeUndefined();
    expect(capture.lines).toBe(1000);
    const clipped = capture.text();
    expect(clipped.length).toBeLessThan(400);
    // How much went, in chars and lines, out of the same totals.
    const note = /\[… (\d+) chars cut from the middle of (\d+) \((\d+) of (\d+) lines; max_tool_output_chars = 200\) …\]/.exec(clipped)!;
    expect(Number(note[2])).toBe(text.length);
    expect(Number(note[4])).toBe(1000);
    const kept = clipped.replace(note[0], '').split('\n').filter(Boolean).length;
    expect(Number(note[3]) + kept).toBeGreaterThanOrEqual(1000);
    expect(Number(note[3]) + kept).toBeLessThanOrEqual(1002);
  });

  it('cuts the snapshot only past the on-disk cap, and says so', () => {
    const capture = new OutputCapture(100, 1000);
    capture.push(seq(2000));
    const whole = capture.whole();
    expect(whole.length).toBeLessThan(1200);
    expect(whole.startsWith('1\n2\n3\n')).toBe(true);
    expect(whole.endsWith('1999\n2000\n')).toBe(true);
    expect(whole).toMatch(/chars cut from the middle of 8893 \(\d+ of 2000 lines; a snapshot keeps at most 1000 chars\)/);
    expect(capture.wholeCut()).toBe('the command printed 8893 chars (2000 lines); the snapshot keeps the first and last 500 chars');
  });

  it('counts a last line without its newline', () => {
    const capture = new OutputCapture(100);
    capture.push('a\nb');
    expect(capture.lines).toBe(2);
    expect(capture.clipped).toBe(false);
  });
});
