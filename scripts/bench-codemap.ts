/**
 * Code map benchmark. Builds a corpus from the TypeScript/JavaScript files under node_modules
 * (thousands of real files), then prints: cold index time and files/s, warm start from the cache,
 * one-file re-index, map build time, peak memory; and the read savings of read_symbol against
 * reading whole files, over every exported symbol of this project's src/.
 *
 *   node --import tsx scripts/bench-codemap.ts [--files 5000] [--worker dist/codemap-worker.js] [--cold-only] [--hog N]
 *   node --import tsx scripts/bench-codemap.ts --checker PROJECT [--symbol Class.method] [--pause 5000] [--no-budget] [--warm]   (the TypeScript checker's figures)
 *   node --import tsx scripts/bench-codemap.ts --checker PROJECT --cold-symbols 12 [--worker dist/codemap-worker.js]   (the first question, checker cold, over many symbols)
 *
 * The checker on 5,000 files: --checker on a corpus directory kept with KEEP=1 from the first form
 * (the corpus has no tsconfig: every file is checked as JavaScript or loose TypeScript).
 *
 * The cold index is timed three times on the parse pool (one worker per core, as a session gets
 * it), once with a single worker for comparison, and three times next to a CPU hog (--hog N busy
 * processes, default 5: load ~5 above whatever else runs). Each line gives files/s, the CPU time
 * of all threads and the load average; a parallel-capacity line says how fast two busy threads
 * run next to each other against one alone (1.0: the cores are really there; ~0.5 on a VM whose
 * two vCPUs share one core). --cold-only stops after the cold figures; --hog 0 skips the loaded ones.
 */
import { execFile } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { Worker } from 'node:worker_threads';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { CHECKER_BUDGET_MS, openCodeMap, type CodeMap, type OpenCodeMapOptions } from '../src/codemap/code-map.js';
import { SKIPPED_DIRS } from '../src/codemap/walk-project.js';
import { loadConfig } from '../src/config/load-config.js';
import { readFileTool } from '../src/tools/read-file.js';
import type { ToolContext } from '../src/tools/types.js';
import { createSessionGrants } from '../src/policy/session-grants.js';
import { median, reportFigure } from './bench-report.js';
import { startCpuHog } from './cpu-hog.js';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..');
const wanted = Number(process.argv[process.argv.indexOf('--files') + 1]) || 5000;
const SOURCE = /\.(d\.ts|ts|tsx|mts|cts|js|mjs|cjs)$/;
const MAX_BYTES = 256 * 1024;

const ms = (t0: number): string => `${(performance.now() - t0).toFixed(0)} ms`;
/** Wall time and this process's CPU time since `start`: on a shared, busy machine the CPU time is the steadier figure. */
interface Mark { readonly wall: number; readonly cpu: NodeJS.CpuUsage }
const mark = (): Mark => ({ wall: performance.now(), cpu: process.cpuUsage() });
const wallMs = (m: Mark): number => Math.round((performance.now() - m.wall) * 10) / 10;
const since = (m: Mark): string => {
  const cpu = process.cpuUsage(m.cpu);
  return `${(performance.now() - m.wall).toFixed(1)} ms wall, ${((cpu.user + cpu.system) / 1000).toFixed(1)} ms cpu`;
};
/** Runs `fn` while a 5 ms ticker measures the longest gap between turns of the event loop. */
async function withStall<T>(fn: () => Promise<T>): Promise<{ value: T; stall: number; ms: number }> {
  const start = performance.now();
  let last = start;
  let worst = 0;
  const ticker = setInterval(() => {
    const now = performance.now();
    worst = Math.max(worst, now - last);
    last = now;
  }, 5);
  try {
    const value = await fn();
    return { value, stall: Math.max(worst, performance.now() - last), ms: performance.now() - start };
  } finally {
    clearInterval(ticker);
  }
}

