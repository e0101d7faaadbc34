/**
 * Latency a user feels, in a real terminal (tmux, 120x40), against the local fake provider:
 *
 *   input live     keys typed the moment the first frame shows, until they are echoed in the
 *                  input: from exec (target < 250 ms) and from the first frame
 *   Enter → request  a prompt's Enter (tmux send-keys) until the fake provider has the request
 *                  (target < 150 ms, at load 5 too): the first prompt of a new session, half a
 *                  second after it is up, while the code map indexes the project (a copy of
 *                  this repo's src/) in its worker
 *
 * Each figure three times: quiet, and loaded next to a CPU hog (scripts/cpu-hog.ts, 5 busy
 * processes, load ~5 on top of whatever else runs), the hog in this script's session and then in
 * a session of its own (see main()). The load average is printed with every figure; on a
 * shared machine it is part of the figure.
 *
 *   node --import tsx scripts/bench-latency.ts [runs]       (build first: it times dist/cli.js)
 *   node --import tsx scripts/bench-latency.ts --quiet-only | --loaded-only [--same-session-only]
 *   LWYRM_BENCH_CLI=other/dist/cli.js ...                    (another build, to compare)
 */
import { execFileSync } from 'node:child_process';
import { cp, rm } from 'node:fs/promises';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { median, reportFigure } from './bench-report.js';
import { startCpuHog } from './cpu-hog.js';
import { startFakeProvider } from '../test/support/fake-provider.js';
import { makeSandbox, type Sandbox } from '../test/support/sandbox.js';

const runs = Number(process.argv.find((a) => /^\d+$/.test(a)) ?? process.env['BENCH_RUNS'] ?? 5);
const INPUT_LIVE_TARGET = 250;
const ENTER_TARGET = 150;
const PROMPT = 'say ok';
const REPLY = 'fine-reply-marker';

