/**
 * The built CLI streaming one reply of `mb` megabytes (64-character deltas, a generated source
 * file), for scripts/bench-stream.ts: peak RSS over the RSS when the request reached the provider.
 * BENCH_DIST=dir runs another build (an older one, for a before/after figure); BENCH_STREAM_RUNS=0,3
 * picks runs by index.
 */
import { availableParallelism, loadavg } from 'node:os';
import { join } from 'node:path';
import { mkdir, rm } from 'node:fs/promises';
import type { FakeFormat, ScriptedReply } from '../test/support/fake-provider.js';
import { probeCli, probeHome, recordReply, replayRecordings, timeline } from './cli-probe.js';

type Shape = 'text' | 'tool argument';
type Mode = '-p' | '-p --json' | 'stream-json';

const MODES: Record<Mode, readonly string[]> = {
  '-p': [],
  '-p --json': ['--json'],
  'stream-json': ['--output-format', 'stream-json'],
};

export async function cliMemory(dir: string, mb: number): Promise<void> {
  const line = 'const value = compute(input, options); // a line of a long generated answer\n';
  const text = line.repeat(Math.ceil((mb * 1e6) / line.length)).slice(0, mb * 1e6);
  const replies: Record<Shape, ScriptedReply> = {
    text: { text, pieceChars: 64 },
    'tool argument': { toolCalls: [{ name: 'write_file', input: { path: 'big.txt', content: text } }], pieceChars: 64 },
  };
  const runs: [FakeFormat, Shape, Mode][] = [
    ['anthropic', 'text', '-p'],
    ['anthropic', 'text', '-p --json'],
    ['anthropic', 'text', 'stream-json'],
    ['openai', 'text', '-p'],
    ['anthropic', 'tool argument', '-p'],
    ['openai', 'tool argument', '-p --json'],
  ];
  const only = process.env['BENCH_STREAM_RUNS']?.split(',').map(Number);
  for (const [i, [format, shape, mode]] of runs.entries()) {
    if (only && !only.includes(i)) continue;
    const work = join(dir, `mem-${i}`);
    await mkdir(work, { recursive: true });
    const reply = join(work, 'reply.sse');
    const done = join(work, 'done.sse');
    await recordReply(format, replies[shape], reply);
    await recordReply(format, { text: 'Done.' }, done);
    // The server marks the request on the probe, which starts once the server's address is known.
    const running: { probe?: ReturnType<typeof probeCli> } = {};
    const server = await replayRecordings([reply, done], () => running.probe?.mark());
    const home = probeHome(work, format, server.baseUrl, `max_reply_bytes = ${4 * mb * 1024 * 1024}\n`);
    running.probe = probeCli(home, ['-p', 'write it out', '--allow', 'write', ...MODES[mode]], process.env['BENCH_DIST'] ? { dist: process.env['BENCH_DIST'] } : {});
    const r = await running.probe.done;
    await server.close();
    const base = r.marks[0]?.rssMb ?? NaN;
    const over = r.peakMb - base;
    console.log(
      `${format} ${shape}, ${mode}: peak RSS over baseline  ${over.toFixed(0)} MB (target < ${3 * mb}; baseline ${base.toFixed(0)} MB, peak ${r.peakMb.toFixed(0)} MB, ` +
        `exit ${r.status}, ${(r.stdoutBytes / 1e6).toFixed(1)} MB on stdout, ${(r.wallMs / 1000).toFixed(1)} s)`,
    );
    if (process.env['BENCH_TIMELINE']) console.log(`  RSS MB by time: ${timeline(r.samples, 16)}`);
    await rm(work, { recursive: true, force: true });
  }
  console.log(`(load average while measuring: ${loadavg().map((l) => l.toFixed(1)).join(' ')} on ${availableParallelism()} cores)`);
}