/** Copies up to `limit` source files out of node_modules; skipped folder names get a suffix so the walker keeps them. */
async function buildCorpus(into: string, limit: number): Promise<{ files: number; bytes: number }> {
  const found: string[] = [];
  const walk = async (dir: string): Promise<void> => {
    if (found.length >= limit) return;
    const entries = (await readdir(dir, { withFileTypes: true })).sort((a, b) => (a.name < b.name ? -1 : 1));
    for (const e of entries) {
      if (found.length >= limit) return;
      const p = join(dir, e.name);
      if (e.isDirectory() && e.name !== '.bin') await walk(p);
      else if (e.isFile() && SOURCE.test(e.name) && !/\.min\./.test(e.name) && (await stat(p)).size <= MAX_BYTES) found.push(p);
    }
  };
  await walk(join(repo, 'node_modules'));
  let bytes = 0;
  for (const p of found) {
    const rel = relative(join(repo, 'node_modules'), p).split('/').map((part) => (SKIPPED_DIRS.has(part) ? `${part}_` : part)).join('/');
    await mkdir(dirname(join(into, rel)), { recursive: true });
    await copyFile(p, join(into, rel));
    bytes += (await stat(p)).size;
  }
  return { files: found.length, bytes };
}

function toolContext(config: ToolContext['config']): ToolContext {
  return {
    config, projectRoot: config.projectRoot, sessionId: 'bench', signal: new AbortController().signal, readOnly: true,
    preApproved: new Set(['read']), sessionGrants: createSessionGrants(), approve: async () => 'no',
    offload: { read: async () => undefined }, vision: false,
  };
}

