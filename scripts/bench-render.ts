/**
 * Rendering cost of the full-screen view. Drives the real app (runTui, in-process) on a fake
 * 120x40 terminal while 2,000 small deltas a second stream for 10 seconds into a transcript that
 * already holds 5,000 lines, and prints CPU time per second of streaming and bytes written to the
 * terminal per second. The engine side is the real store and reducer (src/agent/store.ts, which
 * coalesces notifications to one per ~33 ms frame) fed by a scripted event source.
 *
 *   node --import tsx scripts/bench-render.ts [seconds] [deltasPerSecond]
 *   node --import tsx scripts/bench-render.ts --code [seconds] [deltasPerSecond]   (the answer is one
 *                                                   long Python block, highlighted as it streams)
 *   node --import tsx scripts/bench-render.ts --first-frame     (only the tmux first frame)
 *   node --import tsx scripts/bench-render.ts --input [runs]    (only the input figures below)
 *
 * The input (scripts/render-input.ts, also run after the streaming figures): a bracketed paste of
 * 5,000 lines to screen (target < 100 ms) and per-key latency with it in the input (< 16 ms).
 *
 * Targets: < 30% of one core, < 200 KB/s written. When tmux and a build (dist/cli.js) are there, it
 * also times the first frame of the real `lwyrm` in a terminal: from exec until the header reaches
 * the pane (target < 400 ms), beside the same for bare node printing a word and for `printf`.
 */
import { EventEmitter } from 'node:events';
import { performance } from 'node:perf_hooks';
import { reportFigure } from './bench-report.js';

if (process.argv.includes('--input')) {
  await (await import('./render-input.js')).benchInput(Number(process.argv.find((a) => /^\d+$/.test(a)) ?? 5));
  process.exit(0);
}

if (process.argv.includes('--first-frame')) {
  await firstFrameInTmux();
  process.exit(0);
}

// The shipped bundle is built with React's production build (tsup env NODE_ENV); measure that.
process.env['NODE_ENV'] = 'production';
const { runTui } = await import('../components/run-tui.js');
const { FakeEngine, initialState } = await import('../test/components/fake-engine.js');
const { FakeStdin } = await import('../test/support/fake-tty.js');

const code = process.argv.includes('--code');
const numbers = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const seconds = Number(numbers[0] ?? 10);
const rate = Number(numbers[1] ?? 2000);
if (code) {
  const highlighter = await import('../components/highlight/highlighter.js');
  highlighter.setGrammarSource((await import('../src/codemap/tree-sitter-runtime.js')).createParser);
  await highlighter.loadLanguage('python');
}
const HISTORY_LINES = 5000;
const COLUMNS = 120;
const ROWS = 40;

class FakeTerminal extends EventEmitter {
  readonly columns = COLUMNS;
  readonly rows = ROWS;
  bytes = 0;
  writes = 0;
  firstHeaderAt = 0;
  write(data: string): boolean {
    this.bytes += Buffer.byteLength(data);
    this.writes += 1;
    if (this.firstHeaderAt === 0 && data.includes('lindwyrm')) this.firstHeaderAt = performance.now();
    return true;
  }
}

const WORDS = ['the', 'parser', 'reads', 'each', 'token', 'and', 'returns', 'a', 'node;', '`value`', '**then**', 'we', 'check'];
/** Code mode streams real-looking Python, word by word, a newline where each line ends. */
const CODE = [
  'def total(items: list[dict]) -> float:',
  '    """Sum the prices, skipping free items."""',
  '    result = 0.0',
  '    for item in items:',
  '        if item.get("price", 0) > 0:  # free ones do not count',
  '            result += item["price"] * item.get("qty", 1)',
  '    return round(result, 2)',
  '',
].flatMap((line) => {
  const words = line.split(' ');
  return words.map((w, i) => (i === words.length - 1 ? `${w}\n` : `${w} `));
});

