/**
 * Times glob and grep on a large real tree (this repository's node_modules by default) against
 * ripgrep itself, and the command sandbox's overhead per command against a bare spawn (target
 * < 30 ms). Prints figures; asserts nothing.
 *
 *   node --import tsx scripts/bench-tools.ts [DIR] [--runs N] [--sandbox-only]
 *
 * On a shared, loaded machine the sandbox's figure stretches with the load (each of its process
 * starts waits for a core); `chrt -f 10 node …` (as root) measures it as a quiet machine would.
 */
import { spawnSync } from 'node:child_process';
import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import picomatch from 'picomatch';
import { loadConfig } from '../src/config/load-config.js';
import { createSandbox } from '../src/sandbox/create-sandbox.js';
import { runInGroup } from '../src/tools/process-group.js';
import { median as medianOf, reportFigure } from './bench-report.js';
import { grepInProcess, grepWithRipgrep, ripgrepPath, type GrepQuery } from '../src/tools/grep-engines.js';
import { VENDORED_DIRS, walkFiles } from '../src/tools/walk-files.js';

const argv = process.argv.slice(2);
const runsAt = argv.indexOf('--runs');
const runs = runsAt >= 0 ? Number(argv[runsAt + 1]) : 3;
const dirArg = argv.find((a, i) => !a.startsWith('--') && argv[i - 1] !== '--runs');
const sandboxOnly = argv.includes('--sandbox-only');
const base = await realpath(path.resolve(dirArg ?? 'node_modules'));
const rg = await ripgrepPath();
// The project root the tree sits in: its ignore files apply, as they would for the tools.
const root = await realpath(process.cwd());

async function median(fn: () => Promise<number>): Promise<{ ms: number; count: number }> {
  const times: number[] = [];
  let count = 0;
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    count = await fn();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return { ms: times[Math.floor(times.length / 2)] as number, count };
}

function rgCli(args: string[]): Promise<number> {
  const vendored = [...VENDORED_DIRS].flatMap((d) => ['--glob', `!${d}/`]);
  const out = spawnSync(rg as string, ['--no-config', '--hidden', '--no-require-git', '--no-ignore-global', ...vendored, ...args], {
    cwd: base,
    // With no path and a pipe on stdin, rg would search stdin.
    stdio: ['ignore', 'pipe', 'pipe'],
    maxBuffer: 1 << 30,
    encoding: 'utf8',
  });
  return Promise.resolve(out.stdout.split('\n').filter((l) => l !== '').length);
}

/** A tool's time, with ripgrep's next to it and the target (< 1.5x rg) when rg is installed. */
function reportVsRg(figure: string, r: { ms: number }, rgTime: { ms: number } | undefined): void {
  const vs = rgTime === undefined ? {} : { target: `< 1.5x rg (${rgTime.ms.toFixed(0)} ms)`, met: r.ms < 1.5 * rgTime.ms };
  reportFigure({ figure, median: Math.round(r.ms), unit: 'ms', ...vs });
}

function row(label: string, r: { ms: number; count: number }, reference?: { ms: number }): string {
  const ratio = reference === undefined ? '' : `  ${(r.ms / reference.ms).toFixed(2)}x rg`;
  return `${label.padEnd(34)} ${r.ms.toFixed(0).padStart(7)} ms  ${String(r.count).padStart(8)} results${ratio}`;
}

/**
 * One `bash -c true` through the bash tool's spawn path, bare and sandboxed: the sandbox's cost is
 * the difference (its wrap — masks, mount plan — plus bwrap's namespaces and mounts). The real
 * home folder's credential locations are masked, as in a session; the config is the defaults'.
 */
