import { describe, expect, it } from 'vitest';
import { diffFrame, findShift } from '../../components/terminal/frame-diff.js';
import { FrameWriter } from '../../components/terminal/frame-writer.js';

/**
 * A tiny terminal: enough of VT100 to replay what the frame diff sends (cursor position, erase,
 * scroll region, line feed), so the tests check what the screen shows, not which bytes were sent.
 */
class TinyTerminal {
  screen: string[];
  private row = 0;
  private col = 0;
  private top = 0;
  private bottom: number;
  constructor(private readonly rows: number) {
    this.screen = Array.from({ length: rows }, () => '');
    this.bottom = rows - 1;
  }
  feed(data: string): void {
    // eslint-disable-next-line no-control-regex -- parsing terminal output
    const re = /\x1b\[([?0-9;]*)([A-Za-z])|\n|[^\x1b\n]+/g;
    for (const m of data.matchAll(re)) {
      if (m[0] === '\n') {
        if (this.row === this.bottom) {
          this.screen.splice(this.top, 1);
          this.screen.splice(this.bottom, 0, '');
        } else this.row++;
      } else if (m[2] !== undefined) {
        const args = m[1]!.split(';').map((n) => Number(n || '0'));
        switch (m[2]) {
          case 'H':
            this.row = Math.max(1, args[0] || 1) - 1;
            this.col = Math.max(1, args[1] || 1) - 1;
            break;
          case 'J':
            this.screen = this.screen.map(() => '');
            break;
          case 'K':
            this.screen[this.row] = '';
            break;
          case 'r':
            this.top = m[1] === '' ? 0 : args[0]! - 1;
            this.bottom = m[1] === '' ? this.rows - 1 : args[1]! - 1;
            this.row = 0;
            this.col = 0;
            break;
          default:
            break; // SGR, synchronized output: no effect on the text
        }
      } else {
        const line = this.screen[this.row]!.padEnd(this.col);
        this.screen[this.row] = line.slice(0, this.col) + m[0] + line.slice(this.col + m[0].length);
        this.col += m[0].length;
      }
    }
  }
}

function frameOf(lines: string[]): string[] {
  return lines;
}

describe('frame diff', () => {
  it('repaints everything on the first frame and only changed rows afterwards', () => {
    const term = new TinyTerminal(5);
    const first = diffFrame([], frameOf(['a', 'b', 'c', 'd', 'e']), 5, true);
    term.feed(first.bytes);
    expect(term.screen).toEqual(['a', 'b', 'c', 'd', 'e']);
    const second = diffFrame(first.screen, ['a', 'b', 'X', 'd', 'e'], 5, false);
    expect(second.bytes).toBe('\x1b[3;1H\x1b[2KX');
    term.feed(second.bytes);
    expect(term.screen).toEqual(['a', 'b', 'X', 'd', 'e']);
    expect(diffFrame(second.screen, ['a', 'b', 'X', 'd', 'e'], 5, false).bytes).toBe('');
  });

  it('scrolls a band that moved up instead of rewriting it, and the screen ends up right', () => {
    const rows = 12;
    const make = (start: number) => ['header', ...Array.from({ length: 9 }, (_, i) => `line ${start + i}`), 'status', 'input'];
    const term = new TinyTerminal(rows);
    let state = diffFrame([], make(0), rows, true);
    term.feed(state.bytes);
    const next = make(2);
    expect(findShift(state.screen, next, 1, 10)).toBe(2);
    const step = diffFrame(state.screen, next, rows, false);
    term.feed(step.bytes);
    expect(term.screen).toEqual(next);
    // Only the two rows that came into view are written as text.
    expect(step.bytes.match(/line \d+/g)).toEqual(['line 9', 'line 10']);
    state = step;
  });

  it('never writes below the last row', () => {
    const { bytes } = diffFrame([], ['1', '2', '3', '4'], 3, true);
    expect(bytes).not.toContain('4');
  });

  it('coalesces frames submitted faster than the interval and writes the newest', async () => {
    const writes: string[] = [];
    const writer = new FrameWriter({ write: (d) => writes.push(d) }, 3, { minIntervalMs: 20, synchronized: false });
    writer.submit('a\nb\nc');
    writer.submit('a\nb\nx');
    writer.submit('a\nb\ny');
    expect(writes).toHaveLength(1);
    await new Promise((resolve) => setTimeout(resolve, 40));
    expect(writes).toHaveLength(2);
    expect(writes[1]).toBe('\x1b[3;1H\x1b[2Ky');
  });
});
