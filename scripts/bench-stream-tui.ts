/**
 * What streaming costs the user's machine: the built `lwyrm` in a real terminal (tmux, 120x40)
 * against the local fake provider streaming a 5,000-line answer at 2,000 deltas a second, with
 * the CPU time of the whole process tree (utime + stime of every process under the pane, from
 * /proc) per second of streaming and the tree's peak RSS. The floor is taken in the same run:
 * bare node reading the same stream with fetch and printing each delta into the same kind of pane.
 * Then both again next to a CPU hog (one busy process per core), the "loaded" figures.
 *
 *   node --import tsx scripts/bench-stream-tui.ts [lines] [deltasPerSecond]
 *   node --import tsx scripts/bench-stream-tui.ts --quiet-only      (no loaded variant)
 *   node --import tsx scripts/bench-stream-tui.ts --cpu-prof DIR    (lwyrm writes a .cpuprofile there)
 *   node --import tsx scripts/bench-stream-tui.ts --heap-prof DIR   (lwyrm writes a .heapprofile there)
 *   node --import tsx scripts/bench-stream-tui.ts --heap-snapshot DIR   (a heap snapshot as the stream ends)
 *   node --import tsx scripts/bench-stream-tui.ts --baseline DIST   (also another build's dist/, e.g. main's: before/after in one run)
 *
 * CPU is counted in clock ticks the kernel charged, not wall time, so a busy machine changes the
 * figure little; the load average is printed beside it. Targets (issue 29): < 20% of one core,
 * peak RSS < 130 MiB. Needs tmux, Linux /proc and a build (dist/cli.js).
 */
import { execFileSync } from 'node:child_process';
import { startCpuHog } from './cpu-hog.js';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { cp, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { reportFigure } from './bench-report.js';
import { startFakeProvider } from '../test/support/fake-provider.js';
import { makeSandbox } from '../test/support/sandbox.js';

const flag = (name: string): string | undefined => {
  const i = process.argv.indexOf(name);
  return i < 0 ? undefined : process.argv[i + 1];
};
const numbers = process.argv.slice(2).filter((a, i, all) => /^\d+$/.test(a) && !all[i - 1]?.startsWith('--'));
const LINES = Number(numbers[0] ?? 5000);
const RATE = Number(numbers[1] ?? 2000);
const CPU_PROF = flag('--cpu-prof');
const HEAP_PROF = flag('--heap-prof');
const SNAPSHOT = flag('--heap-snapshot');
const BASELINE = flag('--baseline');
const QUIET_ONLY = process.argv.includes('--quiet-only') || CPU_PROF !== undefined || HEAP_PROF !== undefined || SNAPSHOT !== undefined;
const TICK_MS = 1000 / Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim() || 100);
const LAST_LINE = `end of the answer: line ${LINES}`;

/** A markdown answer of `lines` lines: prose, lists, headings, inline code, a fenced block now and then. */
function answerText(lines: number): string {
  const words = ['the', 'parser', 'reads', 'each', 'token', 'and', 'returns', 'a', 'node;', '`value`', '**then**', 'we', 'check'];
  const out: string[] = [];
  for (let i = 1; i < lines; i++) {
    if (i % 250 === 1) out.push(`## Part ${Math.ceil(i / 250)}`);
    else if (i % 100 === 40 && process.env['BENCH_NO_CODE'] === undefined) out.push('```ts');
    else if (i % 100 > 40 && i % 100 < 48) out.push(`  const item${i} = tokens[${i}].value ?? fallback(${i});`);
    else if (i % 100 === 48 && process.env['BENCH_NO_CODE'] === undefined) out.push('```');
    else if (i % 7 === 0) out.push('');
    else out.push(`${i % 3 === 0 ? '- ' : ''}line ${i}: ${words.slice(0, 3 + (i % 8)).join(' ')}`);
  }
  out.push(LAST_LINE);
  return out.join('\n');
}

/** Bare node doing only what the floor does: read the stream, print each text delta. */
const FLOOR = `
const res = await fetch(process.argv[2] + '/v1/messages', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"model":"fake-model","stream":true}' });
const decoder = new TextDecoder();
let buffer = '';
for await (const chunk of res.body) {
  buffer += decoder.decode(chunk, { stream: true });
  let end;
  while ((end = buffer.indexOf('\\n\\n')) >= 0) {
    const event = buffer.slice(0, end);
    buffer = buffer.slice(end + 2);
    const data = event.split('\\n').find((l) => l.startsWith('data: '));
    if (!data) continue;
    const msg = JSON.parse(data.slice(6));
    if (msg.type === 'content_block_delta' && msg.delta.type === 'text_delta') process.stdout.write(msg.delta.text);
  }
}
// Stay until the pane is closed, as lwyrm does: its CPU is read from /proc after the last frame.
setInterval(() => {}, 1 << 30);
`;

interface ProcSample {
  readonly ticks: number;
  readonly rssKiB: number;
  readonly hwmKiB: number;
  readonly pids: number;
}

