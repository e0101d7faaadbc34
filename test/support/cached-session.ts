/**
 * A scripted 30-turn session with tool calls against the fake provider's Anthropic caching model:
 * the real engine, the real tools on real files, the real system prompt — so what the fake bills
 * is what a Claude endpoint would bill lindwyrm for the same session. Used by the caching test
 * and by scripts/bench-prompt-cache.ts, which prints the figures for the README.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { assembleSession } from '../../src/agent/assemble-session.js';
import { realSessionDeps } from '../../src/agent/start-session.js';
import { loadConfig } from '../../src/config/load-config.js';
import type { Usage } from '../../src/providers/types.js';
import type { CacheOutcome } from './fake-provider-cache.js';
import { startFakeProvider, type ScriptedReply } from './fake-provider.js';
import { makeSandbox } from './sandbox.js';

/** Claude Sonnet 4.5 list prices, $ per million tokens (platform.claude.com pricing). */
export const SONNET_PRICES = { input: 3, cacheRead: 0.3, cacheWrite5m: 3.75, cacheWrite1h: 6, output: 15 } as const;

export interface CachedSessionResult {
  readonly log: readonly CacheOutcome[];
  /** What lindwyrm itself counted and priced for the session. */
  readonly usage: Usage;
  readonly cost: number | null;
  readonly statuses: readonly string[];
}

export interface CachedSessionOptions {
  readonly turns?: number;
  /** Extra preset keys, e.g. `prompt_cache = false` or `cache_ttl = "1h"`. */
  readonly presetToml: string;
  /** Simulated time between two requests, in ms (default 20 s; the fake's cache lives by it). */
  readonly gapMs?: number;
  /** Simulated time between two turns (the user reading and typing), in ms (default the gap). */
  readonly turnGapMs?: number;
}

/** The replies of the session: each turn reads files (some turns two at once, some in two steps), then answers. */
function script(turns: number): { replies: ScriptedReply[]; firstOfTurn: Set<number> } {
  const replies: ScriptedReply[] = [];
  const firstOfTurn = new Set<number>();
  for (let t = 0; t < turns; t++) {
    firstOfTurn.add(replies.length);
    const steps = t % 3 === 2 ? 2 : 1;
    for (let s = 0; s < steps; s++) {
      const calls = t % 4 === 1 && s === 0 ? [`src/mod${t}.ts`, `src/mod${(t + 1) % turns}.ts`] : [`src/mod${(t + s) % turns}.ts`];
      replies.push({
        text: s === 0 ? `Turn ${t}: reading ${calls.join(' and ')}.` : 'One more file.',
        toolCalls: calls.map((path) => ({ name: 'read_file', input: { path } })),
        usage: { output: 60 },
      });
    }
    replies.push({ text: `Turn ${t}: ${'the module exports a small parser and its tests pass. '.repeat(3)}`, usage: { output: 120 } });
  }
  return { replies, firstOfTurn };
}

export async function runCachedSession(opts: CachedSessionOptions): Promise<CachedSessionResult> {
  const turns = opts.turns ?? 30;
  const { replies, firstOfTurn } = script(turns);
  let clock = 0;
  const gap = opts.gapMs ?? 20_000;
  const fake = await startFakeProvider({
    format: 'anthropic',
    promptCache: { minTokens: 1024, now: () => clock },
    replies: (_req, index) => {
      clock += firstOfTurn.has(index) ? (opts.turnGapMs ?? gap) : gap;
      const reply = replies[index];
      if (!reply) throw new Error(`no scripted reply #${index + 1}`);
      return reply;
    },
  });
  const prices = `price_input = ${SONNET_PRICES.input}\nprice_cache_read = ${SONNET_PRICES.cacheRead}\nprice_output = ${SONNET_PRICES.output}\n`;
  const sandbox = await makeSandbox({ format: 'anthropic', baseUrl: fake.baseUrl, presetToml: `${opts.presetToml}\n${prices}` });
  try {
    await mkdir(join(sandbox.project, 'src'), { recursive: true });
    for (let t = 0; t < turns; t++) {
      const body = Array.from({ length: 40 }, (_, i) => `export function part${t}_${i}(input: string): string {\n  return input.slice(${i}) + '${t}';\n}`).join('\n');
      await writeFile(join(sandbox.project, 'src', `mod${t}.ts`), `${body}\n`);
    }
    const config = await loadConfig({ cwd: sandbox.project, env: sandbox.env });
    const cli = { oneShot: false, json: false, cwd: config.projectRoot, continueLast: false, save: false, readOnly: false, allow: [], verbose: false } as const;
    const engine = await assembleSession(cli, config, { ...realSessionDeps(), env: sandbox.env, clientOptions: { retryBaseMs: 1, maxRetries: 0 } });
    const statuses: string[] = [];
    try {
      for (let t = 0; t < turns; t++) statuses.push((await engine.submit(`Turn ${t}: look at src/mod${t}.ts and tell me what it does.`)).status);
    } finally {
      await engine.dispose();
    }
    const session = engine.runtime.session;
    return { log: fake.cache?.log ?? [], usage: session.usage, cost: session.cost, statuses };
  } finally {
    await fake.close();
    await sandbox.cleanup();
  }
}

/** Share of all input tokens (fresh + cache writes + cache reads) read from cache. */
export function cacheShare(log: readonly CacheOutcome[]): number {
  const total = log.reduce((n, o) => n + o.totalTokens, 0);
  return total === 0 ? 0 : log.reduce((n, o) => n + o.readTokens, 0) / total;
}

/** The session's bill from what the fake computed, at Sonnet 4.5 list prices; output from lindwyrm's count. */
export function billOf(log: readonly CacheOutcome[], outputTokens: number): number {
  const p = SONNET_PRICES;
  const input = log.reduce((n, o) => n + o.inputTokens * p.input + o.readTokens * p.cacheRead + o.write5mTokens * p.cacheWrite5m + o.write1hTokens * p.cacheWrite1h, 0);
  return (input + outputTokens * p.output) / 1_000_000;
}
