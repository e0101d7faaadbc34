/**
 * Start-up time: median wall time of `node dist/cli.js --version` and `--help`, each run paired
 * with a bare `node -e 0` in the same iteration so machine noise hits both alike. Also measures
 * what importing Ink costs unbundled (node_modules) versus bundled with esbuild, the figure behind
 * the tsup `noExternal` decision.
 *
 *   node --import tsx scripts/bench-startup.ts [runs]     (or npm run bench:startup)
 *
 * It builds its own copy (tsup, the project's config) under .lindwyrm-bench/pkg, so a build
 * running elsewhere cannot pull dist/ away mid-measurement.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { median, reportFigure } from './bench-report.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const runs = Number(process.argv[2] ?? process.env['BENCH_RUNS'] ?? 15);
// Removed afterwards: generated bundles left in the tree would be linted.
const work = join(root, '.lindwyrm-bench', 'startup');
const pkgDir = join(work, 'pkg');
const cli = join(pkgDir, 'dist', 'cli.js');

function buildPrivateCopy(outDir: string, bundleView: boolean): void {
  mkdirSync(pkgDir, { recursive: true });
  // dist/cli.js reads ../package.json for --version.
  copyFileSync(join(root, 'package.json'), join(pkgDir, 'package.json'));
  const tsup = join(root, 'node_modules', '.bin', 'tsup');
  const env = { ...process.env, LWYRM_BUNDLE_VIEW: bundleView ? '1' : '0' };
  const result = spawnSync(tsup, ['--out-dir', outDir, '--silent'], { cwd: root, stdio: 'inherit', env });
  if (result.status !== 0) throw new Error('tsup build failed');
}

/** The full-screen view's chunk of a build, imported alone: what the view stack costs to load. */
function importViewArgs(outDir: string): string[] {
  const chunk = readdirSync(outDir).find((f) => /^run-tui-.*\.js$/.test(f));
  if (!chunk) throw new Error(`no run-tui chunk in ${outDir}`);
  return ['--input-type=module', '-e', `await import(${JSON.stringify(join(outDir, chunk))});`];
}

function wallMs(args: string[]): number {
  const start = process.hrtime.bigint();
  const result = spawnSync(process.execPath, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, CI: '1' } });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (result.status !== 0) throw new Error(`node ${args.join(' ')} failed: ${result.stderr.toString()}`);
  return ms;
}

/** Median of the command, median of bare node alongside it, and the median of their differences. */
function paired(args: string[]): { cmd: number; bare: number; over: number } {
  const cmd: number[] = [];
  const bare: number[] = [];
  wallMs(['-e', '0']);
  wallMs(args); // warm the file cache
  for (let i = 0; i < runs; i++) {
    const b = wallMs(['-e', '0']);
    const c = wallMs(args);
    bare.push(b);
    cmd.push(c);
  }
  return { cmd: median(cmd), bare: median(bare), over: median(cmd.map((c, i) => c - (bare[i] ?? 0))) };
}

async function bundleInk(): Promise<string> {
  mkdirSync(work, { recursive: true });
  const entry = join(work, 'ink-entry.mjs');
  const outdir = join(work, 'ink-bundle');
  writeFileSync(entry, "import { render, Box, Text } from 'ink';\nimport React from 'react';\nglobalThis.__x = [render, Box, Text, React];\n");
  await build({
    entryPoints: [entry],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    outdir,
    // As tsup does: Ink's devtools (a dynamic import) stays in its own chunk, never loaded.
    splitting: true,
    outExtension: { '.js': '.mjs' },
    nodePaths: [join(root, 'node_modules')],
    // Ink pulls in CommonJS packages that call require(); give the ESM bundle one.
    banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
    // Loaded by Ink only under DEV=true; not installed.
    external: ['react-devtools-core'],
    logLevel: 'error',
    define: { 'process.env.NODE_ENV': '"production"' },
  });
  return join(outdir, 'ink-entry.mjs');
}

async function main(): Promise<void> {
  buildPrivateCopy(join(pkgDir, 'dist'), true);
  buildPrivateCopy(join(pkgDir, 'dist-unbundled'), false);
  // Wall times mean little on a busy machine: say how busy it was.
  const load = loadavg().map((n) => n.toFixed(1)).join(' ');
  console.log(`Start-up, median of ${runs} paired runs (Node ${process.version}, ${availableParallelism()} cores, load ${load})`);
  const version = paired([cli, '--version']);
  const help = paired([cli, '--help']);
  const inkPlain = paired(['--input-type=module', '-e', "await import('ink'); await import('react');"]);
  const bundled = await bundleInk();
  const inkBundled = paired([bundled]);
  const viewBundled = paired(importViewArgs(join(pkgDir, 'dist')));
  const viewExternal = paired(importViewArgs(join(pkgDir, 'dist-unbundled')));
  const row = (label: string, r: { cmd: number; bare: number; over: number }) =>
    console.log(`  ${label.padEnd(34)} ${r.cmd.toFixed(0).padStart(5)} ms   bare node ${r.bare.toFixed(0).padStart(4)} ms   +${r.over.toFixed(0)} ms`);
  row('lwyrm --version', version);
  row('lwyrm --help', help);
  row('import ink + react (node_modules)', inkPlain);
  row('import ink + react (esbuild bundle)', inkBundled);
  row('load the TUI chunk, view bundled', viewBundled);
  row('load the TUI chunk, view external', viewExternal);

  reportFigure({ figure: 'lwyrm --version over bare node', median: round(version.over), unit: 'ms', target: '< 80 ms', met: version.over < 80 });
  reportFigure({ figure: 'lwyrm --help over bare node', median: round(help.over), unit: 'ms', target: '< 80 ms', met: help.over < 80 });
  reportFigure({ figure: 'import ink+react unbundled, over bare node', median: round(inkPlain.over), unit: 'ms' });
  reportFigure({ figure: 'import ink+react bundled, over bare node', median: round(inkBundled.over), unit: 'ms' });
  reportFigure({ figure: 'load the TUI chunk (view bundled, as shipped)', median: round(viewBundled.over), unit: 'ms' });
  reportFigure({ figure: 'load the TUI chunk (view external)', median: round(viewExternal.over), unit: 'ms' });
}

const round = (n: number): number => Math.round(n * 10) / 10;

try {
  await main();
} finally {
  rmSync(work, { recursive: true, force: true });
}