async function main(): Promise<void> {
  const work = await mkdtemp(join(tmpdir(), 'lwyrm-bench-'));
  const env = { HOME: join(work, 'home'), XDG_CACHE_HOME: join(work, 'cache'), XDG_CONFIG_HOME: join(work, 'config') };
  const corpus = join(work, 'corpus');
  try {
    // The figures scale with how busy the machine is: print a fixed CPU loop's time to compare runs.
    let t0 = performance.now();
    let x = 0;
    for (let i = 0; i < 1e8; i++) x += i;
    console.log(`cpu calibration: 1e8-step loop ${ms(t0)} (about 70 ms on an idle modern core)${x < 0 ? '' : ''}`);
    t0 = performance.now();
    const { files, bytes } = await buildCorpus(corpus, wanted);
    console.log(`corpus: ${files} files, ${(bytes / 1e6).toFixed(1)} MB from node_modules (copied in ${ms(t0)})`);
    const config = await loadConfig({ cwd: corpus, env });
    // --worker PATH: a worker built elsewhere (to measure source changes without rebuilding dist/).
    const workerArg = process.argv.indexOf('--worker');
    const distWorker = workerArg > 0 ? resolve(process.argv[workerArg + 1]!) : join(repo, 'dist', 'codemap-worker.js');
    const hasWorker = await stat(distWorker).then(() => true, () => false);
    const base: OpenCodeMapOptions = {
      projectRoot: config.projectRoot, cacheDir: join(work, 'cache', 'map'), config,
      worker: hasWorker ? { url: new URL(`file://${distWorker}`) } : 'off',
      // As a session has it: the first cold index below writes V8's code cache of the compiler, the others load it.
      codeCacheDir: join(work, 'cache', 'v8-code-cache'),
    };
    // A file the edits below change; there from the start, so the first tool call finds it.
    const target = join(config.projectRoot, 'typescript_reindex_probe.ts');
    await writeFile(target, 'export function probe(): number { return 1; }\n');
    let peak = process.memoryUsage().rss;
    const sample = setInterval(() => { peak = Math.max(peak, process.memoryUsage().rss); }, 20);

    await coldFigures(base, hasWorker ? distWorker : undefined, join(work, 'cold'), files);
    // The sampler would keep the process alive after the cold figures.
    if (process.argv.includes('--cold-only')) return clearInterval(sample);
    t0 = performance.now();
    const cold = await openCodeMap(base);
    console.log(`cold index for the figures below: ${ms(t0)}, ${cold.stats.files} files, ${cold.warnings.length} warnings`);
    let m = mark();
    const text = cold.mapText(8000);
    console.log(`map build (graph + rank + render, 8000-token budget): ${since(m)}, ${text.length} chars`);
    await cold.close();

    m = mark();
    const warm = await openCodeMap(base);
    const warmMs = wallMs(m);
    console.log(`warm start from cache: ${since(m)} (${warm.stats.files} files, ${warm.stats.reparsed} reparsed)`);
    reportFigure({ figure: `code map warm start from cache, ${warm.stats.files} files`, median: warmMs, unit: 'ms', target: '< 300 ms', met: warmMs < 300 });
    m = mark();
    warm.mapText(8000);
    console.log(`map build after warm start: ${since(m)}`);
    m = mark();
    const first = await warm.tools()[0]!.run({ name: 'probe' }, toolContext(config));
    reportFigure({ figure: 'code map first tool call after a warm start', median: wallMs(m), unit: 'ms' });
    console.log(`first tool call after warm start (stored graph parts): ${since(m)} (${first.ok ? 'found' : 'MISSING'})`);

    // The first edit of a session loads the TypeScript compiler: in the edit worker, or in this
    // thread without one. The longest stall of this thread's event loop is what typing would feel.
    await writeFile(target, 'export function probe(): number { return 1.5; }\n');
    m = mark();
    const { stall } = await withStall(() => warm.fileChanged(target));
    console.log(`first edit in a session (loads the TypeScript compiler): ${since(m)} (cpu of all threads); longest event-loop stall ${stall.toFixed(0)} ms`);
    reportFigure({ figure: 'code map first edit of a session: longest main-thread stall', median: Math.round(stall), unit: 'ms' });
    await writeFile(target, 'export function probe(): number { return 2; }\nexport const second = probe();\n');
    m = mark();
    const later = await withStall(() => warm.fileChanged(target));
    const reindexMs = wallMs(m);
    const reindex = `${since(m)}, stall ${later.stall.toFixed(0)} ms`;
    reportFigure({ figure: 'code map one-file re-index after an edit', median: reindexMs, unit: 'ms', target: '< 50 ms', met: reindexMs < 50 });
    m = mark();
    const probe = await warm.tools()[0]!.run({ name: 'second' }, toolContext(config));
    console.log(`one-file re-index: ${reindex}; next tool call (graph update for the files it reaches + answer): ${since(m)} (${probe.ok ? 'found' : 'MISSING'})`);
    reportFigure({ figure: 'code map: one-file re-index', median: Number(later.ms.toFixed(1)), unit: 'ms', target: '< 50 ms', met: later.ms < 50 });
    // An edit to the file most others use: the most files to re-resolve.
    const hub = await busiestFile(warm, toolContext(config));
    if (hub) {
      const hubPath = join(config.projectRoot, hub.file);
      const original = await readFile(hubPath, 'utf8');
      await writeFile(hubPath, `${original}\nexport function addedByBench(): void {}\n`);
      m = mark();
      await warm.fileChanged(hubPath);
      const hubReindex = since(m);
      m = mark();
      await warm.tools()[1]!.run({ name: hub.name, file: hub.file }, toolContext(config));
      console.log(`edit of ${hub.file} (used by ${hub.users} files): re-index ${hubReindex}; next tool call ${since(m)}`);
      await writeFile(hubPath, original);
      await warm.fileChanged(hubPath);
    }
    await warm.close();
    clearInterval(sample);
    // What a user meets: a new process (modules loaded, nothing JIT-warm) opening an unchanged project.
    await writeFile(target, 'export function probe(): number { return 3; }\n');
    const last = await openCodeMap(base);
    last.mapText(8000);
    await last.close();
    const inChild = async (): Promise<string> => (await promisify(execFile)(process.execPath,
      ['--import', 'tsx', fileURLToPath(import.meta.url), '--warm-child', corpus, base.cacheDir, ...(hasWorker ? [distWorker] : [])],
      { env: { ...process.env, ...env } })).stdout.trim();
    const fresh = await inChild();
    console.log(`in a new process: ${fresh}`);
    const freshOpen = Number(/^warm start ([\d.]+) ms wall/.exec(fresh)?.[1]);
    const freshTool = Number(/first tool call \(stored graph parts\) ([\d.]+) ms wall/.exec(fresh)?.[1]);
    if (Number.isFinite(freshOpen)) reportFigure({ figure: 'code map warm start in a new process', median: freshOpen, unit: 'ms', target: '< 300 ms', met: freshOpen < 300 });
    if (Number.isFinite(freshTool)) reportFigure({ figure: 'code map first tool call after a warm start, new process', median: freshTool, unit: 'ms' });
    // The next session after an edit outside it: one file to parse, the graph to update, the map to rank and render.
    await writeFile(target, 'export function probe(): number { return 4; }\n');
    console.log(`in a new process, one file changed since: ${await inChild()}`);
    const peakMb = Math.round(Math.max(peak, process.resourceUsage().maxRSS * 1024) / 1e6);
    console.log(`peak RSS: ${peakMb} MB`);
    reportFigure({ figure: 'code map peak RSS (cold index, warm starts, edits)', median: peakMb, unit: 'MB' });

    await savings(env);
  } finally {
    if (process.env["KEEP"]) console.log("kept", work); else await rm(work, { recursive: true, force: true });
  }
}

