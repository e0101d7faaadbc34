/**
 * Session store figures: list 1,000 sessions; save and resume one holding ~1M tokens of history.
 * Targets: list < 300 ms; resume < 1 s and < 300 MB peak RSS. Then the built CLI resuming a
 * 500-turn session (tool calls, results of 0.5–1.2 KB, every tenth offloaded; ~183k tokens, just
 * under the reclaim point, so the first request is the turn's and holds all 2,000 messages) among
 * 300 older sessions of the project: wall time from exec of `lwyrm -p … --resume ID` / `-c -p …`
 * until the fake provider receives the request (target < 500 ms). Build first (`npm run build`).
 *   node --import tsx scripts/bench-sessions.ts [--resume-only] [runs]
 *   BENCH_DIST=other/dist …   (times that build too, run for run: a before/after in one run)
 */
import { spawnSync } from 'node:child_process';
import { appendFileSync, readdirSync, utimesSync } from 'node:fs';
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeFileAtomic } from '../src/io/atomic-write.js';
import { createSessionStore } from '../src/sessions/session-store.js';
import { projectDirFor, realProjectRoot } from '../src/sessions/layout.js';
import { bigHistory, makeRecord, richTurn, userText } from '../test/sessions/support/records.js';
import type { Message } from '../src/providers/types.js';
import { median as medianOf, reportFigure } from './bench-report.js';
import { startFakeProvider } from '../test/support/fake-provider.js';
import { probeCli, probeHome } from './cli-probe.js';
import { writeLongSession } from './resume-session.js';

const SESSIONS = 1000;
const HISTORY_BYTES = 4_500_000; // ~1M tokens at ~4.5 characters per token

const ms = (start: bigint): number => Number(process.hrtime.bigint() - start) / 1e6;
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const fmt = (x: number): string => x.toFixed(1).padStart(8);

async function timed<T>(fn: () => Promise<T>): Promise<[T, number]> {
  const start = process.hrtime.bigint();
  const value = await fn();
  return [value, ms(start)];
}

/** Runs in a fresh process, so the figures include a cold module and a cold store, as in real use. */
async function child(mode: string, dir: string, root: string, id: string): Promise<void> {
  const before = process.memoryUsage().rss;
  const cpu = process.cpuUsage();
  const store = createSessionStore({ dir, projectRoot: root });
  const [count, took] = await timed(async () => {
    if (mode === '--list-child') return (await store.list()).sessions.length;
    await store.lock(id);
    return (await store.load(id)).messages.length;
  });
  const used = process.cpuUsage(cpu);
  const peakMb = process.resourceUsage().maxRSS / 1024;
  const cpuMs = (used.user + used.system) / 1000;
  process.stdout.write(JSON.stringify({ took, cpuMs, count, baseMb: before / 1048576, peakMb }) + '\n');
  await store.close();
}

interface ChildFigures {
  took: number;
  cpuMs: number;
  count: number;
  baseMb: number;
  peakMb: number;
}

function runChild(mode: string, dir: string, root: string, id = ''): ChildFigures {
  const result = spawnSync(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), mode, dir, root, id], { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(result.stderr);
  return JSON.parse(result.stdout.trim().split('\n').pop()!) as ChildFigures;
}

