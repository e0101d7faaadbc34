/**
 * A CPU hog for the "loaded" variants of the benches: N busy node processes, so a figure can be
 * taken while the machine is as busy as a developer's laptop running a build (load average ~5).
 *
 * As a module:
 *
 *   import { startCpuHog } from './cpu-hog.js';
 *   const hog = await startCpuHog({ processes: 5 });   // resolves once every child is spinning
 *   try { ...measure... } finally { await hog.stop(); }
 *   hog.describe()  // "5 busy processes, runnable now 7, load 4.8 3.1 2.0" — print it with the figure
 *
 * From the shell (runs a command under load, or spins until Ctrl-C / --seconds):
 *
 *   node --import tsx scripts/cpu-hog.ts [--processes 5] [--seconds 30] [-- command args…]
 *
 * The one-minute load average lags: five spinners take about two minutes to lift it from 0 to
 * 4.5. The instantaneous count of runnable tasks (/proc/loadavg's fourth field) moves at once;
 * `describe()` reports both, and `waitForLoad` waits for the average when a script wants it.
 * Each child checks its parent now and then and exits if the parent is gone, so a bench that
 * dies mid-run leaves no spinners behind.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';

export interface CpuHogOptions {
  /** Busy processes to start; default 5 (load ~5 on top of whatever else runs). */
  readonly processes?: number;
  /**
   * In a session of their own (setsid), as a build started in another terminal is. Where the
   * kernel groups CPU time by session (Linux's autogroup, sched_autogroup_enabled), the spinners
   * then share one group's CPU time, and the bench's own parts (the tmux client it types with,
   * the fake provider that times the request) do not compete with them inside its session.
   */
  readonly apart?: boolean;
}

export interface CpuHog {
  readonly pids: readonly number[];
  /** Kills every spinner and waits for them to exit. Safe to call twice. */
  stop(): Promise<void>;
  /** One line for a bench's log: how many spinners, runnable tasks now, load averages. */
  describe(): string;
}

// Spins; every few ms of work it checks that the parent still exists (ppid changes on reparenting).
const SPINNER = `
const parent = Number(process.argv[1]);
process.stdout.write('spinning\\n');
let x = 0;
for (;;) {
  for (let i = 0; i < 5e6; i++) x = (x + i) | 0;
  if (process.ppid !== parent) process.exit(0);
}
`;

// Starts the spinners in its own session (it is spawned detached) and goes when its parent does.
const LAUNCHER = `
const { spawn } = require('node:child_process');
const [count, parent, spinner] = [Number(process.argv[1]), Number(process.argv[2]), process.argv[3]];
let up = 0;
for (let i = 0; i < count; i++) {
  const c = spawn(process.execPath, ['-e', spinner, String(process.pid)], { stdio: ['ignore', 'pipe', 'inherit'] });
  c.stdout.once('data', () => { if (++up === count) process.stdout.write('spinning\\n'); });
}
setInterval(() => { if (process.ppid !== parent) process.exit(0); }, 200);
`;