/** The file whose symbols are used from the most other files, and its most used symbol (via find_references). */
async function busiestFile(map: CodeMap, ctx: ToolContext): Promise<{ file: string; name: string; users: number } | undefined> {
  const refs = map.tools().find((t) => t.name === 'find_references')!;
  // Exported top-level symbols with the most common names are the likeliest hubs; ask a sample.
  const candidates = map.symbols().filter((s) => s.exported && !s.container).slice(0, 1500);
  let best: { file: string; name: string; users: number } | undefined;
  for (const s of candidates) {
    const r = await refs.run({ name: s.name, file: s.file }, ctx);
    const files = new Set([...r.content.matchAll(/^ {2}(\S+?):\d+ /gm)].map((x) => x[1]));
    files.delete(s.file);
    if (!best || files.size > best.users) best = { file: s.file, name: s.name, users: files.size };
  }
  return best;
}

/** read_symbol bytes against whole-file bytes, for every exported symbol in this project's src/. */
async function savings(env: Record<string, string>): Promise<void> {
  const config = await loadConfig({ cwd: repo, env });
  const map = await openCodeMap({ projectRoot: repo, cacheDir: join(env['XDG_CACHE_HOME']!, 'own'), config, worker: 'off' });
  const read = map.tools().find((t) => t.name === 'read_symbol')!;
  const ctx = toolContext(config);
  const ratios: number[] = [];
  let symbolBytes = 0;
  let fileBytes = 0;
  const wholeFiles = new Map<string, number>();
  for (const s of map.symbols()) {
    if (!s.exported || s.container || !s.file.startsWith('src/')) continue;
    if (!wholeFiles.has(s.file)) wholeFiles.set(s.file, Buffer.byteLength((await readFileTool.run({ path: s.file }, ctx)).content));
    const r = await read.run({ name: s.qualified, file: s.file }, ctx);
    if (!r.ok) continue;
    const whole = wholeFiles.get(s.file)!;
    ratios.push(Buffer.byteLength(r.content) / whole);
    symbolBytes += Buffer.byteLength(r.content);
    fileBytes += whole;
  }
  await map.close();
  console.log(`read savings over ${ratios.length} exported symbols in src/: median read_symbol/read_file = `
    + `${(median(ratios) * 100).toFixed(1)}%, total ${(symbolBytes / 1e3).toFixed(0)} KB vs ${(fileBytes / 1e3).toFixed(0)} KB `
    + '(both as the real tools return them, line numbers included)');
  const share = Math.round(median(ratios) * 1000) / 10;
  reportFigure({ figure: `read_symbol bytes vs read_file, median over ${ratios.length} symbols of src/`, median: share, unit: '%', target: '< 25%', met: share < 25 });
}

/** `--warm-child ROOT CACHE_DIR [WORKER]`: times one warm open, its first map and first tool call in this fresh process. */
async function warmChild(root: string, cacheDir: string, worker?: string): Promise<void> {
  const config = await loadConfig({ cwd: root, env: process.env });
  let m = mark();
  const { value: map, stall } = await withStall(() => openCodeMap({
    projectRoot: config.projectRoot, cacheDir, config, worker: worker ? { url: new URL(`file://${worker}`) } : 'off',
  }));
  const open = since(m);
  m = mark();
  map.mapText(8000);
  const first = since(m);
  m = mark();
  await map.tools()[0]!.run({ name: 'probe' }, toolContext(config));
  console.log(`warm start ${open} (${map.stats.reparsed} reparsed; longest event-loop stall ${stall.toFixed(0)} ms); first map ${first}; `
    + `first tool call (stored graph parts) ${since(m)}`);
  await map.close();
}