async function sandboxOverhead(): Promise<void> {
  const scratch = await realpath(await mkdtemp(path.join(tmpdir(), 'lwyrm-bench-sandbox-')));
  const env: NodeJS.ProcessEnv = { ...process.env, XDG_CONFIG_HOME: path.join(scratch, 'config') };
  const project = path.join(scratch, 'project');
  spawnSync('mkdir', ['-p', project]);
  spawnSync('git', ['init', '-q'], { cwd: project });
  const times = { bare: [] as number[], off: [] as number[], allow: [] as number[] };

  const sandboxRuns = Math.max(runs, 15);
  for (const [label, network] of [['off', []], ['allow', ['registry.npmjs.org']]] as const) {
    const loaded = await loadConfig({ cwd: project, env });
    const config = { ...loaded, sandbox: { ...loaded.sandbox, network: [...network] } };
    const sandbox = createSandbox({ config: () => config, env, sessionId: () => 'bench' });
    const status = await sandbox.ready();
    if (status.state !== 'on') {
      console.log(`sandbox: not measured, it cannot start here (${status.state === 'unavailable' ? status.cause : 'off'})`);
      await rm(scratch, { recursive: true, force: true });
      return;
    }
    for (let i = 0; i < sandboxRuns; i++) {
      const spec = { argv: ['/bin/bash', '-c', 'true'], cwd: project, env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: env['HOME'] }, tool: 'bash' };
      for (const sandboxed of [false, true]) {
        const start = performance.now();
        const wrapped = sandboxed ? await sandbox.wrap(spec) : undefined;
        await runInGroup({ argv: wrapped?.argv ?? spec.argv, cwd: project, env: wrapped?.env ?? spec.env, timeoutMs: 10_000, signal: new AbortController().signal, onData: () => undefined });
        await wrapped?.cleanup();
        (sandboxed ? times[label] : times.bare).push(performance.now() - start);
      }
    }
    await sandbox.dispose();
  }
  await rm(scratch, { recursive: true, force: true });
  const bare = medianOf(times.bare);
  const off = medianOf(times.off) - bare;
  const allow = medianOf(times.allow) - bare;
  // On a shared machine the namespaces' kernel waits stretch with load; the lower quartile is
  // the closer figure for a quiet one.
  const quartile = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 4)] ?? 0;
  console.log(`sandbox overhead per command (median of ${sandboxRuns}; bare spawn ${bare.toFixed(1)} ms; load ${loadavg()[0]?.toFixed(1)})`);
  console.log(`  network off          ${off.toFixed(1)} ms  (target < 30; lower quartile ${(quartile(times.off) - quartile(times.bare)).toFixed(1)} ms)`);
  console.log(`  with sandbox_network ${allow.toFixed(1)} ms  (a Node bridge starts inside; lower quartile ${(quartile(times.allow) - quartile(times.bare)).toFixed(1)} ms)`);
  reportFigure({ figure: 'sandbox overhead per command, network off', median: Number(off.toFixed(1)), unit: 'ms', target: '< 30 ms over a bare spawn', met: off < 30 });
  reportFigure({ figure: 'sandbox overhead per command, with sandbox_network', median: Number(allow.toFixed(1)), unit: 'ms' });
}

if (sandboxOnly) {
  await sandboxOverhead();
  process.exit(0);
}

console.log(`tree: ${base}  (median of ${runs} runs; ripgrep ${rg === undefined ? 'not found' : rg})`);

// glob: every .js file
const isJs = picomatch('**/*.js', { dot: true });
const globOwn = await median(async () => {
  let n = 0;
  await walkFiles({ root, base, onFile: (_a, rel) => void (isJs(rel) && n++) });
  return n;
});
const globRg = rg === undefined ? undefined : await median(() => rgCli(['--files', '--glob', '*.js']));
if (globRg !== undefined) console.log(row('glob **/*.js  rg --files', globRg));
console.log(row('glob **/*.js  lindwyrm walk', globOwn, globRg));
reportVsRg('glob **/*.js, lindwyrm walk', globOwn, globRg);

// grep: a literal-ish and a regex pattern
for (const pattern of ['createElement', 'function\\s+\\w+Sync\\(']) {
  const q: GrepQuery = { root, base, baseIsDir: true, pattern, ignoreCase: false, excluded: [] };
  const cli = rg === undefined ? undefined : await median(() => rgCli(['--no-heading', '--line-number', '--null', '--max-filesize', '20M', '--regexp', pattern]));
  if (cli !== undefined) console.log(row(`grep ${pattern}  rg cli`, cli));
  if (rg !== undefined) {
    const wrapped = await median(async () => (await grepWithRipgrep(rg, q)).hits.length);
    console.log(row(`grep ${pattern}  tool via rg`, wrapped, cli));
    reportVsRg(`grep ${pattern}, the tool via rg`, wrapped, cli);
  }
  const own = await median(async () => (await grepInProcess(q)).hits.length);
  console.log(row(`grep ${pattern}  in-process`, own, cli));
  reportFigure({ figure: `grep ${pattern}, in-process fallback (no rg)`, median: Math.round(own.ms), unit: 'ms' });
}

await sandboxOverhead();
