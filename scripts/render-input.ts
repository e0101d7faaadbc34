/**
 * The input under a big paste, measured on the real app (runTui, in-process, React's production
 * build) on a fake 120x40 terminal: paste-to-screen time for a bracketed paste of 5,000 lines
 * (from the first byte on stdin until the frame showing its chip was written to the terminal;
 * target < 100 ms), then per-key latency with that paste in the input (a key written to stdin
 * until the frame showing it was written; target < 16 ms, one frame). Each figure is the median
 * of several runs; keys are spaced wider than the 33 ms frame interval, so none waits for a frame.
 *
 * Run by scripts/bench-render.ts (after its streaming figures, or alone with --input).
 */
import { EventEmitter } from 'node:events';
import { performance } from 'node:perf_hooks';
import { median, reportFigure } from './bench-report.js';

const LINES = 5000;
const KEYS_PER_RUN = 40;

class Terminal extends EventEmitter {
  readonly columns = 120;
  readonly rows = 40;
  private waiters: { match: (s: string) => boolean; resolve: (t: number) => void }[] = [];
  write(data: string): boolean {
    const now = performance.now();
    this.waiters = this.waiters.filter((w) => {
      if (!w.match(data)) return true;
      w.resolve(now);
      return false;
    });
    return true;
  }
  /** Resolves with the time of the first write that matches. */
  next(match: (s: string) => boolean): Promise<number> {
    return new Promise((resolve) => this.waiters.push({ match, resolve }));
  }
}

const pause = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

export async function benchInput(runs = 5): Promise<void> {
process.env['NODE_ENV'] = 'production';
const { runTui } = await import('../components/run-tui.js');
const { FakeEngine, initialState } = await import('../test/components/fake-engine.js');
const { FakeStdin } = await import('../test/support/fake-tty.js');
const paste = Array.from({ length: LINES }, (_, i) => `line ${i + 1}: some pasted log output, a stack frame or a diff hunk`).join('\n');
const pasteTimes: number[] = [];
const keyTimes: number[] = [];

for (let run = 0; run < runs; run++) {
  const terminal = new Terminal();
  const stdin = new FakeStdin();
  const engine = new FakeEngine(initialState());
  const done = runTui(engine, { output: terminal, stdin: stdin.stream, farewell: () => undefined });
  await pause(400);
  // As a terminal delivers it: the start marker, the text in 4 KB reads, the end marker.
  const shown = terminal.next((s) => s.includes('[pasted 5,000 lines]'));
  const t0 = performance.now();
  stdin.type('\x1b[200~');
  for (let i = 0; i < paste.length; i += 4096) stdin.type(paste.slice(i, i + 4096));
  stdin.type('\x1b[201~');
  pasteTimes.push((await shown) - t0);
  await pause(100);
  for (let k = 0; k < KEYS_PER_RUN; k++) {
    const ch = String.fromCharCode(97 + (k % 26));
    // The typed letters follow the chip: the frame that shows this one ends in it.
    const typed = terminal.next((s) => s.includes(ch));
    const k0 = performance.now();
    stdin.type(ch);
    keyTimes.push((await typed) - k0);
    await pause(40);
  }
  stdin.type('\x03');
  stdin.type('\x03');
  await done;
}

const pasteMs = median(pasteTimes);
const keyMs = median(keyTimes);
const worstKey = Math.max(...keyTimes);
reportFigure({ figure: 'paste 5,000 lines to screen', median: Math.round(pasteMs * 10) / 10, unit: 'ms', target: '< 100 ms', met: pasteMs < 100 });
reportFigure({ figure: 'key latency with a 5,000-line paste in the input', median: Math.round(keyMs * 10) / 10, unit: 'ms', target: '< 16 ms', met: keyMs < 16 });
process.stdout.write(`paste-to-screen ms per run: ${pasteTimes.map((t) => t.toFixed(1)).join(' ')}\n`);
process.stdout.write(`key latency: median ${keyMs.toFixed(2)} ms, worst ${worstKey.toFixed(2)} ms over ${keyTimes.length} keys\n`);
}
