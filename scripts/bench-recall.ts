/**
 * Recall benchmark: how long the recall tool takes over a large archive (500 summarized turns of
 * about 10 KB each, 5 MB, read from disk on every call as the tool does), for words and for a
 * regex; how long archiving those turns takes (what a summary adds before it is made); and what
 * the tool and the summary's framing cost in the prompt (estimated tokens).
 *
 *   node --import tsx scripts/bench-recall.ts
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { applyToolProfile } from '../src/agent/tool-profile.js';
import { DEFAULT_POLICY } from '../src/config/defaults.js';
import type { Config } from '../src/config/types.js';
import { estimateText, estimateTools } from '../src/context/estimate-tokens.js';
import { summaryFooter, summaryHeader } from '../src/context/summary-message.js';
import { createOffloadStore } from '../src/context/offload-store.js';
import { recallTool } from '../src/tools/recall.js';
import { createToolRegistry } from '../src/tools/registry.js';
import type { ToolContext } from '../src/tools/types.js';
import { median, reportFigure } from './bench-report.js';

const TURNS = 500;

function turnText(n: number): string {
  const lines = [`[Archived turn, summarized away at 2026-12-01T10:00:00Z. The conversation's own words follow.]`, '', `USER:`, `fix the failing test in module_${n}`];
  for (let i = 0; i < 120; i++) lines.push(`TOOL RESULT bash:\n  at handler_${n}_${i} (src/mod${n}/file${i}.ts:${i * 7}:13) value=${(n * 7919 + i * 104729) % 1_000_003}`);
  if (n === 137) lines.push('Error: connect ECONNREFUSED 127.0.0.1:5432 while seeding the staging database');
  return lines.join('\n');
}

const config = {
  projectRoot: '/',
  trusted: false,
  defaultPreset: 'flash',
  presets: [],
  policy: DEFAULT_POLICY,
  proxy: undefined,
  noProxy: [],
  sessionRetentionDays: 30,
  plugins: [],
  maxToolSteps: 50,
  maxRetries: 0,
  maxFileSizeBytes: 1_000_000,
  maxToolOutputChars: 30_000,
  bashTimeoutMs: 1_000,
  streamIdleTimeoutMs: 1_000,
  maxReplyBytes: 1 << 20,
  loopDetectionWindow: 6,
  markdown: true,
  codeMap: { enabled: false },
  secretEnvNames: [],
  warnings: [],
} as unknown as Config; // only the fields the tool reads matter here

const dir = await mkdtemp(join(tmpdir(), 'lw-bench-recall-'));
try {
  const store = createOffloadStore({ dir, sessionId: 'bench' });
  const texts = Array.from({ length: TURNS }, (_, i) => turnText(i + 1));
  const bytes = texts.reduce((s, t) => s + Buffer.byteLength(t), 0);
  const writes: number[] = [];
  for (let i = 0; i < 5; i++) {
    // A fresh session each time: archive() numbers on, and the search below reads one set.
    const scratch = createOffloadStore({ dir, sessionId: `write-${i}` });
    const t0 = performance.now();
    await scratch.archive(texts.slice(0, 50));
    writes.push(performance.now() - t0);
  }
  console.log(`archiving 50 turns (${(bytes / 10 / 1024 / 1024).toFixed(2)} MB) before a summary: ${median(writes).toFixed(1)} ms`);
  reportFigure({ figure: `archiving 50 turns (${(bytes / 10 / 1024 / 1024).toFixed(2)} MB) before a summary`, median: Number(median(writes).toFixed(1)), unit: 'ms' });
  await store.archive(texts);
  const ctx = { config, offload: store } as unknown as ToolContext; // recall reads config and offload only
  for (const [label, query] of [
    ['words, 2 terms', 'econnrefused staging'],
    ['regex', '/ECONN\\w+ 127\\.0\\.0\\.1:\\d+/'],
  ] as const) {
    const times: number[] = [];
    let summary = '';
    for (let i = 0; i < 7; i++) {
      const t0 = performance.now();
      const r = await recallTool.run({ query }, ctx);
      times.push(performance.now() - t0);
      summary = r.summary;
    }
    console.log(`recall over ${TURNS} archived turns (${(bytes / 1024 / 1024).toFixed(1)} MB), ${label}: ${median(times).toFixed(1)} ms (${summary})`);
    reportFigure({ figure: `recall over ${TURNS} archived turns (${(bytes / 1024 / 1024).toFixed(1)} MB), ${label}`, median: Number(median(times).toFixed(1)), unit: 'ms' });
  }
  const registry = createToolRegistry({ config, vision: false, readOnly: false });
  const full = registry.schemas();
  const small = applyToolProfile(registry, 'small').schemas();
  const only = (list: typeof full) => estimateTools(list.filter((s) => s.name === 'recall'));
  console.log(`recall's schema in every request: ~${only(full)} tokens of ${estimateTools(full)} (full profile), ~${only(small)} of ${estimateTools(small)} (small)`);
  reportFigure({ figure: "recall's schema per request, full / small profile (estimated tokens)", median: only(full), unit: 'tokens' });
  const marker = 'lw-0123456789abcdef';
  const framing = estimateText(summaryHeader(marker)) + estimateText(summaryFooter(marker, ['arc_0001', 'arc_0002', 'arc_0003']));
  console.log(`the summary's framing (header, and the footer with its recall note): ~${framing} tokens`);
  reportFigure({ figure: "the summary's framing: header and footer with the recall note (estimated tokens)", median: framing, unit: 'tokens' });
} finally {
  await rm(dir, { recursive: true, force: true });
}