const engine = new FakeEngine(initialState({ context: { usedTokens: 60_000, measured: true, window: 128_000, threshold: 96_000 } }), 33);
// The history: 5,000 lines over 50 finished turns.
for (let t = 0; t < 50; t++) {
  engine.emit({ type: 'turn.start', blockId: `hu${t}`, text: `question ${t}` });
  const lines = Array.from({ length: HISTORY_LINES / 50 - 4 }, (_, i) => `- item ${t}.${i}: ${WORDS.join(' ')}`);
  engine.emit(
    { type: 'assistant.delta', blockId: `ha${t}`, text: `## Turn ${t}\n\n${lines.join('\n')}` },
    { type: 'block.end', blockId: `ha${t}` },
    { type: 'turn.end', blockId: `he${t}`, status: 'finished' },
  );
}

const terminal = new FakeTerminal();
const startedAt = performance.now();
const stdin = new FakeStdin();
let finished = false;
let writer: { submitted: number; written: number } = { submitted: 0, written: 0 };
const done = runTui(engine, {
  output: terminal,
  stdin: stdin.stream,
  farewell: () => undefined,
  onFrameWriter: (w) => (writer = w),
}).finally(() => {
  finished = true;
});
await new Promise((resolve) => setTimeout(resolve, 300));
const firstFrameMs = terminal.firstHeaderAt - startedAt;
if (finished) throw new Error('the view left before the benchmark started');

engine.emit({ type: 'turn.start', blockId: 'live-u', text: 'stream a long answer' });
if (code) engine.store.dispatch({ type: 'assistant.delta', blockId: 'live-a', text: 'Here it is:\n\n```python\n' });
const bytesBefore = terminal.bytes;
const writesBefore = terminal.writes;
const rendersBefore = writer.submitted;
const cpuBefore = process.cpuUsage();
const eluBefore = performance.eventLoopUtilization();
const wallBefore = performance.now();

// 2,000 deltas a second, delivered in 10 ms batches like a fast provider stream.
let sent = 0;
const total = seconds * rate;
await new Promise<void>((resolve) => {
  const timer = setInterval(() => {
    const due = Math.min(total, Math.round(((performance.now() - wallBefore) / 1000) * rate));
    while (sent < due) {
      sent += 1;
      const word = WORDS[sent % WORDS.length]!;
      const text = code ? CODE[sent % CODE.length]! : sent % 400 === 0 ? '\n\n' : sent % 14 === 0 ? `${word}\n` : `${word} `;
      engine.store.dispatch({ type: 'assistant.delta', blockId: 'live-a', text });
    }
    if (sent >= total) {
      clearInterval(timer);
      resolve();
    }
  }, 10);
});
const wall = (performance.now() - wallBefore) / 1000;
const cpu = process.cpuUsage(cpuBefore);
// Process CPU includes the tsx loader thread and GC helpers; the event loop's busy share is the
// main thread alone. Both are printed; the target is checked against process CPU (the stricter).
const elu = performance.eventLoopUtilization(eluBefore).utilization;
const cpuPerSecond = (cpu.user + cpu.system) / 1e6 / wall;
const bytesPerSecond = (terminal.bytes - bytesBefore) / wall;
const framesPerSecond = (terminal.writes - writesBefore) / wall;
const rendersPerSecond = (writer.submitted - rendersBefore) / wall;

engine.emit({ type: 'block.end', blockId: 'live-a' }, { type: 'turn.end', blockId: 'live-e', status: 'finished' });
const rowsInTranscript = engine.getSnapshot().blocks.length;
// Leave through the app's own exit path: Ctrl+C twice.
stdin.type('\x03');
await new Promise((resolve) => setTimeout(resolve, 50));
stdin.type('\x03');
await done;