/** Every process under `root` (itself included), from /proc's parent links. */
function tree(root: number): number[] {
  const parent = new Map<number, number>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'latin1');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      parent.set(Number(name), Number(fields[1]));
    } catch {
      // Gone since the listing.
    }
  }
  const out = [root];
  for (let i = 0; i < out.length; i++) for (const [pid, ppid] of parent) if (ppid === out[i]) out.push(pid);
  return out;
}

function sample(root: number): ProcSample {
  let ticks = 0;
  let rssKiB = 0;
  let hwmKiB = 0;
  const pids = tree(root);
  for (const pid of pids) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      // Fields 14 and 15 of stat (utime, stime), counted from after the command name.
      ticks += Number(fields[11]) + Number(fields[12]);
      const status = readFileSync(`/proc/${pid}/status`, 'latin1');
      rssKiB += Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
      hwmKiB += Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0);
    } catch {
      // Exited between the listing and the read.
    }
  }
  return { ticks, rssKiB, hwmKiB, pids: pids.length };
}

interface Run {
  readonly cpuShare: number;
  readonly peakRssMiB: number;
  readonly hwmMiB: number;
  readonly seconds: number;
  /** When the request arrived: what start-up left. */
  readonly startRssMiB: number;
  readonly screen: string;
  readonly load: number;
}

