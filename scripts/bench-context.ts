/**
 * Context benchmark: how long one reclaim pass takes on a 1,000-message conversation, and how much
 * of each request's prompt is an unchanged prefix of the previous one over a scripted 100-turn
 * session (the part a provider can serve from its cache).
 *
 *   node --import tsx scripts/bench-context.ts
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createContextManager } from '../src/context/create-context-manager.js';
import { estimateMessage, estimateMessages } from '../src/context/estimate-tokens.js';
import { createOffloadStore } from '../src/context/offload-store.js';
import type { Message } from '../src/providers/types.js';
import { reportFigure } from './bench-report.js';

const MARKER = 'lw-bench00marker';
const SYSTEM = 'You are a coding agent. '.repeat(200);

function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function fileText(r: () => number, lines: number): string {
  const out: string[] = [];
  for (let i = 0; i < lines; i++) out.push(`    value_${i} = compute(${Math.floor(r() * 1e6)}, "${'x'.repeat(Math.floor(r() * 40))}")`);
  return out.join('\n');
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const fmt = (n: number): string => Math.round(n).toLocaleString('en-US');

/** 250 turns of prompt, read_file call, result, answer: 1,000 messages. */
function bigConversation(r: () => number, bigReads = true): Message[] {
  const out: Message[] = [];
  for (let t = 0; t < 250; t++) {
    const lines = bigReads && r() < 0.2 ? 200 + Math.floor(r() * 300) : 5 + Math.floor(r() * 60);
    out.push({ role: 'user', content: [{ type: 'text', text: `Step ${t}: look at module ${t} and fix what is wrong.` }] });
    out.push({ role: 'assistant', content: [{ type: 'text', text: 'Reading it.' }, { type: 'tool_use', id: `t${t}`, name: 'read_file', input: { path: `src/m${t}.py` } }] });
    out.push({ role: 'user', content: [{ type: 'tool_result', toolUseId: `t${t}`, content: fileText(r, lines) }] });
    out.push({ role: 'assistant', content: [{ type: 'text', text: `Module ${t} ${'is fine now. '.repeat(1 + Math.floor(r() * 20))}` }] });
  }
  return out;
}

async function benchCompactionPass(dir: string): Promise<void> {
  const history = bigConversation(random(7));
  const tokens = estimateMessages(history);
  const light = bigConversation(random(7), false);
  const times: Record<'check' | 'offload' | 'memory' | 'summarize', number[]> = { check: [], offload: [], memory: [], summarize: [] };
  let actions = '';
  for (let run = 0; run < 7; run++) {
    const make = (window: number, thresholdTokens?: number) =>
      createContextManager({
        window,
        ...(thresholdTokens ? { thresholdTokens } : {}),
        offload: createOffloadStore({ dir, sessionId: `pass-${window}-${run}` }),
        marker: MARKER,
        summarize: async () => 'Summary of the work so far.',
      });
    // Under the reclaim point: the cost every request pays just to check (fresh estimates).
    const idle = make(1_000_000);
    let t0 = performance.now();
    await idle.beforeRequest(light, SYSTEM);
    times.check.push(performance.now() - t0);
    // 1M window, reclaims at 200k, results over 1,000 tokens move: offloading alone brings it under.
    const offloading = make(1_000_000, 1_000);
    t0 = performance.now();
    const a = await offloading.beforeRequest(history, SYSTEM);
    times.offload.push(performance.now() - t0);
    // The same pass with an in-memory store: the cost of the pass itself, without the disk.
    const memory = new Map<string, string>();
    const inMemory = createContextManager({
      window: 1_000_000,
      thresholdTokens: 1_000,
      offload: {
        put: async (_tool, content) => {
          const ref = `off_${String(memory.size + 1).padStart(4, '0')}`;
          memory.set(ref, content);
          return ref;
        },
        read: async (ref) => memory.get(ref),
        list: async () => [...memory].map(([ref, c]) => ({ ref, bytes: c.length })),
        archive: async () => [],
        archived: async () => [],
      },
      marker: MARKER,
      summarize: async () => 'unused',
    });
    t0 = performance.now();
    await inMemory.beforeRequest(history, SYSTEM);
    times.memory.push(performance.now() - t0);
    // 128K window, reclaims at 96k: every older result moves and the rest is summarized.
    const summarizing = make(128_000);
    t0 = performance.now();
    const b = await summarizing.beforeRequest(history, SYSTEM);
    times.summarize.push(performance.now() - t0);
    actions = `${a.action} (${a.offloadedResults} results moved), ${b.action} (${b.offloadedResults} moved, ${b.summarizedMessages} messages summarized)`;
  }
  console.log(`compaction pass on ${history.length} messages (~${fmt(tokens)} tokens estimated), median of 7:`);
  console.log(`  check, nothing to do (1M window, ~${fmt(estimateMessages(light))} tokens, estimates cached per message): ${median(times.check).toFixed(2)} ms`);
  console.log(`  retroactive offload pass (1M window):              ${median(times.offload).toFixed(2)} ms`);
  console.log(`  the same pass, in-memory store (no disk):          ${median(times.memory).toFixed(2)} ms`);
  console.log(`  offload + summarize, instant summarizer (128K):    ${median(times.summarize).toFixed(2)} ms`);
  console.log(`  last run: ${actions}`);
  const round2 = (n: number): number => Math.round(n * 100) / 100;
  reportFigure({ figure: `compaction check, nothing to do (${history.length} messages)`, median: round2(median(times.check)), unit: 'ms' });
  reportFigure({ figure: `compaction: offload + summarize pass (${history.length} messages)`, median: round2(median(times.summarize)), unit: 'ms' });
}

