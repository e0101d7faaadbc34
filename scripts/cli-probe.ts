/**
 * Runs the built CLI (dist/cli.js) as a user would, against a fake provider, in a private HOME,
 * and watches the process: its RSS when the provider receives the request (the baseline), its
 * peak RSS over its whole life (getrusage maxRSS, written by a preload at exit), an RSS timeline
 * sampled from /proc, and the wall time from exec until each request arrives.
 * Shared by scripts/bench-stream.ts and scripts/bench-sessions.ts.
 */
import { spawn } from 'node:child_process';
import { closeSync, createReadStream, createWriteStream, mkdirSync, openSync, readFileSync, readSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { FakeFormat, ScriptedReply } from '../test/support/fake-provider.js';
import { anthropicEvents, openaiEvents } from '../test/support/fake-provider-events.js';

export interface ProbeHome {
  readonly root: string;
  readonly project: string;
  readonly env: NodeJS.ProcessEnv;
}

/** A HOME with a config whose default preset is the fake provider at baseUrl. */
export function probeHome(root: string, format: FakeFormat, baseUrl: string, extraToml = ''): ProbeHome {
  const project = join(root, 'project');
  mkdirSync(project, { recursive: true });
  mkdirSync(join(root, 'config', 'lindwyrm'), { recursive: true });
  writeFileSync(
    join(root, 'config', 'lindwyrm', 'config.toml'),
    `default_preset = "fake"\n${extraToml}\n[[presets]]\nname = "fake"\nformat = "${format}"\nbase_url = "${baseUrl}"\nmodel = "m"\napi_key_env = ["FAKE_API_KEY"]\n`,
  );
  writeFileSync(
    join(root, 'rss-at-exit.mjs'),
    `import { writeFileSync } from 'node:fs';\n` +
      `process.on('exit', () => { try { writeFileSync(${JSON.stringify(join(root, 'rss-at-exit.json'))}, JSON.stringify({ maxRssKb: process.resourceUsage().maxRSS, heap: process.memoryUsage() })); } catch {} });\n`,
  );
  const env: NodeJS.ProcessEnv = {
    PATH: process.env['PATH'],
    HOME: root,
    XDG_CONFIG_HOME: join(root, 'config'),
    XDG_DATA_HOME: join(root, 'data'),
    XDG_CACHE_HOME: join(root, 'cache'),
    XDG_STATE_HOME: join(root, 'state'),
    FAKE_API_KEY: 'bench-key',
    TERM: 'dumb',
  };
  return { root, project, env };
}

export interface ProbeResult {
  readonly status: number | null;
  readonly stdoutBytes: number;
  readonly stderr: string;
  /** RSS (MB) when each request reached the provider (call `mark()` from the reply function). */
  /** …and the CPU time (user + system, ms) used by then, from /proc: the main thread's, and all threads'. */
  readonly marks: readonly { ms: number; rssMb: number; cpuMs: number; mainCpuMs: number }[];
  /** Peak RSS over the process's life, MB (getrusage, at exit). */
  readonly peakMb: number;
  /** RSS samples every ~20 ms: [ms since exec, MB]. */
  readonly samples: readonly [number, number][];
  readonly wallMs: number;
  /** The first bytes of stdout (e.g. a --json result's head). */
  readonly stdoutHead: string;
}

export interface Probe {
  readonly pid: number;
  /** Call when the provider receives a request: records time since exec and the RSS then. */
  mark(): void;
  readonly done: Promise<ProbeResult>;
}

export function rssMb(pid: number): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const m = /VmRSS:\s+(\d+) kB/.exec(status);
    return m ? Number(m[1]) / 1024 : NaN;
  } catch {
    return NaN;
  }
}

/** CPU time (user + system) a process (or one of its threads) has used so far, ms; NaN where /proc cannot say. */
export function cpuMs(pid: number, thread?: number): number {
  try {
    // The fields after the command name (which may hold spaces): utime and stime are the 12th and 13th.
    const fields = readFileSync(thread === undefined ? `/proc/${pid}/stat` : `/proc/${pid}/task/${thread}/stat`, 'utf8').split(') ').pop()!.split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
  } catch {
    return NaN;
  }
}

/** USER_HZ: 100 on Linux everywhere that matters here. */
const CLOCK_TICKS = 100;

/**
 * Spawns `node [nodeFlags] dist/cli.js ...args` in the probe's project and watches it. stdout goes
 * to a file (as `lwyrm -p … > out.txt` does), so how fast this process reads cannot change the
 * figures; `stdoutPipe` reads it over a pipe instead (a slow reader then shows as the CLI's memory).
 */
