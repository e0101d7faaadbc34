/**
 * A CPU hog for the "loaded" variants of the benches: N busy node processes, so a figure can be
 * taken while the machine is as busy as a laptop running a build (load average ~5).
 *
 *   const hog = await startCpuHog({ processes: 5 });   // resolves once every child spins
 *   try { ...measure... } finally { await hog.stop(); }
 *   hog.describe()   // "5 busy processes, load 4.8 3.1 2.0": print it with the figure
 *
 * Each spinner exits by itself when its parent is gone, so a bench that dies leaves none behind.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { loadavg } from 'node:os';

export interface CpuHog {
  readonly pids: readonly number[];
  /** Kills every spinner and waits for them to exit. Safe to call twice. */
  stop(): Promise<void>;
  describe(): string;
}

// Spins; between bursts of work it checks that its parent still exists (ppid changes on reparenting).
const SPINNER = `
const parent = Number(process.argv[1]);
process.stdout.write('spinning\\n');
let x = 0;
for (;;) {
  for (let i = 0; i < 2e7; i++) x = (x + i) | 0;
  if (process.ppid !== parent) process.exit(0);
}
`;

export async function startCpuHog(options: { readonly processes?: number } = {}): Promise<CpuHog> {
  const count = options.processes ?? 5;
  const children: ChildProcess[] = [];
  const started: Promise<void>[] = [];
  for (let i = 0; i < count; i++) {
    const child = spawn(process.execPath, ['-e', SPINNER, String(process.pid)], { stdio: ['ignore', 'pipe', 'inherit'] });
    children.push(child);
    started.push(
      new Promise((resolve, reject) => {
        child.once('error', reject);
        child.stdout?.once('data', () => resolve());
        child.once('exit', (code) => reject(new Error(`cpu-hog: a spinner exited early (code ${String(code)})`)));
      }),
    );
  }
  const killAll = (): void => {
    for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
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
    stop() {
      stopped ??= Promise.all(
        children.map(
          (c) =>
            new Promise<void>((done) => {
              if (c.exitCode !== null || c.signalCode !== null) return done();
              c.once('exit', () => done());
              c.kill('SIGKILL');
            }),
        ),
      ).then(() => void process.removeListener('exit', killAll));
      return stopped;
    },
    describe: () => `${count} busy processes, ${loadLine()}`,
  };
}

/** The 1/5/15-minute load averages. */
export function loadLine(): string {
  return `load ${loadavg()
    .map((n) => n.toFixed(1))
    .join(' ')}`;
}
