/**
 * Compaction seen coming: before an automatic summary the user is told it will happen and what
 * re-sending the conversation will cost, from the preset's prices; the full screen can postpone
 * it once (until the next threshold), one-shot goes ahead and says so. /compact and /model show
 * the same estimate.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { assembleSession } from '../../src/agent/assemble-session.js';
import type { LindwyrmEngine } from '../../src/agent/engine.js';
import type { EngineQuestion } from '../../src/agent/state.js';
import type { CliOptions } from '../../src/cli/options.js';
import { loadConfig } from '../../src/config/load-config.js';
import type { Preset } from '../../src/config/types.js';
import { describeCompaction, describeSwitch, resendRates } from '../../src/context/resend-cost.js';
import { startFakeProvider, type FakeProvider, type ScriptedReply } from '../support/fake-provider.js';
import { cliOptions, makeSandbox, noteTool, toolRunner, type Sandbox } from '../agent/support/harness.js';

const SUMMARY_ASK = /Summarize the conversation so far/;
const PRICES = 'price_input = 3\nprice_cache_read = 0.3\nprice_output = 15\nprompt_cache = true';

const preset = (over: Partial<Preset>): Preset => ({
  name: 'p',
  format: 'anthropic',
  baseUrl: 'https://api.anthropic.com',
  model: 'claude-sonnet-4-5',
  apiKeyEnv: [],
  keyOptional: true,
  thinking: false,
  vision: false,
  contextWindow: 200_000,
  maxTokens: 8_000,
  echoReasoning: 'auto',
  proxy: undefined,
  ...over,
});

describe('the re-send estimate', () => {
  it('prices a cold prompt as a cache write where breakpoints are sent, as fresh input elsewhere', () => {
    const prices = { input: 3, cacheRead: 0.3, output: 15 };
    const claude = resendRates(preset({ prices }))!;
    expect(claude.cold * 1e6).toBeCloseTo(3.75);
    expect(claude.warm * 1e6).toBeCloseTo(0.3);
    expect(resendRates(preset({ prices, cacheTtl: '1h' }))!.cold * 1e6).toBeCloseTo(6);
    const openai = resendRates(preset({ prices, format: 'openai', baseUrl: 'https://api.openai.com/v1', model: 'gpt-5' }))!;
    expect([openai.cold * 1e6, openai.warm * 1e6]).toEqual([3, expect.closeTo(0.3)]);
    // An Anthropic-format endpoint without breakpoints (not DeepSeek) caches nothing: warm is fresh input too.
    const uncached = resendRates(preset({ prices, promptCache: false }))!;
    expect(uncached.warm * 1e6).toBe(3);
    const deepseek = resendRates(preset({ prices, baseUrl: 'https://api.deepseek.com/anthropic', model: 'deepseek-v4-flash' }))!;
    expect([deepseek.cold * 1e6, deepseek.warm * 1e6]).toEqual([3, expect.closeTo(0.3)]);
    expect(resendRates(preset({}))).toBeUndefined();
  });

  it('is computed from the conversation the summary leaves and the preset prices', () => {
    const plan = { usedTokens: 150_000, window: 200_000, prefixTokens: 12_000, olderMessages: 80, olderTurns: 9, olderTokens: 120_000, keptTokens: 18_000 };
    const [what, money] = describeCompaction(plan, preset({ name: 'sonnet', prices: { input: 3, cacheRead: 0.3, output: 15 } }), 2_000);
    expect(what).toBe(
      'The context is at 150,000 of 200,000 tokens. To free room, the earlier conversation (80 messages in 9 turns, about 120,000 tokens) ' +
        'is about to be summarized; those turns are archived word for word, and recall can search them.',
    );
    // After: 12,000 + 2,000 + 18,000 = 32,000 tokens. Cold at $3.75/M = $0.12; warm at $0.30/M = $0.0096;
    // now 150,000 warm = $0.045; the summary request reads 132,000 warm ($0.0396) and writes 2,000 ($0.03).
    expect(money).toBe(
      'Afterwards the conversation is about 32,000 tokens (now 150,000), sent once without cache: ≈ $0.12 (the summary request itself ≈ $0.07), ' +
        "then ≈ $0.0096 a request from cache, against ≈ $0.04 a request now (sonnet's prices).",
    );
    // Where nothing is cheaper from cache, nothing cheaper is promised: 32,000 and 150,000 at $3/M.
    expect(describeCompaction(plan, preset({ name: 'plain', prices: { input: 3, output: 15 }, promptCache: false }), 2_000)[1]).toMatch(
      /sent once without cache: ≈ \$0\.10 .*, then ≈ \$0\.10 a request after that \(no cheaper cached rate in these prices\), against ≈ \$0\.45 a request now/,
    );
    expect(describeCompaction(plan, preset({ name: 'local' }), 2_000)[1]).toBe(
      'Afterwards the conversation is about 32,000 tokens (now 150,000), sent once without cache; preset local has no prices, so no cost is shown.',
    );
  });

  it('prices a model switch at the new preset and compares it with the cache of the old one', () => {
    const from = preset({ name: 'flash', format: 'anthropic', baseUrl: 'https://api.deepseek.com/anthropic', model: 'deepseek-v4-flash', prices: { input: 0.14, cacheRead: 0.028, output: 0.28 } });
    const to = preset({ name: 'sonnet', prices: { input: 3, cacheRead: 0.3, output: 15 } });
    expect(describeSwitch(100_000, from, to)).toBe(
      'The next request re-sends the conversation (about 100,000 tokens) to sonnet without cache: ≈ $0.38 at sonnet\'s prices, against ≈ $0.0028 from cache on flash.',
    );
    expect(describeSwitch(100_000, from, preset({ name: 'local' }))).toMatch(/preset local has no prices/);
  });
});

let fake: FakeProvider | undefined;
let sandbox: Sandbox | undefined;
let engine: LindwyrmEngine | undefined;
afterEach(async () => {
  await engine?.dispose();
  await fake?.close();
  await sandbox?.cleanup();
  engine = fake = sandbox = undefined;
});

/** A 16,000-token window (reclaims at 12,000) with 1,000 tokens of reply room: a postponed summary waits until 13,500. */
async function open(replies: ScriptedReply[], cli: Partial<CliOptions>): Promise<LindwyrmEngine> {
  fake = await startFakeProvider({ format: 'anthropic', replies });
  sandbox = await makeSandbox('anthropic', fake.baseUrl, 'protected_tokens = 1', PRICES);
  const config = await loadConfig({ cwd: sandbox.project, env: sandbox.env });
  const sized = { ...config, presets: config.presets.map((p) => (p.name === 'fake' ? { ...p, contextWindow: 16_000, maxTokens: 1_000 } : p)) };
  engine = await assembleSession(cliOptions(config.projectRoot, cli), sized, {
    createTools: () => toolRunner([noteTool]),
    describe: (name) => name,
    env: sandbox.env,
    clientOptions: { retryBaseMs: 1, maxRetries: 0 },
  });
  return engine;
}

