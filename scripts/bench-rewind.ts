/**
 * Rewind figures on a generated 5,000-file project (200 folders of 25 source files, 1–8 KB each,
 * plus a node_modules the scan skips):
 *   - per-command overhead: the scans before and after a command (the command itself excluded),
 *     median over 60 commands, each changing one file; target < 60 ms;
 *   - store size after a 100-turn scripted session: every turn a growing conversation, a command
 *     that edits three files and creates one, and a file-tool edit; target < 50 MB.
 * The first read of the project (once per project, reused by later sessions) is reported too.
 *   node --import tsx scripts/bench-rewind.ts
 */
import { mkdir, mkdtemp, readdir, rm, stat, writeFile, appendFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Message } from '../src/providers/types.js';
import { openRewind } from '../src/rewind/rewind-service.js';
import { median, reportFigure } from './bench-report.js';

const DIRS = 200;
const FILES_PER_DIR = 25;
const COMMANDS = 60;
const TURNS = 100;

/** Deterministic pseudo-random numbers, so every run measures the same project. */
function rng(seed: number): () => number {
  let x = seed;
  return () => {
    x = (x * 1103515245 + 12345) & 0x7fffffff;
    return x / 0x7fffffff;
  };
}

function sourceText(rand: () => number, name: string): string {
  const lines = [`// ${name}`, `import { helper } from './helper.js';`, ''];
  const target = 1000 + Math.floor(rand() * 7000);
  let n = 0;
  while (lines.join('\n').length < target) {
    lines.push(`export function ${name.replace(/\W/g, '_')}_${n}(value: number): number {`, `  const scaled = value * ${n + 1} + ${Math.floor(rand() * 1000)};`, `  return helper(scaled) - ${n};`, '}', '');
    n++;
  }
  return `${lines.join('\n')}\n`;
}

async function makeProject(root: string): Promise<string[]> {
  const rand = rng(42);
  const files: string[] = [];
  await writeFile(join(root, '.gitignore'), 'node_modules/\ndist/\n');
  for (let d = 0; d < DIRS; d++) {
    const dir = join(root, 'src', `pkg${Math.floor(d / 20)}`, `mod${d}`);
    await mkdir(dir, { recursive: true });
    for (let f = 0; f < FILES_PER_DIR; f++) {
      const rel = join('src', `pkg${Math.floor(d / 20)}`, `mod${d}`, `file${f}.ts`);
      await writeFile(join(root, rel), sourceText(rand, `m${d}f${f}`));
      files.push(rel);
    }
  }
  for (let i = 0; i < 300; i++) {
    await mkdir(join(root, 'node_modules', `dep${i}`), { recursive: true });
    await writeFile(join(root, 'node_modules', `dep${i}`, 'index.js'), 'module.exports = 1;\n');
  }
  return files;
}

async function duSize(dir: string): Promise<number> {
  let sum = 0;
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) sum += await duSize(path);
    else sum += (await stat(path)).size;
  }
  return sum;
}

function message(role: 'user' | 'assistant', turn: number, i: number): Message {
  const text = `turn ${turn} message ${i}: ${'lorem ipsum dolor sit amet '.repeat(60)}`;
  return role === 'user' ? { role, content: [{ type: 'text', text }] } : { role, content: [{ type: 'text', text }] };
}

async function main(): Promise<void> {
  const base = await mkdtemp(join(tmpdir(), 'lw-bench-rewind-'));
  const project = join(base, 'project');
  const data = join(base, 'data');
  await mkdir(project, { recursive: true });
  try {
    const files = await makeProject(project);
    const rand = rng(7);
    const pick = (): string => files[Math.floor(rand() * files.length)] as string;
    const rewind = await openRewind({ dataDir: data, projectRoot: project, maxMb: 500, sessionId: 'bench' });
    const history: Message[] = [];
    const system = 'You are a coding agent. '.repeat(200);

    let started = performance.now();
    await rewind.beginTurn('warm up', { history, system, turns: 0 });
    await rewind.wrappers.aroundCommand('bash', async () => undefined);
    const firstRead = performance.now() - started;

    // Per-command overhead: the time around the command minus the command itself.
    // CPU time too: on a shared machine the wall time mostly measures waiting for a core.
    const overhead: number[] = [];
    const cpu: number[] = [];
    for (let i = 0; i < COMMANDS; i++) {
      const file = join(project, pick());
      let inner = 0;
      let innerCpu = 0;
      const cpuStart = process.cpuUsage();
      started = performance.now();
      await rewind.wrappers.aroundCommand('bash', async () => {
        const t = performance.now();
        const c = process.cpuUsage();
        await appendFile(file, `// edit ${i}\n`);
        const used = process.cpuUsage(c);
        innerCpu = (used.user + used.system) / 1000;
        inner = performance.now() - t;
      });
      overhead.push(performance.now() - started - inner);
      const used = process.cpuUsage(cpuStart);
      cpu.push((used.user + used.system) / 1000 - innerCpu);
    }
    await rewind.endTurn();

    // A 100-turn session: conversation grows, commands and file tools change files.
    for (let turn = 1; turn <= TURNS; turn++) {
      await rewind.beginTurn(`turn ${turn}`, { history, system, turns: turn });
      await rewind.wrappers.aroundCommand('bash', async () => {
        for (let k = 0; k < 3; k++) await appendFile(join(project, pick()), `export const t${turn}_${k} = ${turn * k};\n`);
        await writeFile(join(project, 'src', `generated-${turn % 10}.ts`), sourceText(rand, `gen${turn}`));
      });
      const target = pick();
      await rewind.wrappers.aroundPaths([{ path: target, followFinal: true }], 'edit_file', () => appendFile(join(project, target), `// tool edit ${turn}\n`));
      await rewind.endTurn();
      for (let i = 0; i < 6; i++) history.push(message(i % 2 === 0 ? 'user' : 'assistant', turn, i));
    }
    const stats = await rewind.stats();
    await rewind.close();
    const storeBytes = await duSize(join(data, 'rewind'));
    const projectBytes = await duSize(join(project, 'src'));

    const med = median(overhead);
    const sorted = [...overhead].sort((a, b) => a - b);
    const p90 = sorted[Math.floor(sorted.length * 0.9)] ?? 0;
    const mb = (n: number): string => (n / 1048576).toFixed(1);
    process.stdout.write(`project: ${files.length} files, ${mb(projectBytes)} MB of source, ${stats.trackedPaths} paths tracked; load ${loadavg()[0]?.toFixed(1)}\n`);
    process.stdout.write(`first read of the project (once per project)   ${firstRead.toFixed(0)} ms\n`);
    process.stdout.write(`per-command scan overhead: median ${med.toFixed(1)} ms, p90 ${p90.toFixed(1)} ms wall; ${median(cpu).toFixed(1)} ms CPU (target < 60 ms)\n`);
    process.stdout.write(`store after ${TURNS} turns: ${mb(storeBytes)} MB on disk, ${stats.checkpoints} checkpoints (target < 50 MB)\n`);
    reportFigure({ figure: 'rewind: scan overhead per command (5,000 files)', median: Number(med.toFixed(1)), unit: 'ms', target: '< 60 ms', met: med < 60 });
    reportFigure({ figure: `rewind: store after ${TURNS} turns (5,000 files)`, median: Number(mb(storeBytes)), unit: 'MB', target: '< 50 MB', met: storeBytes < 50 * 1048576 });
  } finally {
    await rm(base, { recursive: true, force: true });
  }
}

await main();