/** Seconds of a fixed loop: on one thread, and on two threads at once (their mean): the machine's real parallel capacity. */
async function parallelCapacity(): Promise<string> {
  const loop = 'let x = 0; const t = performance.now(); for (let i = 0; i < 2e8; i++) x = (x + i * 7) % 1000003; require("node:worker_threads").parentPort.postMessage(performance.now() - t + (x < 0 ? 1 : 0));';
  const run = (): Promise<number> => new Promise((res, rej) => {
    const w = new Worker(loop, { eval: true });
    w.once('message', (t: number) => { void w.terminate(); res(t); });
    w.once('error', rej);
  });
  const alone = await run();
  const both = await Promise.all([run(), run()]);
  const pair = (both[0]! + both[1]!) / 2;
  return `parallel capacity: a fixed loop takes ${alone.toFixed(0)} ms on one thread, ${pair.toFixed(0)} ms each on two at once `
    + `(${(2 * alone / pair).toFixed(2)} cores' worth of ${availableParallelism()})`;
}

const loadNow = (): string => `load ${loadavg().map((l) => l.toFixed(1)).join(' ')}`;

/**
 * The cold index of the corpus, each run into a fresh cache folder: the pool as a session gets it
 * (median of three), one worker for comparison, then the same next to a CPU hog.
 */
async function coldFigures(base: OpenCodeMapOptions, worker: string | undefined, into: string, files: number): Promise<void> {
  let n = 0;
  const once = async (choice: OpenCodeMapOptions['worker'], label: string): Promise<number> => {
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    const map = await openCodeMap({ ...base, cacheDir: join(into, String(n++)), worker: choice });
    const wall = performance.now() - t0;
    const cpu = process.cpuUsage(cpu0);
    const rate = map.stats.files / (wall / 1000);
    console.log(`cold index (${label}): ${wall.toFixed(0)} ms, ${rate.toFixed(0)} files/s, ${((cpu.user + cpu.system) / 1000).toFixed(0)} ms cpu of all threads `
      + `(${(wall > 0 ? (cpu.user + cpu.system) / 1000 / wall : 0).toFixed(2)} cores busy), ${map.stats.files} files, ${map.warnings.length} warnings; ${loadNow()}`);
    await map.close();
    return rate;
  };
  console.log(await parallelCapacity());
  const url = worker ? new URL(`file://${worker}`) : undefined;
  const pool = url ? { url } : 'off' as const;
  const workers = url ? Math.min(4, availableParallelism()) : 0;
  const label = url ? `parse pool, ${workers} worker${workers === 1 ? '' : 's'} on ${availableParallelism()} cores` : 'in-thread; run npm run build for the workers';
  const quiet = [await once(pool, label), await once(pool, label), await once(pool, label)];
  if (url) await once({ url, workers: 1 }, 'one worker, as before the pool');
  const hogArg = process.argv.indexOf('--hog');
  const hogs = hogArg > 0 ? Number(process.argv[hogArg + 1]) : 5;
  const target = '>= 1500 files/s on 2 cores';
  const q = median(quiet);
  reportFigure({ figure: `code map: cold index, ${files.toLocaleString('en')} files (${label})`, median: Math.round(q), unit: 'files/s', target, met: q >= 1500 });
  // --hog 0: no loaded figures (a run at real-time priority must not start spinners that inherit it).
  if (hogs === 0) return;
  const hog = await startCpuHog({ processes: hogs });
  let loaded: number[];
  try {
    // Give the spinners a moment to be running (the load average itself lags by a minute).
    await new Promise((r) => setTimeout(r, 1500));
    loaded = [await once(pool, `${label}, next to ${hogs} busy processes`), await once(pool, `${label}, next to ${hogs} busy processes`), await once(pool, `${label}, next to ${hogs} busy processes`)];
  } finally {
    await hog.stop();
  }
  const l = median(loaded);
  reportFigure({ figure: `code map: cold index, ${files.toLocaleString('en')} files, next to ${hogs} busy processes`, median: Math.round(l), unit: 'files/s', target, met: l >= 1500 });
}

const child = process.argv.indexOf('--warm-child');
const checkerArg = process.argv.indexOf('--checker');
const symbolArg = process.argv.indexOf('--symbol');
const coldArg = process.argv.indexOf('--cold-symbols');
(child >= 0 ? warmChild(process.argv[child + 1]!, process.argv[child + 2]!, process.argv[child + 3])
  : checkerArg >= 0 && coldArg >= 0 ? coldQuestions(resolve(process.argv[checkerArg + 1]!), Number(process.argv[coldArg + 1]) || 12)
    : checkerArg >= 0 ? checkerFigures(resolve(process.argv[checkerArg + 1]!), symbolArg >= 0 ? process.argv[symbolArg + 1] : undefined)
      : main()).catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});

