/**
 * Runs every scripts/bench-*.ts and prints one table: figure, median, target, met or not.
 * A script reports figures as `BENCH {json}` lines (scripts/bench-report.ts); for a script that
 * only prints text, lines shaped like "label   12.3 ms ... (target < 300)" are picked up instead.
 * A script that reports nothing gets a row saying so, so a figure cannot silently drop out.
 *
 *   npm run bench                    (build first: several scripts time dist/)
 *   npm run bench -- startup install (only the scripts whose names contain one of the words)
 */
import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { availableParallelism, cpus, loadavg } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BenchFigure } from './bench-report.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const here = join(root, 'scripts');
const skip = new Set(['bench-all.ts', 'bench-report.ts']);

interface Row extends BenchFigure {
  readonly script: string;
}

function runScript(file: string): Promise<{ code: number; output: string }> {
  return new Promise((done) => {
    const child = spawn(process.execPath, ['--import', 'tsx', join(here, file)], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      const text = chunk.toString();
      output += text;
      process.stderr.write(text.split('\n').filter((l) => !l.startsWith('BENCH ')).join('\n'));
    });
    child.on('close', (code) => done({ code: code ?? 1, output }));
  });
}

const TEXT_FIGURE = /^\s*(.+?)\s{2,}([\d][\d,]*(?:\.\d+)?)\s*(ms|s|MB|KB|GB|%)\b(.*)$/;

function parseFigures(script: string, output: string): Row[] {
  const rows: Row[] = [];
  const textRows: Row[] = [];
  for (const line of output.split('\n')) {
    if (line.startsWith('BENCH ')) {
      try {
        rows.push({ script, ...(JSON.parse(line.slice(6)) as BenchFigure) });
      } catch {
        // a malformed line is skipped, not fatal
      }
      continue;
    }
    const m = TEXT_FIGURE.exec(line);
    if (!m) continue;
    const value = Number((m[2] ?? '').replace(/,/g, ''));
    const target = /target\s*([<>]=?)\s*([\d,.]+)/.exec(m[4] ?? '');
    const limit = target ? Number((target[2] ?? '').replace(/,/g, '')) : undefined;
    const met = target && limit !== undefined ? (target[1]?.startsWith('<') ? value < limit : value > limit) : undefined;
    textRows.push({
      script,
      figure: (m[1] ?? '').replace(/[:\s]+$/, ''),
      median: value,
      unit: m[3] ?? '',
      ...(target ? { target: `${target[1]} ${target[2]} ${m[3]}` } : {}),
      ...(met !== undefined ? { met } : {}),
    });
  }
  return rows.length > 0 ? rows : textRows;
}

function table(rows: readonly Row[]): string {
  const cells = rows.map((r) => [r.script.replace(/^bench-|\.ts$/g, ''), r.figure, Number.isNaN(r.median) ? '—' : `${r.median} ${r.unit}`, r.target ?? '—', r.met === undefined ? '—' : r.met ? 'yes' : 'NO']);
  const head = ['bench', 'figure', 'median', 'target', 'met'];
  const widths = head.map((h, i) => Math.max(h.length, ...cells.map((c) => (c[i] ?? '').length)));
  const line = (c: readonly string[]) => `| ${c.map((x, i) => x.padEnd(widths[i] ?? 0)).join(' | ')} |`;
  return [line(head), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...cells.map(line)].join('\n');
}

const words = process.argv.slice(2);
const scripts = readdirSync(here)
  .filter((f) => /^bench-.*\.ts$/.test(f) && !skip.has(f))
  .filter((f) => words.length === 0 || words.some((w) => f.includes(w)))
  .sort();
if (scripts.length === 0) throw new Error(`no scripts/bench-*.ts matches ${words.join(', ')}`);
const rows: Row[] = [];
const failed: string[] = [];
const load = (): string => loadavg().map((n) => n.toFixed(1)).join(' ');
const loadBefore = load();
for (const script of scripts) {
  process.stderr.write(`\n== ${script} (load ${load()})\n`);
  const { code, output } = await runScript(script);
  if (code !== 0) failed.push(script);
  const figures = parseFigures(script, output);
  rows.push(...(figures.length > 0 ? figures : [{ script, figure: '(reported no figures)', median: Number.NaN, unit: '' }]));
}
const cpu = cpus()[0]?.model ?? 'unknown CPU';
console.log(`\n${new Date().toISOString().slice(0, 10)} · Node ${process.version} · ${availableParallelism()} cores (${cpu}) · ${process.platform} · load average ${loadBefore} before, ${load()} after\n`);
console.log(table(rows));
if (failed.length > 0) {
  console.log(`\nfailed: ${failed.join(', ')}`);
  process.exitCode = 1;
}