const notices = (e: LindwyrmEngine) => e.store.current().blocks.flatMap((b) => (b.kind === 'notice' ? [b.text] : []));
const summaryRequests = () => fake!.requests.filter((r) => SUMMARY_ASK.test(r.raw)).length;

describe('before an automatic summary', () => {
  it('without the full screen, says it will happen and what it costs, then goes ahead', async () => {
    const e = await open([{ text: 'one', usage: { input: 13_000, output: 5 } }, { text: 'SUMMARY: one turn.' }, { text: 'two' }], { oneShot: true });
    await e.submit('first');
    await e.submit('second');
    expect(summaryRequests()).toBe(1);
    const ahead = notices(e).find((t) => t.includes('is about to be summarized'))!;
    expect(ahead).toMatch(/Summarizing now \(nothing is asked outside the full screen\)\.$/);
    // The estimate is the conversation's size after the summary at the preset's cold price ($3.75/M with breakpoints).
    const m = /Afterwards the conversation is about ([\d,]+) tokens \(now ([\d,]+)\), sent once without cache: ≈ \$([\d.]+)/.exec(ahead)!;
    expect(m).not.toBeNull();
    const after = Number(m[1]!.replaceAll(',', ''));
    expect(Number(m[2]!.replaceAll(',', ''))).toBeGreaterThanOrEqual(12_000);
    expect(after).toBeLessThan(Number(m[2]!.replaceAll(',', '')));
    expect(Number(m[3])).toBeCloseTo((after * 3.75) / 1e6, 4);
    expect(e.store.current().pendingQuestion ?? null).toBeNull();
  });

  it('in the full screen asks first; "later" holds once, until the next threshold, where it summarizes without asking again', async () => {
    const e = await open(
      [
        { text: 'one', usage: { input: 13_000, output: 5 } },
        { text: 'two', usage: { input: 13_100, output: 5 } },
        { text: 'three', usage: { input: 13_600, output: 5 } },
        { text: 'SUMMARY: three turns.' },
        { text: 'four' },
      ],
      { oneShot: false },
    );
    const asked: EngineQuestion[] = [];
    e.store.onEvent((ev) => {
      if (ev.type !== 'question.request') return;
      asked.push(ev.question);
      e.answerQuestion!(ev.question.id, 'later');
    });
    await e.submit('first');
    await e.submit('second');
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatchObject({ kind: 'compaction', choices: [{ key: 's', value: 'now' }, { key: 'l', value: 'later' }] });
    expect(asked[0]!.choices[1]!.label).toBe('later (once: it happens at 13,500 tokens)');
    expect(asked[0]!.lines.join(' ')).toMatch(/is about to be summarized.*≈ \$/);
    expect(summaryRequests()).toBe(0);
    expect(notices(e).some((t) => t.startsWith('Summary postponed until the context reaches 13,500 tokens'))).toBe(true);
    // Still under the next threshold: nothing asked, nothing summarized.
    await e.submit('third');
    expect(asked).toHaveLength(1);
    expect(summaryRequests()).toBe(0);
    // Past it: the summary goes ahead, with a notice and without a second question.
    expect(await e.submit('fourth')).toMatchObject({ status: 'finished', result: 'four' });
    expect(asked).toHaveLength(1);
    expect(summaryRequests()).toBe(1);
    expect(notices(e).filter((t) => t.includes('is about to be summarized')).at(-1)).toMatch(/Summarizing now: the context reached the point it was postponed to\.$/);
  });

  it('in the full screen, "summarize now" summarizes at once; /compact shows the same estimate', async () => {
    const e = await open(
      [
        { text: 'one', usage: { input: 13_000, output: 5 } },
        { text: 'SUMMARY: first turn.' },
        { text: 'two' },
        { text: 'three' },
        { text: 'SUMMARY: two turns.' },
      ],
      { oneShot: false },
    );
    e.store.onEvent((ev) => (ev.type === 'question.request' ? e.answerQuestion!(ev.question.id, 'now') : undefined));
    await e.submit('first');
    await e.submit('second');
    expect(summaryRequests()).toBe(1);
    await e.submit('third');
    const out = (await e.runSlash('/compact')).output!;
    expect(out).toMatch(/Summarized \d+ earlier messages/);
    expect(out).toMatch(/Afterwards the conversation is about [\d,]+ tokens \(now [\d,]+\), sent once without cache: ≈ \$[\d.]+, then ≈ \$[\d.]+ a request from cache/);
  });

  it('/model mid-session asks with the cold-cache re-charge first, and keeping the preset changes nothing', async () => {
    const e = await open([{ text: 'one' }], { oneShot: false });
    sandbox!.env['DEEPSEEK_API_KEY'] = 'sk-test';
    await e.submit('first');
    let asked: EngineQuestion | undefined;
    let answer = 'keep';
    e.store.onEvent((ev) => {
      if (ev.type !== 'question.request') return;
      asked = ev.question;
      e.answerQuestion!(ev.question.id, answer);
    });
    const kept = await e.runSlash('/model flash');
    expect(asked).toMatchObject({ kind: 'model-switch', title: 'Switch to flash?' });
    expect(asked!.lines[0]).toMatch(/^The next request re-sends the conversation \(about [\d,]+ tokens\) to flash without cache; preset flash has no prices/);
    expect(kept.output).toMatch(/^Kept fake\./);
    expect(e.runtime.preset.name).toBe('fake');
    answer = 'switch';
    const switched = await e.runSlash('/model flash');
    expect(switched.output).toMatch(/^Switched to flash .*re-sends the conversation/);
    expect(e.runtime.preset.name).toBe('flash');
  });
});
