/**
 * The early first frame on the terminal (components/terminal/early-paint.ts) and the view adopting
 * it (runTui's `painted`): drawn only where it is sure to match Ink, the terminal kept safe until
 * the view takes over, and Ink's first frame then costs no bytes at all.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../../src/agent/state.js';
import { inkColorsAreOn, paintEarlyFrame, type EarlyTerminal } from '../../components/terminal/early-paint.js';
import { ENTER_SCREEN, LEAVE_SCREEN } from '../../components/terminal/screen.js';
import type { StrayOutput } from '../../components/terminal/stray-output.js';
import { initialState } from './fake-engine.js';
import { FakeStdin, FakeTerminal, StreamStdin } from '../support/fake-tty.js';

type RunTui = typeof import('../../components/run-tui.js').runTui;
let runTui: RunTui;
const savedForceColor = process.env['FORCE_COLOR'];
beforeAll(async () => {
  process.env['FORCE_COLOR'] = '1';
  ({ runTui } = await import('../../components/run-tui.js'));
});
afterAll(() => {
  if (savedForceColor === undefined) delete process.env['FORCE_COLOR'];
  else process.env['FORCE_COLOR'] = savedForceColor;
});

const TERM_ENV = { TERM: 'xterm-256color' };

function terminal(columns = 100, rows = 30, env: EarlyTerminal['env'] = TERM_ENV): { out: FakeTerminal; stdin: FakeStdin; term: EarlyTerminal } {
  const out = new FakeTerminal(columns, rows);
  const stdin = new FakeStdin();
  return { out, stdin, term: { stdout: out, stdin, env, platform: 'linux' } };
}

const listeners = (): number[] => ['SIGTERM', 'SIGHUP', 'SIGINT', 'exit'].map((e) => process.listenerCount(e));

describe('painting the first frame early', () => {
  it('enters the alternate screen, draws the header, and stops the terminal echoing keys', () => {
    const before = listeners();
    const { out, stdin, term } = terminal();
    const painted = paintEarlyFrame(initialState(), term);
    expect(painted).toBeDefined();
    expect(out.text.startsWith(ENTER_SCREEN)).toBe(true);
    expect(out.text).toContain('deepseek-chat');
    expect(out.text).toContain('/home/dev/shop');
    expect(stdin.rawModes).toEqual([true]);
    expect(painted!.lines).toHaveLength(30);
    // Until the view takes over, a signal or an exit still restores the screen.
    expect(listeners()).toEqual(before.map((n) => n + 1));

    painted!.abandon();
    expect(out.text.endsWith(LEAVE_SCREEN)).toBe(true);
    expect(stdin.rawModes).toEqual([true, false]);
    expect(listeners()).toEqual(before);
  });

  it('holds other output back from the frame and gives it back on the normal screen', () => {
    const { out, term } = terminal();
    const held: string[] = [];
    let released = false;
    // A stand-in for holdStrayOutput, which would capture this test runner's own streams.
    const stray: StrayOutput = {
      writeStdout: (data) => out.write(data),
      release: () => {
        released = true;
        return { stdout: '', stderr: held.join('') };
      },
    };
    const painted = paintEarlyFrame(initialState(), term, { holdStray: () => stray })!;
    expect(painted.stray).toBe(stray);
    held.push('(node) a warning\n');
    expect(out.text).not.toContain('a warning');
    const written: string[] = [];
    const realErr = process.stderr.write;
    process.stderr.write = ((chunk: string) => written.push(chunk) > 0) as typeof process.stderr.write;
    try {
      painted.abandon();
    } finally {
      process.stderr.write = realErr;
    }
    expect(released).toBe(true);
    expect(out.text.endsWith(LEAVE_SCREEN)).toBe(true);
    expect(written).toEqual(['(node) a warning\n']);
  });

  it('leaves everything to the view once handed over', () => {
    const before = listeners();
    const { out, stdin, term } = terminal();
    const painted = paintEarlyFrame(initialState(), term)!;
    const drawn = out.text;
    painted.handOver();
    painted.abandon();
    expect(out.text).toBe(drawn);
    expect(stdin.rawModes).toEqual([true]);
    expect(listeners()).toEqual(before);
  });

  it.each([
    ['CI is set (Ink draws only the last frame there)', { ...TERM_ENV, CI: 'true' }],
    ['a screen reader is on', { ...TERM_ENV, INK_SCREEN_READER: 'true' }],
    ['colours are forced off', { ...TERM_ENV, FORCE_COLOR: '0' }],
    ['the terminal is dumb', { TERM: 'dumb' }],
    ['the terminal is unknown', { TERM: 'mystery' }],
  ])('is not drawn when %s', (_label, env) => {
    const { out, stdin, term } = terminal(100, 30, env);
    expect(paintEarlyFrame(initialState(), term)).toBeUndefined();
    expect(out.text).toBe('');
    expect(stdin.rawModes).toEqual([]);
  });

  it('is not drawn when stdout is not a terminal', () => {
    const { out, stdin } = terminal();
    const pipe = { write: (d: string) => out.write(d), isTTY: false, columns: 100, rows: 30 };
    expect(paintEarlyFrame(initialState(), { stdout: pipe, stdin, env: TERM_ENV })).toBeUndefined();
    expect(out.text).toBe('');
  });

  it('knows where Ink colours the terminal', () => {
    expect(inkColorsAreOn({ TERM: 'xterm-256color' }, 'linux')).toBe(true);
    expect(inkColorsAreOn({ TERM: 'screen' }, 'linux')).toBe(true);
    expect(inkColorsAreOn({ TERM: 'mystery', COLORTERM: 'truecolor' }, 'linux')).toBe(true);
    expect(inkColorsAreOn({ TERM: 'xterm', FORCE_COLOR: 'false' }, 'linux')).toBe(false);
    expect(inkColorsAreOn({ TERM: 'dumb', FORCE_COLOR: '1' }, 'linux')).toBe(true);
    expect(inkColorsAreOn({}, 'win32')).toBe(true);
    expect(inkColorsAreOn({}, 'linux')).toBe(false);
  });
});

describe('the view adopting the early frame', () => {
  async function adopt(
    painted: ReturnType<typeof paintEarlyFrame>,
    out: FakeTerminal,
    stdin: NodeJS.ReadStream = new FakeStdin().stream,
    meanwhile?: (shown: () => readonly string[]) => Promise<void>,
  ): Promise<string> {
    let writer: { readonly shown: readonly string[] } | undefined;
    const before = out.text.length;
    let fail: (e: unknown) => void = () => undefined;
    const pending = new Promise<Engine>((_, reject) => (fail = reject));
    const done = runTui(pending, {
      output: out,
      stdin,
      farewell: () => undefined,
      startingState: initialState(),
      ...(painted ? { painted } : {}),
      onFrameWriter: (w) => (writer = w),
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    const drawn = out.text.slice(before);
    await meanwhile?.(() => writer?.shown ?? []);
    fail(new Error('test over'));
    await expect(done).rejects.toThrow('test over');
    return drawn;
  }

  const tick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

  it('echoes keys typed before the view, and the view takes them over without redrawing a row', async () => {
    const out = new FakeTerminal(100, 30);
    const stdin = new StreamStdin();
    const painted = paintEarlyFrame(initialState(), { stdout: out, stdin, env: TERM_ENV, platform: 'linux' })!;
    const start = out.text.length;
    stdin.type('fix th');
    await tick();
    stdin.type('e bugg\x7f');
    await tick();
    const echoed = out.text.slice(start);
    expect(echoed).toContain('fix th');
    expect(painted.lines.at(-1)).toContain('fix the bug');
    expect(painted.lines.at(-1)).not.toContain('bugg');
    // The terminal's cursor follows the caret: the last row, after the prompt and the text.
    expect(painted.cursor).toEqual({ row: 29, column: 2 + 'fix the bug'.length });
    expect(echoed.endsWith(`\x1b[30;${3 + 'fix the bug'.length}H\x1b[?25h\x1b[?2026l`)).toBe(true);
    // Ink's first frame is exactly what the early input drew: not one byte is written for it.
    expect(await adopt(painted, out, stdin.stream)).toBe('');
  });

  it('gives the view the keys the echo did not take, and those typed during the hand-over, in order', async () => {
    const out = new FakeTerminal(100, 30);
    const stdin = new StreamStdin();
    const painted = paintEarlyFrame(initialState(), { stdout: out, stdin, env: TERM_ENV, platform: 'linux' })!;
    stdin.type('fix it');
    await tick();
    // An arrow ends the echo: it and everything after it wait for the view.
    stdin.type('\x1b[D\x1b[DX');
    await tick();
    expect(painted.lines.at(-1)).toContain('fix it');
    expect(painted.lines.at(-1)).not.toContain('X');
    let input = '';
    await adopt(painted, out, stdin.stream, async (shown) => {
      // Arrives after the hand-over, before or while Ink reads what was kept.
      stdin.type('Y\x1b[200~pasted\x1b[201~');
      await new Promise((resolve) => setTimeout(resolve, 100));
      input = shown().at(-1) ?? '';
    });
    // eslint-disable-next-line no-control-regex -- the row's text without its colours
    expect(input.replace(/\x1b\[[0-9;]*m/g, '')).toBe('› fix XYpastedit');
  });

  it("writes nothing for Ink's first frame when it is the frame already on screen", async () => {
    const { out, term } = terminal();
    const painted = paintEarlyFrame(initialState(), term)!;
    expect(await adopt(painted, out)).toBe('');
  });

  it('rewrites only the rows that differ', async () => {
    const { out, term } = terminal();
    const painted = paintEarlyFrame(initialState(), term)!;
    const altered = { ...painted, lines: painted.lines.map((line, i) => (i === 0 ? 'something else' : line)) };
    const drawn = await adopt(altered, out);
    expect(drawn).toContain('\x1b[1;1H\x1b[2K');
    expect(drawn).toContain('deepseek-chat');
    expect(drawn).not.toContain('\x1b[2;1H');
    expect(drawn).not.toContain(ENTER_SCREEN);
  });

  it('repaints everything when the terminal was resized in between', async () => {
    const { out, term } = terminal();
    const painted = paintEarlyFrame(initialState(), term)!;
    out.columns = 90;
    const drawn = await adopt(painted, out);
    expect(drawn).toContain('\x1b[H\x1b[2J');
    expect(drawn).toContain('/home/dev/shop');
  });
});