export async function startCpuHog(options: CpuHogOptions = {}): Promise<CpuHog> {
  const count = options.processes ?? 5;
  if (!Number.isInteger(count) || count < 1) throw new Error(`cpu-hog: processes must be a positive integer, got ${String(count)}`);
  const children: ChildProcess[] = [];
  const started: Promise<void>[] = [];
  for (let i = 0; i < (options.apart ? 1 : count); i++) {
    const child = options.apart
      ? spawn(process.execPath, ['-e', LAUNCHER, String(count), String(process.pid), SPINNER], { stdio: ['ignore', 'pipe', 'inherit'], detached: true })
      : spawn(process.execPath, ['-e', SPINNER, String(process.pid)], { stdio: ['ignore', 'pipe', 'inherit'] });
    children.push(child);
    started.push(
      new Promise((resolveStart, rejectStart) => {
        child.once('error', rejectStart);
        child.stdout?.once('data', () => resolveStart());
        child.once('exit', (code) => rejectStart(new Error(`cpu-hog: a spinner exited early (code ${String(code)})`)));
      }),
    );
  }
  // A parent that exits without stop() still takes its spinners down.
  const killAll = (): void => {
    for (const c of children) {
      if (c.exitCode !== null || c.signalCode !== null) continue;
      // Apart: the launcher leads the spinners' process group.
      if (options.apart && c.pid !== undefined) {
        try {
          process.kill(-c.pid, 'SIGKILL');
        } catch {
          // Gone already.
        }
      } else c.kill('SIGKILL');
    }
  };
  process.once('exit', killAll);
  try {
    await Promise.all(started);
  } catch (error) {
    killAll();
    throw error;
  }
  let stopped: Promise<void> | undefined;
  return {
    pids: children.map((c) => c.pid ?? -1),
    stop(): Promise<void> {
      stopped ??= Promise.all(
        children.map(
          (c) =>
            new Promise<void>((done) => {
              if (c.exitCode !== null || c.signalCode !== null) return done();
              c.once('exit', () => done());
              killAll();
            }),
        ),
      ).then(() => {
        process.removeListener('exit', killAll);
      });
      return stopped;
    },
    describe: () => `${count} busy processes${options.apart ? ' in a session of their own' : ''}, ${loadLine()}`,
  };
}

/** Runnable tasks right now (Linux) and the 1/5/15-minute load averages. */
export function loadLine(): string {
  const averages = loadavg().map((n) => n.toFixed(1)).join(' ');
  const runnable = runnableNow();
  return `${runnable === undefined ? '' : `runnable now ${runnable}, `}load ${averages}`;
}

export function runnableNow(): number | undefined {
  try {
    const field = readFileSync('/proc/loadavg', 'utf8').split(' ')[3] ?? '';
    const running = Number(field.split('/')[0]);
    return Number.isFinite(running) ? running : undefined;
  } catch {
    return undefined; // not Linux: the load averages alone are reported
  }
}

/** Resolves when the one-minute load average reaches `target`, or after `timeoutMs` regardless. */
export async function waitForLoad(target: number, timeoutMs = 180_000): Promise<number> {
  const until = Date.now() + timeoutMs;
  while ((loadavg()[0] ?? 0) < target && Date.now() < until) await new Promise((r) => setTimeout(r, 1000));
  return loadavg()[0] ?? 0;
}

function parseArgs(argv: readonly string[]): { processes: number; seconds?: number; command: string[] } {
  const dash = argv.indexOf('--');
  const own = dash === -1 ? argv : argv.slice(0, dash);
  const command = dash === -1 ? [] : argv.slice(dash + 1);
  let processes = 5;
  let seconds: number | undefined;
  for (let i = 0; i < own.length; i++) {
    const flag = own[i];
    const value = Number(own[i + 1]);
    if (flag === '--processes' && Number.isInteger(value) && value > 0) processes = value;
    else if (flag === '--seconds' && value > 0) seconds = value;
    else throw new Error(`cpu-hog: unknown or bad argument ${JSON.stringify(flag)} (use --processes N, --seconds S, -- command…)`);
    i++;
  }
  return { processes, ...(seconds === undefined ? {} : { seconds }), command };
}

async function main(): Promise<void> {
  const { processes, seconds, command } = parseArgs(process.argv.slice(2));
  const hog = await startCpuHog({ processes });
  process.stderr.write(`cpu-hog: ${hog.describe()}\n`);
  const stopOn = (signal: NodeJS.Signals): void => {
    process.once(signal, () => void hog.stop().then(() => process.exit(130)));
  };
  stopOn('SIGINT');
  stopOn('SIGTERM');
  if (command.length > 0) {
    const [program, ...args] = command;
    const child = spawn(program ?? '', args, { stdio: 'inherit' });
    const code = await new Promise<number>((done) => child.on('close', (c) => done(c ?? 1)));
    process.stderr.write(`cpu-hog: after the command, ${hog.describe()}\n`);
    await hog.stop();
    process.exitCode = code;
    return;
  }
  await new Promise((r) => setTimeout(r, (seconds ?? 365 * 24 * 3600) * 1000));
  await hog.stop();
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