export function probeCli(
  home: ProbeHome,
  args: readonly string[],
  opts: { nodeFlags?: readonly string[]; dist?: string; stdin?: string; stdoutPipe?: boolean } = {},
): Probe {
  const cli = resolve(opts.dist ?? 'dist', 'cli.js');
  const preload = pathToFileURL(join(home.root, 'rss-at-exit.mjs')).href;
  const started = process.hrtime.bigint();
  const since = (): number => Number(process.hrtime.bigint() - started) / 1e6;
  const outFile = join(home.root, 'stdout.txt');
  const outFd = opts.stdoutPipe ? undefined : openSync(outFile, 'w');
  const child = spawn(process.execPath, [...(opts.nodeFlags ?? []), '--import', preload, cli, ...args], {
    cwd: home.project,
    env: home.env,
    stdio: [opts.stdin === undefined ? 'ignore' : 'pipe', outFd ?? 'pipe', 'pipe'],
  });
  if (outFd !== undefined) closeSync(outFd);
  if (opts.stdin !== undefined) child.stdin?.end(opts.stdin);
  const pid = child.pid ?? 0;
  const marks: { ms: number; rssMb: number; cpuMs: number; mainCpuMs: number }[] = [];
  const samples: [number, number][] = [];
  const timer = setInterval(() => samples.push([since(), rssMb(pid)]), 20);
  let stdoutBytes = 0;
  let stdoutHead = '';
  let stderr = '';
  child.stdout?.on('data', (c: Buffer) => {
    stdoutBytes += c.length;
    if (stdoutHead.length < 400) stdoutHead += c.toString('utf8', 0, Math.min(c.length, 400));
  });
  child.stderr?.on('data', (c: Buffer) => (stderr += c.toString()));
  const done = new Promise<ProbeResult>((res) => {
    child.on('close', (status) => {
      clearInterval(timer);
      const wallMs = since();
      if (outFd !== undefined) {
        stdoutBytes = statSync(outFile).size;
        const head = Buffer.alloc(400);
        const fd = openSync(outFile, 'r');
        stdoutHead = head.subarray(0, readSync(fd, head, 0, 400, 0)).toString('utf8');
        closeSync(fd);
        rmSync(outFile, { force: true });
      }
      let peakMb = NaN;
      try {
        peakMb = (JSON.parse(readFileSync(join(home.root, 'rss-at-exit.json'), 'utf8')) as { maxRssKb: number }).maxRssKb / 1024;
      } catch {
        // the process died before its exit handler ran: the samples still say something
      }
      res({ status, stdoutBytes, stderr, marks, peakMb, samples, wallMs, stdoutHead });
    });
  });
  return { pid, mark: () => marks.push({ ms: since(), rssMb: rssMb(pid), cpuMs: cpuMs(pid), mainCpuMs: cpuMs(pid, pid) }), done };
}

/** A short text timeline: the RSS at a few points, for finding where memory goes. */
export function timeline(samples: readonly [number, number][], points = 12): string {
  if (samples.length === 0) return '(no samples)';
  const step = Math.max(1, Math.floor(samples.length / points));
  const picked = samples.filter((_, i) => i % step === 0 || i === samples.length - 1);
  return picked.map(([ms, mb]) => `${(ms / 1000).toFixed(1)}s:${Number.isNaN(mb) ? '-' : mb.toFixed(0)}`).join(' ');
}

/**
 * Writes the stream the fake provider sends for `reply` into a file, from the fake's own event
 * builders (serving tens of megabytes event by event through its HTTP server takes minutes).
 */
export async function recordReply(format: FakeFormat, reply: ScriptedReply, file: string): Promise<number> {
  const events = format === 'anthropic' ? anthropicEvents(reply, 'm') : openaiEvents(reply, 'm', 'reasoning_content', true);
  const out = createWriteStream(file);
  let batch = '';
  for (const ev of events) {
    batch += `${ev.event ? `event: ${ev.event}\n` : ''}data: ${ev.data}\n\n`;
    if (batch.length > 1 << 20) {
      if (!out.write(batch)) await new Promise<void>((r) => out.once('drain', () => r()));
      batch = '';
    }
  }
  await new Promise<void>((r, j) => out.end(batch, () => r()).once('error', j));
  return statSync(file).size;
}

export interface Replayer {
  readonly baseUrl: string;
  /** Bodies of the requests received, in order (their sizes, to keep the bench's memory flat). */
  readonly requestBytes: number[];
  close(): Promise<void>;
}

/**
 * Serves recorded streams from disk: request i gets files[i] (the last one again after that), so
 * the bench process holds none of a reply in memory and spends little CPU beside the CLI.
 */
export async function replayRecordings(files: readonly string[], onRequest: (index: number) => void): Promise<Replayer> {
  const requestBytes: number[] = [];
  const server = createServer((req, res) => {
    let bytes = 0;
    req.on('data', (c: Buffer) => (bytes += c.length));
    req.on('end', () => {
      const index = requestBytes.length;
      requestBytes.push(bytes);
      onRequest(index);
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      createReadStream(files[Math.min(index, files.length - 1)]!, { highWaterMark: 64 * 1024 }).pipe(res);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const port = (server.address() as AddressInfo).port;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    requestBytes,
    close: () => new Promise<void>((r) => {
      server.closeAllConnections();
      server.close(() => r());
    }),
  };
}