process.stdout.write(
  [
    `render bench${code ? ' (a highlighted Python block)' : ''}: ${COLUMNS}x${ROWS}, ${HISTORY_LINES} history lines (${rowsInTranscript} blocks), ${rate} deltas/s for ${wall.toFixed(1)} s`,
    `  first frame (in-process): ${firstFrameMs.toFixed(0)} ms`,
    `  CPU while streaming:      ${(cpuPerSecond * 100).toFixed(1)}% of one core (target < 30%); main thread busy ${(elu * 100).toFixed(1)}%`,
    `  written to the terminal:  ${(bytesPerSecond / 1024).toFixed(1)} KB/s (target < 200 KB/s), ${framesPerSecond.toFixed(1)} frames/s written, ${rendersPerSecond.toFixed(1)} renders/s`,
    // Under load the view renders less often (it is paced, not queued); CPU per render is the
    // figure that does not depend on how busy the machine was. The pace caps renders at 20/s.
    `  CPU per render:           ${((cpuPerSecond * 1000) / Math.max(1, rendersPerSecond)).toFixed(1)} ms (at most 20 renders/s while streaming)`,
    '',
  ].join('\n'),
);
reportFigure({ figure: code ? 'render CPU while streaming code' : 'render CPU while streaming', median: Math.round(cpuPerSecond * 1000) / 10, unit: '% of one core', target: '< 30%', met: cpuPerSecond < 0.3 });
reportFigure({ figure: 'render bytes written', median: Math.round(bytesPerSecond / 102.4) / 10, unit: 'KB/s', target: '< 200 KB/s', met: bytesPerSecond < 200 * 1024 });
reportFigure({ figure: 'render first frame (in-process)', median: Math.round(firstFrameMs), unit: 'ms' });
await firstFrameInTmux();
if (!code) await (await import('./render-input.js')).benchInput();
process.exit(0);

/**
 * Median time from starting `command` in a tmux pane until `marker` reaches the pane, and the
 * screen as tmux shows it then. The clock starts when the pane's shell is told to exec the
 * command (a keypress it waits for), and the pane's output is watched through `pipe-pane` by
 * reading a file in this process: polling with `capture-pane` spawns a tmux client every few
 * milliseconds, and on a two-core machine that alone slows the measured process by half.
 */