interface Run {
  readonly frame: number;
  readonly live: number;
  readonly enter: number;
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** One start-up in its own tmux server: first frame, keys echoed, then a prompt's Enter. */
async function oneRun(cli: string, sandbox: Sandbox, arrivals: number[], i: number): Promise<Run> {
  const socket = `lwyrm-latency-${process.pid}-${i}`;
  const tmux = (...args: string[]): string => execFileSync('tmux', ['-L', socket, ...args], { encoding: 'utf8' });
  const log = join(tmpdir(), `${socket}.out`);
  rmSync(log, { force: true });
  try {
    const command = `env -u CI ${sandbox.shellEnv} ${process.execPath} ${cli}`;
    tmux('new-session', '-d', '-s', 'b', '-x', '120', '-y', '40', '-c', sandbox.project, `read _; ${command}; sleep 30`);
    tmux('pipe-pane', '-t', 'b', '-o', `cat > ${log}`);
    await sleep(300);
    // The pane's output is watched through pipe-pane: polling capture-pane spawns a tmux client
    // every few milliseconds, which on two cores slows the measured process itself.
    const until = async (what: string, from: number): Promise<number> => {
      for (;;) {
        let out = '';
        try {
          out = readFileSync(log, 'latin1');
        } catch {
          // Not created yet.
        }
        if (out.includes(what)) return performance.now() - from;
        if (performance.now() - from > 20_000) throw new Error(`${what} never appeared; screen:\n${tmux('capture-pane', '-p', '-t', 'b')}`);
        await sleep(1);
      }
    };
    const start = performance.now();
    tmux('send-keys', '-t', 'b', 'Enter');
    const frame = await until('fake-model', start);
    tmux('send-keys', '-t', 'b', '-l', 'qzxq');
    const live = await until('qzxq', start);
    // The session is up (the status line no longer says it is starting; the code map's first
    // index still runs in its worker), then the prompt is typed over the test keys and sent.
    // Enter during start-up waits for the engine: that is the start-up's time, not this figure.
    for (;;) {
      const screen = tmux('capture-pane', '-p', '-t', 'b');
      if (!screen.includes('starting…')) break;
      if (performance.now() - start > 30_000) throw new Error(`the session never finished starting; screen:\n${screen}`);
      await sleep(100);
    }
    await sleep(500);
    tmux('send-keys', '-t', 'b', 'C-u');
    tmux('send-keys', '-t', 'b', '-l', PROMPT);
    await until(PROMPT, start);
    await sleep(200);
    const before = arrivals.length;
    const enterAt = performance.now();
    tmux('send-keys', '-t', 'b', 'Enter');
    while (arrivals.length === before) {
      if (performance.now() - enterAt > 20_000) throw new Error(`the request never came; screen:\n${tmux('capture-pane', '-p', '-t', 'b')}`);
      await new Promise((r) => setImmediate(r));
    }
    const enter = (arrivals[before] ?? NaN) - enterAt;
    await until(REPLY, start);
    return { frame, live, enter };
  } finally {
    try {
      tmux('kill-server');
    } catch {
      // Already gone.
    }
    rmSync(log, { force: true });
  }
}

async function measure(cli: string, label: 'quiet' | 'loaded' | 'loaded, hog apart'): Promise<void> {
  const arrivals: number[] = [];
  // The time is taken when the request's body has been read: the request has fully arrived.
  const fake = await startFakeProvider({
    format: 'anthropic',
    replies: () => {
      arrivals.push(performance.now());
      return { text: REPLY };
    },
  });
  const results: Run[] = [];
  const loads: number[] = [];
  try {
    for (let i = 0; i < runs; i++) {
      // A fresh home and project per run: each is a first start in that project (no saved
      // sessions, no code map cache, no rewind store), as the first run of a day is.
      const sandbox = await makeSandbox({ format: 'anthropic', baseUrl: fake.baseUrl, codeMap: true });
      try {
        await cp(resolve('src'), join(sandbox.project, 'src'), { recursive: true });
        loads.push(loadavg()[0] ?? 0);
        results.push(await oneRun(cli, sandbox, arrivals, i));
      } finally {
        await sandbox.cleanup();
      }
    }
  } finally {
    await fake.close();
  }
  const load = `load ${Math.min(...loads).toFixed(1)}–${Math.max(...loads).toFixed(1)}`;
  const frame = median(results.map((r) => r.frame));
  const live = median(results.map((r) => r.live));
  const afterFrame = median(results.map((r) => r.live - r.frame));
  const enter = median(results.map((r) => r.enter));
  const all = (pick: (r: Run) => number): string => results.map((r) => pick(r).toFixed(0)).join(', ');
  process.stdout.write(
    [
      `latency, ${label} (${load}, median of ${runs}, 120x40 tmux, code map indexing a copy of src/):`,
      `  first frame ${frame.toFixed(0)} ms from exec`,
      `  keys typed at the first frame echoed at ${live.toFixed(0)} ms from exec, ${afterFrame.toFixed(0)} ms after the frame (target < ${INPUT_LIVE_TARGET} ms from exec; runs: ${all((r) => r.live)})`,
      `  Enter → request at the provider ${enter.toFixed(1)} ms (target < ${ENTER_TARGET} ms; runs: ${all((r) => r.enter)})`,
      '',
    ].join('\n'),
  );
  const round = (n: number): number => Math.round(n * 10) / 10;
  reportFigure({ figure: `input live: keys echoed, from exec (${label}, ${load})`, median: round(live), unit: 'ms', target: `< ${INPUT_LIVE_TARGET} ms`, met: live < INPUT_LIVE_TARGET });
  reportFigure({ figure: `input live: keys echoed, after the first frame (${label}, ${load})`, median: round(afterFrame), unit: 'ms' });
  reportFigure({ figure: `Enter → request (${label}, ${load})`, median: round(enter), unit: 'ms', target: `< ${ENTER_TARGET} ms`, met: enter < ENTER_TARGET });
}

async function main(): Promise<void> {
  try {
    execFileSync('tmux', ['-V'], { stdio: 'ignore' });
  } catch {
    process.stdout.write('latency: skipped (tmux is not installed)\n');
    return;
  }
  const given = process.env['LWYRM_BENCH_CLI'];
  if (!given && !existsSync(resolve('dist/cli.js'))) {
    process.stdout.write('latency: skipped (run `npm run build` first)\n');
    return;
  }
  // A private copy of the build beside dist/ (cli.js reads ../package.json): a rebuild running
  // elsewhere must not pull files away mid-measurement.
  const snapshot = resolve(`.bench-dist-${process.pid}`);
  if (!given) await cp(resolve('dist'), snapshot, { recursive: true });
  const cli = given ? resolve(given) : join(snapshot, 'cli.js');
  try {
    if (!process.argv.includes('--loaded-only')) await measure(cli, 'quiet');
    if (!process.argv.includes('--quiet-only')) {
      // Twice: the spinners in this script's session, as the figure was first taken, where the
      // tmux client that types Enter and the fake provider that times the request share their
      // CPU time (Linux's autogroup divides it by session); then in a session of their own, as a
      // build in another terminal is, so the figure is lwyrm's and not the harness's.
      for (const apart of process.argv.includes('--same-session-only') ? [false] : [false, true]) {
        const hog = await startCpuHog({ processes: 5, apart });
        try {
          // The one-minute average lags; a few seconds let the spinners take their share first.
          await sleep(3000);
          process.stdout.write(`  (${hog.describe()})\n`);
          await measure(cli, apart ? 'loaded, hog apart' : 'loaded');
        } finally {
          await hog.stop();
        }
      }
    }
  } finally {
    await rm(snapshot, { recursive: true, force: true });
  }
}

await main();
