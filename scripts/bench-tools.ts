/**
 * Times glob and grep on a large real tree (this repository's node_modules by default) against
 * ripgrep itself. Prints figures; asserts nothing.
 *
 *   node --import tsx scripts/bench-tools.ts [DIR] [--runs N]
 */
import { spawnSync } from 'node:child_process';
import { realpath } from 'node:fs/promises';
import path from 'node:path';
import picomatch from 'picomatch';
import { grepInProcess, grepWithRipgrep, ripgrepPath, type GrepQuery } from '../src/tools/grep-engines.js';
import { VENDORED_DIRS, walkFiles } from '../src/tools/walk-files.js';

const argv = process.argv.slice(2);
const runsAt = argv.indexOf('--runs');
const runs = runsAt >= 0 ? Number(argv[runsAt + 1]) : 3;
const dirArg = argv.find((a, i) => !a.startsWith('--') && argv[i - 1] !== '--runs');
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

function row(label: string, r: { ms: number; count: number }, reference?: { ms: number }): string {
  const ratio = reference === undefined ? '' : `  ${(r.ms / reference.ms).toFixed(2)}x rg`;
  return `${label.padEnd(34)} ${r.ms.toFixed(0).padStart(7)} ms  ${String(r.count).padStart(8)} results${ratio}`;
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

// grep: a literal-ish and a regex pattern
for (const pattern of ['createElement', 'function\\s+\\w+Sync\\(']) {
  const q: GrepQuery = { root, base, baseIsDir: true, pattern, ignoreCase: false, excluded: [] };
  const cli = rg === undefined ? undefined : await median(() => rgCli(['--no-heading', '--line-number', '--null', '--max-filesize', '20M', '--regexp', pattern]));
  if (cli !== undefined) console.log(row(`grep ${pattern}  rg cli`, cli));
  if (rg !== undefined) {
    const wrapped = await median(async () => (await grepWithRipgrep(rg, q)).hits.length);
    console.log(row(`grep ${pattern}  tool via rg`, wrapped, cli));
  }
  const own = await median(async () => (await grepInProcess(q)).hits.length);
  console.log(row(`grep ${pattern}  in-process`, own, cli));
}