async function main(): Promise<void> {
  const root = await mkdtemp(join(tmpdir(), 'lwyrm-bench-sessions-'));
  const dir = join(root, 'sessions');
  const project = root;
  try {
    const store = createSessionStore({ dir, projectRoot: project });
    const small: Message[] = [userText('fix the rounding in prices.py'), ...richTurn(1), userText('now the tests'), ...richTurn(2)];
    const saveTimes: number[] = [];
    for (let i = 0; i < SESSIONS; i++) {
      const id = store.newId();
      const updatedAt = new Date(Date.UTC(2026, 10, 1) + i * 60_000).toISOString();
      const [, took] = await timed(() => store.save(makeRecord(id, project, small, { updatedAt, firstPrompt: `task ${i}` })));
      saveTimes.push(took);
      await store.unlock(id);
    }
    console.log(`new session, first save (small)       ${fmt(median(saveTimes))} ms median`);

    const lists = [0, 1, 2].map(() => runChild('--list-child', dir, project));
    if (lists.some((l) => l.count !== SESSIONS)) throw new Error('wrong count listed');
    const listMs = median(lists.map((l) => l.took));
    console.log(`list ${SESSIONS} sessions (fresh process)    ${fmt(listMs)} ms median of 3, ${median(lists.map((l) => l.cpuMs)).toFixed(1)} ms CPU (target < 300)`);
    reportFigure({ figure: `list ${SESSIONS} saved sessions (fresh process)`, median: Number(fmt(listMs)), unit: 'ms', target: '< 300 ms', met: listMs < 300 });

    const history = bigHistory(HISTORY_BYTES);
    const id = store.newId();
    let record = makeRecord(id, project, history);
    const bytes = Buffer.byteLength(JSON.stringify(history));
    const [, firstSave] = await timed(() => store.save(record));
    console.log(`big session: ${history.length} messages, ${(bytes / 1e6).toFixed(1)} MB of JSON`);
    console.log(`  first save (whole history)          ${fmt(firstSave)} ms`);

    const appendTimes: number[] = [];
    let messages = history;
    for (let turn = 0; turn < 20; turn++) {
      messages = [...messages, userText(`follow-up ${turn}`), ...richTurn(turn)];
      record = { ...record, messages, turns: record.turns + 1 };
      appendTimes.push((await timed(() => store.save(record)))[1]);
    }
    console.log(`  save after a turn (append)          ${fmt(median(appendTimes))} ms median of 20`);
    reportFigure({ figure: `save after a turn on a ${(bytes / 1e6).toFixed(0)} MB session (append)`, median: Number(fmt(median(appendTimes))), unit: 'ms' });

    const compacted = [userText('[Summary] ...'), ...messages.slice(1000)];
    const [, rewrite] = await timed(() => store.save({ ...record, messages: compacted }));
    console.log(`  save after a summary (rewrite)      ${fmt(rewrite)} ms`);
    record = { ...record, messages: messages };
    const wholeJson: number[] = [];
    for (let run = 0; run < 5; run++) {
      wholeJson.push((await timed(() => writeFileAtomic(join(root, 'whole.json'), JSON.stringify(record))))[1]);
    }
    console.log(`  (alternative: whole-file JSON save  ${fmt(median(wholeJson))} ms median, every turn)`);
    await store.save(record);
    await store.close();

    const r = runChild('--resume-child', dir, project, id);
    console.log(`resume (fresh process, lock + load)   ${fmt(r.took)} ms, ${r.cpuMs.toFixed(1)} ms CPU (target < 1000), ${r.count} messages`);
    console.log(`  peak RSS                            ${fmt(r.peakMb)} MB (target < 300; ${r.baseMb.toFixed(0)} MB before loading)`);
    reportFigure({ figure: `resume a ${r.count}-message session (fresh process, lock + load)`, median: Number(fmt(r.took)), unit: 'ms', target: '< 1000 ms', met: r.took < 1000 });
    reportFigure({ figure: 'resume: peak RSS', median: Number(fmt(r.peakMb)), unit: 'MB', target: '< 300 MB', met: r.peakMb < 300 });
    console.log(`(load average while measuring: ${loadavg().map((l) => l.toFixed(1)).join(' ')} on ${availableParallelism()} cores)`);
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

/** Older sessions of the same project beside the long one: `-c` has to find the newest among them. */
const OTHER_SESSIONS = 300;

/**
 * The built CLI resuming a 500-turn session: exec until the provider has the request. Every run
 * starts from the same saved files (a copy of them), so each resumes the same 500 turns rather
 * than the session the previous run left. BENCH_DIST=dir times another build beside this one, run
 * for run (a before/after in one run on a shared machine).
 */
async function resumeThroughCli(runs: number): Promise<void> {
  const root = await mkdtemp(join(tmpdir(), 'lwyrm-bench-resume-'));
  let probe: ReturnType<typeof probeCli> | undefined;
  let sent = 0;
  const fake = await startFakeProvider({
    format: 'anthropic',
    replies: (req) => {
      probe?.mark();
      sent = (req.body as { messages: unknown[] }).messages.length;
      return { text: 'Done.' };
    },
  });
  try {
    const home = probeHome(root, 'anthropic', fake.baseUrl, 'max_reply_bytes = 8388608\n');
    // The preset's window (a key of its [[presets]] table, the file's last): the reclaim point is then 200k.
    appendFileSync(join(root, 'config', 'lindwyrm', 'config.toml'), 'context_window = 1000000\n');
    const dataDir = join(root, 'data', 'lindwyrm');
    const template = join(root, 'saved');
    // The older sessions first: the long one is the project's newest.
    const others = createSessionStore({ dir: join(template, 'sessions'), projectRoot: home.project });
    for (let i = 0; i < OTHER_SESSIONS; i++) {
      const id = others.newId();
      const updatedAt = new Date(Date.now() - (OTHER_SESSIONS - i) * 3_600_000).toISOString();
      await others.save(makeRecord(id, home.project, [userText(`task ${i}`), ...richTurn(i)], { updatedAt, firstPrompt: `task ${i}` }));
      await others.unlock(id);
      // Written when it was last active, as a real one would have been.
      const at = new Date(updatedAt);
      const folder = projectDirFor(join(template, 'sessions'), realProjectRoot(home.project));
      for (const name of readdirSync(folder)) if (name.startsWith(id)) utimesSync(join(folder, name), at, at);
    }
    await others.close();
    const s = await writeLongSession({ dataDir: template, projectRoot: home.project, turns: 500 });
    console.log(
      `500-turn session: ${s.messages} messages, ${(s.bytes / 1e6).toFixed(2)} MB of JSON, ~${Math.round(s.tokens / 1000)}k tokens ` +
        `(under the 200k reclaim point: the first request is the turn's), every tenth result offloaded; ${OTHER_SESSIONS} older sessions beside it`,
    );
    const extra = (process.env['BENCH_NODE_FLAGS'] ?? '').split(' ').filter(Boolean);
    const builds = [{ label: '', dist: 'dist' }, ...(process.env['BENCH_DIST'] ? [{ label: ` [${process.env['BENCH_DIST']}]`, dist: process.env['BENCH_DIST'] }] : [])];
    for (const [label, args] of [
      ['--resume ID', ['-p', 'one more step', '--resume', s.id]],
      ['-c', ['-c', '-p', 'one more step']],
    ] as const) {
      const times = builds.map(() => [] as number[]);
      const cpu = builds.map(() => [] as number[]);
      const loads: number[] = [];
      for (let i = 0; i < runs; i++) {
        for (const [b, build] of builds.entries()) {
          await rm(dataDir, { recursive: true, force: true });
          // Timestamps kept: a saved session's files are as old as its saves.
          await cp(template, dataDir, { recursive: true, preserveTimestamps: true });
          loads.push(loadavg()[0] ?? 0);
          sent = 0;
          probe = probeCli(home, args, { nodeFlags: extra, dist: build.dist });
          const r = await probe.done;
          if (r.status !== 0 || r.marks.length === 0) throw new Error(`lwyrm ${args.join(' ')} failed (${r.status}): ${r.stderr}`);
          // The whole history and the new prompt: the long session, resumed, not a summary of it.
          if (sent !== s.messages + 1) throw new Error(`lwyrm ${args.join(' ')}: the first request held ${sent} messages, not ${s.messages + 1}`);
          times[b]!.push(r.marks[0]!.ms);
          cpu[b]!.push(r.marks[0]!.mainCpuMs);
        }
      }
      const load = `load ${Math.min(...loads).toFixed(1)}–${Math.max(...loads).toFixed(1)}`;
      for (const [b, build] of builds.entries()) {
        const sorted = [...times[b]!].sort((x, y) => x - y);
        const m = medianOf(times[b]!);
        console.log(`resume a 500-turn session (lwyrm -p ${label})${build.label}: exec → request  ${fmt(m)} ms median of ${runs} (target < 500; ${load}; ${sorted.map((t) => t.toFixed(0)).join(', ')}); main thread's CPU by then ${medianOf(cpu[b]!).toFixed(0)} ms`);
        if (b === 0) reportFigure({ figure: `resume a 500-turn session, lwyrm -p ${label}: exec → request (${load})`, median: Number(fmt(m)), unit: 'ms', target: '< 500 ms', met: m < 500 });
      }
    }
    console.log(`(load average while measuring: ${loadavg().map((l) => l.toFixed(1)).join(' ')} on ${availableParallelism()} cores)`);
  } finally {
    await fake.close();
    await rm(root, { recursive: true, force: true });
  }
}

if (process.argv[2]?.endsWith('-child')) {
  await child(process.argv[2], process.argv[3]!, process.argv[4]!, process.argv[5] ?? '');
} else if (process.argv[2] === '--resume-only') {
  await resumeThroughCli(Number(process.argv[3] ?? 5));
} else {
  await main();
  await resumeThroughCli(5);
}