async function runInPane(label: string, command: string, cwd: string, expectOnScreen: string): Promise<Run> {
  let firstAt = 0;
  let endAt = 0;
  const socket = `lwyrm-stream-${process.pid}-${label.replace(/\W+/g, '-')}`;
  const tmux = (...args: string[]): string => execFileSync('tmux', ['-L', socket, ...args], { encoding: 'utf8' });
  const hooks = current;
  hooks.onStart = () => (firstAt = performance.now());
  hooks.onEnd = () => (endAt = performance.now());
  try {
    tmux('new-session', '-d', '-s', 'b', '-x', '120', '-y', '40', '-c', cwd, `${command}; sleep 600`);
    const root = Number(tmux('display-message', '-p', '-t', 'b', '#{pane_pid}').trim());
    const deadline = performance.now() + 60_000 + (LINES * 12 * 1000) / RATE;
    while (firstAt === 0) {
      if (performance.now() > deadline) throw new Error(`${label}: no request reached the fake provider; screen:\n${tmux('capture-pane', '-p', '-t', 'b')}`);
      await sleep(20);
    }
    const start = sample(root);
    const startedAt = performance.now();
    let peak = start.rssKiB;
    while (endAt === 0) {
      if (performance.now() > deadline) throw new Error(`${label}: the stream did not end in time`);
      await sleep(100);
      peak = Math.max(peak, sample(root).rssKiB);
    }
    // The last frame is drawn after the last delta arrives: count until it is on screen.
    let screen = '';
    while (!(screen = tmux('capture-pane', '-p', '-t', 'b')).includes(expectOnScreen)) {
      if (performance.now() > deadline) throw new Error(`${label}: "${expectOnScreen}" never showed; screen:\n${screen}`);
      await sleep(20);
    }
    const end = sample(root);
    const seconds = (performance.now() - startedAt) / 1000;
    peak = Math.max(peak, end.rssKiB);
    if (SNAPSHOT !== undefined && label === 'lwyrm') {
      for (const pid of tree(root)) if (readFileSync(`/proc/${pid}/comm`, 'latin1').trim() === 'node') process.kill(pid, 'SIGUSR2');
      await sleep(90_000);
    }
    if ((CPU_PROF !== undefined || HEAP_PROF !== undefined) && label === 'lwyrm') {
      // A profile is written on a clean exit: leave through the app's own Ctrl+C path.
      tmux('send-keys', '-t', 'b', 'C-c');
      await sleep(200);
      tmux('send-keys', '-t', 'b', 'C-c');
      await sleep(3000);
    }
    return {
      cpuShare: ((end.ticks - start.ticks) * TICK_MS) / 1000 / seconds,
      peakRssMiB: peak / 1024,
      hwmMiB: end.hwmKiB / 1024,
      seconds,
      startRssMiB: start.rssKiB / 1024,
      screen,
      load: loadavg()[0] ?? 0,
    };
  } finally {
    try {
      tmux('kill-server');
    } catch {
      // Already gone.
    }
  }
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
const current: { onStart: () => void; onEnd: () => void } = { onStart: () => undefined, onEnd: () => undefined };

try {
  execFileSync('tmux', ['-V'], { stdio: 'ignore' });
} catch {
  console.log('stream in tmux: skipped (tmux is not installed)');
  process.exit(0);
}
if (!existsSync(resolve('dist/cli.js')) || !existsSync('/proc/self/stat')) {
  console.log('stream in tmux: skipped (needs Linux /proc and a build: npm run build)');
  process.exit(0);
}

const text = answerText(LINES);
// A private copy of the build: a rebuild elsewhere must not pull files away mid-measurement.
const snapshot = resolve(`.bench-dist-${process.pid}`);
await cp(resolve('dist'), snapshot, { recursive: true });
const fake = await startFakeProvider({
  format: 'anthropic',
  replies: () => {
    current.onStart();
    return { text, eventsPerSecond: RATE, onWritten: () => current.onEnd() };
  },
});
const sandbox = await makeSandbox({ format: 'anthropic', baseUrl: fake.baseUrl });
const dir = await mkdtemp(join(tmpdir(), 'lwyrm-stream-'));
const floorFile = join(dir, 'floor.mjs');
await writeFile(floorFile, FLOOR);
const env = `env -u CI ${sandbox.shellEnv}`;
const profile = [
  process.env['BENCH_NODE_FLAGS'] ?? '',
  CPU_PROF ? `--cpu-prof --cpu-prof-dir=${resolve(CPU_PROF)}` : '',
  HEAP_PROF ? `--heap-prof --heap-prof-dir=${resolve(HEAP_PROF)}` : '',
  SNAPSHOT ? `--heapsnapshot-signal=SIGUSR2 --diagnostic-dir=${resolve(SNAPSHOT)}` : '',
].join(' ');
const lwyrm = `${env} ${process.execPath} ${profile} ${join(snapshot, 'cli.js')} 'stream the long answer'`;
const floor = `${env} ${process.execPath} ${floorFile} ${fake.baseUrl}`;
const baselineSnapshot = resolve(`.bench-baseline-${process.pid}`);
if (BASELINE !== undefined) {
  // Its own dist/ beside a package.json, as cli.js expects.
  await cp(resolve(BASELINE), join(baselineSnapshot, 'dist'), { recursive: true });
  await cp(resolve('package.json'), join(baselineSnapshot, 'package.json'));
}
const baseline = `${env} ${process.execPath} ${join(baselineSnapshot, 'dist', 'cli.js')} 'stream the long answer'`;
const deltas = (await import('../test/support/fake-provider-events.js')).pieces(text).length;

const figures: Record<string, Run> = {};
try {
  figures['lwyrm'] = await runInPane('lwyrm', lwyrm, sandbox.project, LAST_LINE);
  figures['floor'] = await runInPane('floor', floor, sandbox.project, LAST_LINE);
  if (BASELINE !== undefined) figures['baseline'] = await runInPane('baseline', baseline, sandbox.project, LAST_LINE);
  if (!QUIET_ONLY) {
    // One busy process per core: the "loaded" machine.
    const hog = await startCpuHog({ processes: availableParallelism() });
    try {
      await sleep(500);
      figures['lwyrm loaded'] = await runInPane('lwyrm-loaded', lwyrm, sandbox.project, LAST_LINE);
      figures['floor loaded'] = await runInPane('floor-loaded', floor, sandbox.project, LAST_LINE);
      if (BASELINE !== undefined) figures['baseline loaded'] = await runInPane('baseline-loaded', baseline, sandbox.project, LAST_LINE);
    } finally {
      await hog.stop();
    }
  }
} finally {
  await fake.close();
  await sandbox.cleanup();
  await rm(dir, { recursive: true, force: true });
  await rm(snapshot, { recursive: true, force: true });
  await rm(baselineSnapshot, { recursive: true, force: true });
}

const pct = (x: number): string => `${(x * 100).toFixed(1)}%`;
console.log(`stream in tmux: 120x40, a ${LINES}-line answer, ${deltas} deltas at ${RATE}/s, CPU of the whole process tree per second of streaming`);
for (const [name, run] of Object.entries(figures)) {
  console.log(
    `  ${name.padEnd(13)} CPU ${pct(run.cpuShare).padStart(6)} of one core, peak RSS ${run.peakRssMiB.toFixed(0)} MiB (${run.startRssMiB.toFixed(0)} at the request, high-water ${run.hwmMiB.toFixed(0)} MiB), ${run.seconds.toFixed(1)} s, load ${run.load.toFixed(2)}`,
  );
}
const main = figures['lwyrm']!;
const bare = figures['floor']!;
const round = (x: number): number => Math.round(x * 10) / 10;
reportFigure({ figure: 'streaming CPU, whole process (tmux)', median: round(main.cpuShare * 100), unit: '% of one core', target: '< 20%', met: main.cpuShare < 0.2 });
reportFigure({ figure: 'streaming peak RSS (tmux)', median: Math.round(main.peakRssMiB), unit: 'MiB', target: '< 130 MiB', met: main.peakRssMiB < 130 });
reportFigure({ figure: 'streaming CPU floor: bare node', median: round(bare.cpuShare * 100), unit: '% of one core' });
reportFigure({ figure: 'streaming RSS floor: bare node', median: Math.round(bare.peakRssMiB), unit: 'MiB' });
const loaded = figures['lwyrm loaded'];
const loadedFloor = figures['floor loaded'];
if (loaded && loadedFloor) {
  reportFigure({ figure: `streaming CPU, loaded (load ${loaded.load.toFixed(1)})`, median: round(loaded.cpuShare * 100), unit: '% of one core', target: '< 20%', met: loaded.cpuShare < 0.2 });
  reportFigure({ figure: 'streaming peak RSS, loaded', median: Math.round(loaded.peakRssMiB), unit: 'MiB', target: '< 130 MiB', met: loaded.peakRssMiB < 130 });
  reportFigure({ figure: 'streaming CPU floor, loaded', median: round(loadedFloor.cpuShare * 100), unit: '% of one core' });
}
