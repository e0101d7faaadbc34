/**
 * Prompt caching on Claude: the scripted 30-turn session with tool calls (test/support/
 * cached-session.ts) against the fake provider's model of Anthropic's caching, with and without
 * lindwyrm's cache breakpoints, at Claude Sonnet 4.5 list prices. Prints the cache share (input
 * tokens read from cache) and the session's cost each way — the README's "Context and cost" table.
 *
 *   node --import tsx scripts/bench-prompt-cache.ts
 */
import { billOf, cacheShare, runCachedSession, type CachedSessionResult } from '../test/support/cached-session.js';
import { reportFigure } from './bench-report.js';

const fmt = (n: number): string => Math.round(n).toLocaleString('en-US');
const pct = (x: number): string => `${(x * 100).toFixed(1)}%`;

function describe(name: string, run: CachedSessionResult): { share: number; cost: number } {
  const sum = (k: 'readTokens' | 'writeTokens' | 'inputTokens' | 'totalTokens') => run.log.reduce((n, o) => n + o[k], 0);
  const share = cacheShare(run.log);
  const cost = billOf(run.log, run.usage.output);
  console.log(`${name}:`);
  console.log(`  requests ${run.log.length}; prompt tokens ${fmt(sum('totalTokens'))}: read ${fmt(sum('readTokens'))}, written ${fmt(sum('writeTokens'))}, fresh ${fmt(sum('inputTokens'))}; output ${fmt(run.usage.output)}`);
  console.log(`  cache share ${pct(share)}; cost $${cost.toFixed(4)} (lindwyrm reported $${(run.cost ?? 0).toFixed(4)})`);
  return { share, cost };
}

const marked = describe('30 turns, cache breakpoints (5-minute TTL)', await runCachedSession({ presetToml: 'prompt_cache = true' }));
const plain = describe('30 turns, no breakpoints (prompt_cache = false)', await runCachedSession({ presetToml: 'prompt_cache = false' }));
const pauses = { turnGapMs: 10 * 60_000 };
const hour = describe('30 turns, 10-minute pauses, cache_ttl = "1h"', await runCachedSession({ presetToml: 'prompt_cache = true\ncache_ttl = "1h"', ...pauses }));
const five = describe('30 turns, 10-minute pauses, 5-minute TTL', await runCachedSession({ presetToml: 'prompt_cache = true', ...pauses }));
console.log(`breakpoints cut the session's cost to ${pct(marked.cost / plain.cost)} of the uncached bill (${(plain.cost / marked.cost).toFixed(1)}x cheaper)`);

reportFigure({ figure: 'prompt cache: share of input read from cache, 30 turns', median: Number((marked.share * 100).toFixed(1)), unit: '%', target: '> 90%', met: marked.share > 0.9 });
reportFigure({ figure: 'prompt cache: 30-turn session cost with breakpoints', median: Number(marked.cost.toFixed(4)), unit: '$' });
reportFigure({ figure: 'prompt cache: 30-turn session cost without breakpoints', median: Number(plain.cost.toFixed(4)), unit: '$' });
reportFigure({ figure: 'prompt cache: 10-minute pauses, 1h TTL vs 5m, cost', median: Number(hour.cost.toFixed(4)), unit: `$ (5m: $${five.cost.toFixed(4)})` });