/** How many leading messages two requests share, compared by value as they go on the wire. */
function sharedPrefix(prev: readonly string[], next: readonly string[]): number {
  let i = 0;
  while (i < prev.length && i < next.length && prev[i] === next[i]) i++;
  return i;
}

async function benchPrefixStability(dir: string): Promise<void> {
  const r = random(42);
  const window = 64_000;
  const manager = createContextManager({
    window,
    offload: createOffloadStore({ dir, sessionId: 'session-100' }),
    marker: MARKER,
    summarize: async (older) => `Earlier: ${older.length} messages of reading and fixing modules.`,
  });
  const history: Message[] = [];
  let previous: string[] = [];
  let requests = 0;
  let fullPrefix = 0;
  let compactions = 0;
  let brokenWithoutCompaction = 0;
  let promptTokens = 0;
  let reusedTokens = 0;
  let id = 0;

  const send = async (): Promise<Message> => {
    const reclaim = await manager.beforeRequest(history, SYSTEM);
    if (reclaim.action !== 'none') {
      history.splice(0, history.length, ...reclaim.messages);
      compactions++;
      if (process.env["BENCH_TRACE"]) console.log(`  request ${requests + 1}: ${reclaim.action} — ${reclaim.detail}`);
    }
    const wire = history.map((m) => JSON.stringify(m));
    const shared = sharedPrefix(previous, wire);
    const whole = shared === previous.length;
    requests++;
    if (whole) fullPrefix++;
    else if (reclaim.action === 'none') brokenWithoutCompaction++;
    const sharedTokens = history.slice(0, shared).reduce((s, m) => s + estimateMessage(m), 0);
    const prompt = estimateMessages(history);
    promptTokens += prompt;
    reusedTokens += sharedTokens;
    previous = wire;
    manager.recordUsage({ input: prompt - sharedTokens, cacheRead: sharedTokens, cacheWrite: 0, output: 200 }, history.length);
    return { role: 'assistant', content: [{ type: 'text', text: 'ok '.repeat(50 + Math.floor(r() * 200)) }] };
  };

  for (let turn = 0; turn < 100; turn++) {
    history.push({ role: 'user', content: [{ type: 'text', text: `Turn ${turn}: next change, please.` }] });
    const steps = 1 + Math.floor(r() * 3);
    for (let s = 0; s < steps; s++) {
      await send();
      const callId = `c${++id}`;
      const tool = r() < 0.6 ? 'read_file' : 'bash';
      history.push({ role: 'assistant', content: [{ type: 'tool_use', id: callId, name: tool, input: { path: `src/f${id}.py`, command: 'npm test' } }] });
      const raw = fileText(r, r() < 0.25 ? 400 : 10 + Math.floor(r() * 50));
      const content = await manager.onToolResult(tool, raw, { input: { path: `src/f${id}.py`, command: 'npm test' } });
      history.push({ role: 'user', content: [{ type: 'tool_result', toolUseId: callId, content }] });
    }
    history.push(await send());
  }
  const stats = await manager.stats(history, SYSTEM);
  console.log(`scripted 100-turn session (window ${fmt(window)}, reclaims at ${fmt(manager.settings.reclaimAt)}):`);
  console.log(`  requests: ${requests}; a reclaim ran before ${compactions} of them`);
  console.log(`  whole previous prompt reused as prefix: ${fullPrefix} of ${requests} (${((fullPrefix / requests) * 100).toFixed(1)}%)`);
  console.log(`  prefix broken on a request with no reclaim: ${brokenWithoutCompaction} (target 0)`);
  console.log(`  prompt tokens served from an unchanged prefix: ${((reusedTokens / promptTokens) * 100).toFixed(1)}% of ${fmt(promptTokens)}`);
  reportFigure({ figure: `requests reusing the whole previous prompt as prefix (of ${requests}; ${compactions} follow a reclaim)`, median: fullPrefix, unit: 'requests', target: `${requests - compactions} (all but reclaims)`, met: fullPrefix >= requests - compactions });
  reportFigure({ figure: 'prefix broken on a request with no reclaim', median: brokenWithoutCompaction, unit: 'requests', target: '0', met: brokenWithoutCompaction === 0 });
  console.log(`  offloaded: ${stats.offloadedCount} results, ${fmt(stats.offloadedBytes / 1024)} KB; final history ${history.length} messages`);
}

const dir = await mkdtemp(join(tmpdir(), 'lw-bench-context-'));
try {
  await benchCompactionPass(dir);
  await benchPrefixStability(dir);
} finally {
  await rm(dir, { recursive: true, force: true });
}
