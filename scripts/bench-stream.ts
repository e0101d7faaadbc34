/**
 * How much CPU the model client spends reading a stream. Records a ~50 MB stream of small deltas
 * from the fake provider (both formats), then measures:
 *   1. parse: SSE reader + assembler fed the recording in 16 KiB chunks, in process;
 *   2. client: the real client over HTTP, the recording served by a child process so that only
 *      the client's CPU is counted.
 * Prints MB/s, CPU time, CPU per delta and the CPU share of one core at 2,000 deltas/s
 * (target: under 5%).
 * Then (unless --cpu-only; --memory-only skips the CPU part) the peak RSS of the built CLI streaming a 50 MB reply: as text
 * deltas and as one tool call's argument, anthropic and openai, in `-p` text, `--json` and
 * stream-json. Counted as peak RSS (getrusage, whole life) minus the RSS when the provider got
 * the request; target: at most ~3× the reply (150 MB for 50 MB). Build first (`npm run build`).
 *
 *   node --import tsx scripts/bench-stream.ts [megabytes] [--cpu-only | --memory-only]
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AnthropicAssembler } from '../src/providers/anthropic-stream.js';
import { createModelClient } from '../src/providers/create-client.js';
import { OpenAiAssembler } from '../src/providers/openai-stream.js';
import { SseParser } from '../src/providers/sse-reader.js';
import type { StreamAssembler } from '../src/providers/stream-runner.js';
import type { Preset } from '../src/config/types.js';
import { startFakeProvider, type FakeFormat } from '../test/support/fake-provider.js';
import { reportFigure } from './bench-report.js';
import { cliMemory } from './stream-memory.js';

const targetMb = Number(process.argv.slice(2).find((a) => /^\d/.test(a)) ?? 50);
const memory = !process.argv.includes('--cpu-only');
const cpu = !process.argv.includes('--memory-only');
const RATE = 2_000;

async function record(format: FakeFormat): Promise<Buffer> {
  // Bytes per delta differ by format; aim the text length at the requested size.
  const bytesPerChar = format === 'anthropic' ? 31 : 52;
  const words = 'fn parse(input) { return tokens.map((t) => t.value); } 解析 ';
  const text = words.repeat(Math.ceil((targetMb * 1e6) / bytesPerChar / words.length));
  const fake = await startFakeProvider({ format, replies: [{ text }] });
  const path = format === 'anthropic' ? '/v1/messages' : '/chat/completions';
  const res = await fetch(fake.baseUrl + path, {
    method: 'POST',
    body: JSON.stringify({ model: 'bench', stream: true, stream_options: { include_usage: true } }),
  });
  const bytes = Buffer.from(await res.arrayBuffer());
  await fake.close();
  return bytes;
}

function parseOnly(format: FakeFormat, bytes: Buffer, warmUp = false): { cpuMs: number; wallMs: number; deltas: number } {
  const assembler: StreamAssembler = format === 'anthropic' ? new AnthropicAssembler() : new OpenAiAssembler();
  const parser = new SseParser();
  let deltas = 0;
  let stopped = false;
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  for (let i = 0; i < bytes.length; i += 16_384) {
    for (const msg of parser.push(bytes.subarray(i, i + 16_384))) {
      for (const ev of assembler.feed(msg)) {
        if (ev.type === 'text_delta') deltas++;
        else if (ev.type === 'stop') stopped = true;
      }
    }
  }
  if (warmUp) return { cpuMs: 0, wallMs: 0, deltas };
  for (const msg of parser.end()) assembler.feed(msg);
  for (const ev of assembler.finish()) if (ev.type === 'stop') stopped = true;
  if (!stopped) throw new Error('recording did not end with a stop');
  const cpu = process.cpuUsage(cpu0);
  return { cpuMs: (cpu.user + cpu.system) / 1000, wallMs: performance.now() - t0, deltas };
}

const SERVER = `
const http = require('node:http');
const data = require('node:fs').readFileSync(process.argv[1]);
http.createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    let i = 0;
    const pump = () => {
      while (i < data.length) { const ok = res.write(data.subarray(i, i += 16384)); if (!ok) return res.once('drain', pump); }
      res.end();
    };
    pump();
  });
}).listen(0, '127.0.0.1', function () { console.log(this.address().port); });
`;

async function overHttp(format: FakeFormat, file: string): Promise<{ cpuMs: number; wallMs: number; deltas: number }> {
  const child = spawn(process.execPath, ['-e', SERVER, file], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<number>((resolve) => child.stdout.once('data', (d: Buffer) => resolve(Number(String(d).trim()))));
  const preset: Preset = {
    name: 'bench',
    format,
    baseUrl: `http://127.0.0.1:${port}`,
    model: 'bench',
    apiKeyEnv: [],
    keyOptional: true,
    thinking: false,
    vision: false,
    contextWindow: 128_000,
    maxTokens: 4096,
    echoReasoning: 'auto',
    proxy: undefined,
  };
  const client = createModelClient(preset, { noProxy: [], globalProxy: undefined, maxRetries: 0, idleTimeoutMs: 30_000 });
  let deltas = 0;
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const request = { system: '', tools: [], messages: [], maxTokens: 4096, thinking: false };
  for await (const ev of client.stream(request)) if (ev.type === 'text_delta') deltas++;
  const cpu = process.cpuUsage(cpu0);
  const wallMs = performance.now() - t0;
  child.kill();
  return { cpuMs: (cpu.user + cpu.system) / 1000, wallMs, deltas };
}

function report(label: string, mb: number, r: { cpuMs: number; wallMs: number; deltas: number }, client: boolean): void {
  const perDeltaUs = (r.cpuMs * 1000) / r.deltas;
  const share = (perDeltaUs * RATE) / 1e6;
  console.log(
    `${label.padEnd(18)} ${(mb / (r.wallMs / 1000)).toFixed(1).padStart(6)} MB/s wall, ${(mb / (r.cpuMs / 1000)).toFixed(1).padStart(6)} MB per cpu-s  cpu ${r.cpuMs.toFixed(0).padStart(5)} ms  ` +
      `${r.deltas} deltas  ${perDeltaUs.toFixed(2)} µs/delta  ${(share * 100).toFixed(2)}% of a core at ${RATE} deltas/s`,
  );
  if (client) {
    reportFigure({ figure: `${label} CPU at ${RATE} deltas/s`, median: Math.round(share * 10000) / 100, unit: '% of a core', target: '< 5%', met: share < 0.05 });
  } else {
    reportFigure({ figure: `${label} throughput`, median: Math.round((mb / (r.cpuMs / 1000)) * 10) / 10, unit: 'MB per cpu-s' });
  }
}

const dir = await mkdtemp(join(tmpdir(), 'lwyrm-bench-'));
try {
  for (const format of cpu ? (['anthropic', 'openai'] as const) : []) {
    const bytes = await record(format);
    const mb = bytes.length / 1e6;
    console.log(`${format}: recorded ${mb.toFixed(1)} MB`);
    parseOnly(format, bytes.subarray(0, Math.min(bytes.length, 2e6)), true); // JIT warm-up
    report(`${format} parse`, mb, parseOnly(format, bytes), false);
    const file = join(dir, `${format}.sse`);
    await writeFile(file, bytes);
    report(`${format} client`, mb, await overHttp(format, file), true);
  }
  if (memory) await cliMemory(dir, targetMb);
} finally {
  await rm(dir, { recursive: true, force: true });
}