/** A fixed CPU loop: its time tells how fast this machine's cores are now (about 70 ms on an idle modern core). */
function calibration(): number {
  const c0 = process.cpuUsage();
  let x = 0;
  for (let i = 0; i < 1e8; i++) x += i;
  const c = process.cpuUsage(c0);
  return (c.user + c.system) / 1000 + (x < 0 ? 1 : 0);
}

/**
 * `--checker PROJECT --cold-symbols N`: the first find_references with the checker cold, for N
 * symbols spread over the project's own (non-test) TS files and kinds, each in a code map opened
 * afresh (the index from the cache, a new worker: nothing of the checker kept), as a session opens
 * it but waiting for the checker's complete answer. Prints each time, the median, and how many
 * complete answers come within the session's budget (a session answers the others partially
 * first) and within 2 s.
 */
async function coldQuestions(root: string, count: number): Promise<void> {
  const work = await mkdtemp(join(tmpdir(), 'lwyrm-bench-cold-'));
  const env = { ...process.env, XDG_CACHE_HOME: join(work, 'cache'), XDG_CONFIG_HOME: join(work, 'config') };
  const workerArg = process.argv.indexOf('--worker');
  const distWorker = workerArg > 0 ? resolve(process.argv[workerArg + 1]!) : join(repo, 'dist', 'codemap-worker.js');
  if (!(await stat(distWorker).then(() => true, () => false))) throw new Error('run npm run build first: the checker runs in the built index worker');
  try {
    const calib = calibration();
    console.log(`cpu calibration: 1e8-step loop ${calib.toFixed(0)} ms cpu; load average ${loadavg().map((l) => l.toFixed(1)).join(' ')} on ${availableParallelism()} cores`);
    const config = await loadConfig({ cwd: root, env });
    const open = (): Promise<CodeMap> => openCodeMap({
      projectRoot: root, cacheDir: join(work, 'map'), config, worker: { url: new URL(`file://${distWorker}`) },
      codeCacheDir: join(work, 'cache', 'v8-code-cache'),
    });
    let map = await open();
    const kinds = new Set(['function', 'method', 'class', 'property', 'variable', 'interface', 'type']);
    const own = map.symbols().filter((s) => /\.(ts|tsx|mts)$/.test(s.file) && !/(^|\/)(test|tests|__tests__)\/|\.(test|spec)\./.test(s.file) && kinds.has(s.kind));
    await map.close();
    const n = Math.min(count, own.length);
    const picked = Array.from({ length: n }, (_, i) => own[Math.floor(((i + 0.5) * own.length) / n)]!);
    const times: number[] = [];
    for (const s of picked) {
      map = await open();
      // The index worker settles (its compiler loaded for the map) before the question, as in a session.
      await new Promise((r) => setTimeout(r, 1000));
      const m = mark();
      const r = await map.tools().find((t) => t.name === 'find_references')!.run({ name: s.qualified, file: s.file, line: s.startLine }, toolContext(config));
      times.push(wallMs(m));
      console.log(`  ${s.kind.padEnd(9)} ${s.qualified}: ${since(m)}; ${r.summary}`);
      await map.close();
    }
    const within = (ms: number): number => times.filter((t) => t <= ms).length;
    const med = median(times);
    console.log(`first find_references, checker cold, ${times.length} symbols of ${root}: median ${med.toFixed(0)} ms wall, max ${Math.max(...times).toFixed(0)} ms; `
      + `complete within the session's ${CHECKER_BUDGET_MS} ms budget: ${within(CHECKER_BUDGET_MS)}, within 2 s: ${within(2000)} of ${times.length}`);
    reportFigure({ figure: 'checker: first find_references, cold, median over symbols', median: Math.round(med), unit: 'ms', target: '< 2000 ms', met: med < 2000 });
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

/**
 * `--checker PROJECT [--symbol NAME] [--pause MS] [--no-budget] [--warm]`: the TypeScript checker behind
 * find_references on a real project (fresh process, nothing cached), opened as a session opens it
 * (the checker's budget: past it a tool answers from the syntax index, marked partial, while the
 * checker goes on; --no-budget waits for the checker): the first find_references with the checker
 * cold, when the checker's complete answer is there, the same question again, 20 other symbols, an
 * edit then the next question (at once, and after a pause as long as a model's turn, while the
 * checker works the last question out again in the background), and memory: the process's RSS
 * before the first question and at its peak after (the difference is the checker: the worker
 * thread, the compiler, its program). CPU times are of all threads; on a busy machine they are the
 * steadier figure, and the calibration line scales them. `--warm`: the checker warms up first, as in a
 * session (which asks it to 3 s after opening): the first question then finds the compiler, the libs
 * and the project's global files parsed and bound, and nothing checked.
 */
async function checkerFigures(root: string, symbol?: string): Promise<void> {
  const work = await mkdtemp(join(tmpdir(), 'lwyrm-bench-checker-'));
  const env = { ...process.env, XDG_CACHE_HOME: join(work, 'cache'), XDG_CONFIG_HOME: join(work, 'config') };
  const workerArg = process.argv.indexOf('--worker');
  const distWorker = workerArg > 0 ? resolve(process.argv[workerArg + 1]!) : join(repo, 'dist', 'codemap-worker.js');
  const hasWorker = await stat(distWorker).then(() => true, () => false);
  const pauseArg = process.argv.indexOf('--pause');
  const pauseMs = pauseArg > 0 ? Number(process.argv[pauseArg + 1]) : 5000;
  const budget = process.argv.includes('--no-budget') ? undefined : CHECKER_BUDGET_MS;
  const warm = process.argv.includes('--warm');
  let peak = process.memoryUsage().rss;
  const sample = setInterval(() => { peak = Math.max(peak, process.memoryUsage().rss); }, 20);
  const cpuMs = (c: NodeJS.CpuUsage): number => (c.user + c.system) / 1000;
  try {
    const calib = calibration();
    console.log(`cpu calibration: 1e8-step loop ${calib.toFixed(0)} ms cpu (about 70 ms on an idle modern core; cpu figures below scale with it); `
      + `load average ${loadavg().map((l) => l.toFixed(1)).join(' ')} on ${availableParallelism()} cores`);
    const config = await loadConfig({ cwd: root, env });
    let m = mark();
    const map = await openCodeMap({
      projectRoot: root, cacheDir: join(work, 'map'), config, worker: hasWorker ? { url: new URL(`file://${distWorker}`) } : 'off',
      ...(budget !== undefined ? { checkerBudgetMs: budget } : {}),
      // As a session has it: the cold index writes V8's code cache of the compiler, the checker's worker loads it.
      codeCacheDir: join(work, 'cache', 'v8-code-cache'),
      // As a session warms the checker up (compiler, libs, global files), at once rather than after its 3 s.
      ...(warm ? { warmCheckerAfterMs: 0 } : {}),
    });
    map.mapText(8000);
    const ts = map.symbols().filter((s) => /\.(ts|tsx|js|mts)$/.test(s.file));
    console.log(`checker bench on ${root}: ${new Set(ts.map((s) => s.file)).size} TS/JS files, ${ts.length} symbols; open + map ${since(m)} (no checker yet), `
      + `${hasWorker ? 'checker in the index worker' : 'checker in this thread (run npm run build for the worker)'}; `
      + `${budget === undefined ? 'no budget: every question waits for the checker' : `checker budget ${budget} ms, as in a session`}`);
    // The main thread's own memory, settled: what the checker adds is measured from here.
    await new Promise((r) => setTimeout(r, 3000));
    if (warm) {
      // The warm-up is over when the process (all its threads) goes quiet: under 30 ms of CPU in half a second.
      const w = mark();
      for (let quiet = false; !quiet;) {
        const c0 = process.cpuUsage();
        await new Promise((r) => setTimeout(r, 500));
        quiet = cpuMs(process.cpuUsage(c0)) < 30;
      }
      console.log(`checker warmed up in the background (as a session does once the index is ready): quiet ${since(w)} after the settling pause`);
    }
    const before = process.memoryUsage().rss;
    peak = before;
    const refs = map.tools().find((t) => t.name === 'find_references')!;
    const ctx = toolContext(config);
    const partial = (summary: string): string => (summary.includes('(partial') ? ' PARTIAL (syntax index)' : ' (checker)');
    // By default a method from the middle of the list: an ordinary question.
    const methods = ts.filter((s) => s.kind === 'method');
    const target = symbol ? ts.find((s) => s.qualified === symbol) : methods.at(Math.floor(methods.length / 2));
    if (!target) throw new Error('no symbol to ask about');
    const ask = { name: target.qualified, file: target.file, line: target.startLine };
    const start = mark();
    m = mark();
    let r = await refs.run(ask, ctx);
    console.log(`first find_references ${target.qualified} (checker ${warm ? 'warmed up: compiler, libs and global files ready' : 'cold'}): ${since(m)};${partial(r.summary)} ${r.summary}`);
    let polls = 0;
    while (r.summary.includes('(partial')) {
      await new Promise((res) => setTimeout(res, 200));
      r = await refs.run(ask, ctx);
      polls++;
    }
    if (polls > 0) console.log(`the checker's complete answer there ${since(start)} after the first question (asked again ${polls} times meanwhile); ${r.summary}`);
    const walls: number[] = [];
    const cpus: number[] = [];
    for (let i = 0; i < 5; i++) {
      const t0 = performance.now();
      const c0 = process.cpuUsage();
      r = await refs.run(ask, ctx);
      walls.push(performance.now() - t0);
      cpus.push(cpuMs(process.cpuUsage(c0)));
    }
    console.log(`find_references warm, the same question again: median ${median(walls).toFixed(0)} ms wall, ${median(cpus).toFixed(0)} ms cpu of 5`);
    const other = ts.filter((s) => s.kind === 'class' || s.kind === 'function' || s.kind === 'method')
      .filter((_, i, all) => i % Math.max(1, Math.floor(all.length / 20)) === 0).slice(0, 20);
    const otherWalls: number[] = [];
    const otherCpus: number[] = [];
    let otherPartial = 0;
    for (const s of other) {
      const t0 = performance.now();
      const c0 = process.cpuUsage();
      const o = await refs.run({ name: s.qualified, file: s.file, line: s.startLine }, ctx);
      otherWalls.push(performance.now() - t0);
      otherCpus.push(cpuMs(process.cpuUsage(c0)));
      if (o.summary.includes('(partial')) otherPartial++;
    }
    console.log(`find_references warm, 20 other symbols (each may bring more files into the program): median ${median(otherWalls).toFixed(0)} ms wall, `
      + `${median(otherCpus).toFixed(0)} ms cpu; max ${Math.max(...otherWalls).toFixed(0)} ms wall; ${otherPartial} partial`);
    await refs.run(ask, ctx);
    const edited = join(root, target.file);
    const original = await readFile(edited, 'utf8');
    try {
      await writeFile(edited, `${original}\nexport const benchEdit = 1;\n`);
      m = mark();
      await map.fileChanged(edited);
      r = await refs.run(ask, ctx);
      console.log(`edit of ${target.file} -> next find_references at once: ${since(m)};${partial(r.summary)}`);
      // Let the checker's answer after that edit finish (asked again until complete), then edit again.
      while (r.summary.includes('(partial')) {
        await new Promise((res) => setTimeout(res, 200));
        r = await refs.run(ask, ctx);
      }
      await writeFile(edited, `${original}\nexport const benchEdit = 2;\n`);
      await map.fileChanged(edited);
      // The model's turn: the checker asks the last question again in the background meanwhile.
      const bg = process.cpuUsage();
      await new Promise((res) => setTimeout(res, pauseMs));
      const background = cpuMs(process.cpuUsage(bg));
      m = mark();
      r = await refs.run(ask, ctx);
      console.log(`edit -> ${pauseMs} ms (the model's turn; ${background.toFixed(0)} ms cpu in the background) -> next find_references: ${since(m)};${partial(r.summary)}`);
    } finally {
      await writeFile(edited, original);
    }
    await map.close();
    clearInterval(sample);
    const top = Math.max(peak, process.resourceUsage().maxRSS * 1024);
    console.log(`memory: RSS ${(before / 1e6).toFixed(0)} MB before the first question, peak ${(top / 1e6).toFixed(0)} MB after: `
      + `the checker ${((top - before) / 1e6).toFixed(0)} MB`);
  } finally {
    clearInterval(sample);
    await rm(work, { recursive: true, force: true });
  }
}