async function timeToScreen(
  command: string,
  marker: string,
  runs: number,
  cwd: string,
  /** Typed the moment the marker shows; `typedMs` is when it is echoed back (the input is live). */
  typeAfter?: string,
): Promise<{ ms: number; typedMs: number; screen: string }> {
  const { execFileSync } = await import('node:child_process');
  const { readFileSync, rmSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const { join } = await import('node:path');
  const times: number[] = [];
  const typedTimes: number[] = [];
  let screen = '';
  for (let i = 0; i < runs; i++) {
    // A server per run: a new session right after kill-server can race the old server's exit.
    const socket = `lwyrm-bench-${process.pid}-${marker.length}-${i}`;
    const tmux = (...args: string[]): string => execFileSync('tmux', ['-L', socket, ...args], { encoding: 'utf8' });
    const log = join(tmpdir(), `${socket}.out`);
    rmSync(log, { force: true });
    try {
      tmux('new-session', '-d', '-s', 'b', '-x', '120', '-y', '40', '-c', cwd, `read _; ${command}; sleep 30`);
      tmux('pipe-pane', '-t', 'b', '-o', `cat > ${log}`);
      await new Promise((resolve) => setTimeout(resolve, 300));
      const until = async (what: string): Promise<number> => {
        for (;;) {
          let out = '';
          try {
            out = readFileSync(log, 'latin1');
          } catch {
            // Not created yet.
          }
          if (out.includes(what)) return performance.now() - start;
          if (performance.now() - start > 20_000) throw new Error(`${what} never appeared; screen:\n${tmux('capture-pane', '-p', '-t', 'b')}`);
          await new Promise((resolve) => setTimeout(resolve, 1));
        }
      };
      const start = performance.now();
      tmux('send-keys', '-t', 'b', 'Enter');
      times.push(await until(marker));
      if (typeAfter !== undefined) {
        tmux('send-keys', '-t', 'b', '-l', typeAfter);
        typedTimes.push(await until(typeAfter));
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
      screen = tmux('capture-pane', '-p', '-t', 'b');
    } finally {
      try {
        tmux('kill-server');
      } catch {
        // Already gone.
      }
      rmSync(log, { force: true });
    }
  }
  const median = (xs: number[]): number => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;
  return { ms: median(times), typedMs: median(typedTimes), screen };
}

async function firstFrameInTmux(): Promise<void> {
  const { execFileSync } = await import('node:child_process');
  const { existsSync } = await import('node:fs');
  const { cp, rm } = await import('node:fs/promises');
  const { join, resolve } = await import('node:path');
  // A private copy of the build, beside dist/ (cli.js reads ../package.json): a rebuild running
  // elsewhere must not pull files away mid-measurement.
  const snapshot = resolve(`.bench-dist-${process.pid}`);
  const cli = join(snapshot, 'cli.js');
  try {
    execFileSync('tmux', ['-V'], { stdio: 'ignore' });
  } catch {
    process.stdout.write('  first frame in a terminal: skipped (tmux is not installed)\n');
    return;
  }
  if (!existsSync(resolve('dist/cli.js'))) {
    process.stdout.write('  first frame in a terminal: skipped (run `npm run build` first)\n');
    return;
  }
  await cp(resolve('dist'), snapshot, { recursive: true });
  const { startFakeProvider } = await import('../test/support/fake-provider.js');
  const { makeSandbox } = await import('../test/support/sandbox.js');
  const fake = await startFakeProvider({ format: 'anthropic', replies: [] });
  const sandbox = await makeSandbox({ format: 'anthropic', baseUrl: fake.baseUrl });
  try {
    const { project } = sandbox;
    const env = `env -u CI ${sandbox.shellEnv}`;
    const runs = Number(process.env['BENCH_RUNS'] ?? 5);
    const shell = await timeToScreen(`printf ready-marker`, 'ready-marker', runs, project);
    const bare = await timeToScreen(`${env} ${process.execPath} -e "process.stdout.write('ready-marker')"`, 'ready-marker', runs, project);
    // The model name is written in one piece (the preset name and the parenthesis carry styles).
    const lwyrm = await timeToScreen(`${env} ${process.execPath} ${cli}`, 'fake-model', runs, project, 'qzxq');
    // The header must be what tmux shows, not merely bytes that went by.
    if (!lwyrm.screen.includes('fake (anthropic, fake-model)') || !lwyrm.screen.includes('compaction at')) {
      throw new Error(`the first frame is not on screen:\n${lwyrm.screen}`);
    }
    const [load] = (await import('node:os')).loadavg();
    process.stdout.write(
      `  first frame in a terminal (load ${load?.toFixed(2)}, median of ${runs}): ${lwyrm.ms.toFixed(0)} ms from exec to the header (target < 400 ms); ` +
        `bare node printing a word: ${bare.ms.toFixed(0)} ms (lwyrm is ${(lwyrm.ms - bare.ms).toFixed(0)} ms more); printf: ${shell.ms.toFixed(0)} ms\n` +
        `  keys typed as the first frame shows are echoed in the input at ${lwyrm.typedMs.toFixed(0)} ms from exec (the view is loaded and live)\n`,
    );
    reportFigure({ figure: 'first full-screen frame (tmux)', median: Math.round(lwyrm.ms), unit: 'ms', target: '< 400 ms', met: lwyrm.ms < 400 });
    reportFigure({ figure: 'input live (tmux)', median: Math.round(lwyrm.typedMs), unit: 'ms' });
  } finally {
    await fake.close();
    await sandbox.cleanup();
    await rm(snapshot, { recursive: true, force: true });
  }
}
