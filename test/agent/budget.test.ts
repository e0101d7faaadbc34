/**
 * Budgets pause the turn between two requests. Without the full screen the turn stops as
 * incomplete and names the budget; in it, a question offers to go on (the budget raised once) or
 * stop. Tokens count what each request was billed at full rate, never the cache reads.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { LindwyrmEngine } from '../../src/agent/engine.js';
import type { EngineQuestion } from '../../src/agent/state.js';
import { billedTokens, createBudgetTracker } from '../../src/agent/budget.js';
import { startFakeProvider, type FakeProvider, type ScriptedReply } from '../support/fake-provider.js';
import { assertValidHistory, makeSandbox, noteTool, readRequest, startEngine, type Sandbox } from './support/harness.js';

let fake: FakeProvider | undefined;
let sandbox: Sandbox | undefined;
let engine: LindwyrmEngine | undefined;
afterEach(async () => {
  await engine?.dispose();
  await fake?.close();
  await sandbox?.cleanup();
  engine = fake = sandbox = undefined;
});

async function open(replies: ScriptedReply[], toml: string, opts: { oneShot: boolean; prices?: boolean }): Promise<LindwyrmEngine> {
  fake = await startFakeProvider({ format: 'openai', replies });
  sandbox = await makeSandbox('openai', fake.baseUrl, toml, opts.prices === false ? '' : 'price_input = 2\nprice_cache_read = 0.5\nprice_output = 10');
  engine = await startEngine(sandbox, [noteTool], { oneShot: opts.oneShot });
  return engine;
}

const step = (n: number, usage: ScriptedReply['usage']): ScriptedReply => ({ toolCalls: [{ name: 'note', input: { text: `step ${n}` } }], usage });
const notices = (e: LindwyrmEngine) => e.store.current().blocks.flatMap((b) => (b.kind === 'notice' ? [b.text] : []));

describe('the budget tracker', () => {
  it('counts fresh input, cache writes and output, never cache reads', () => {
    expect(billedTokens({ input: 100, cacheRead: 90_000, cacheWrite: 50, output: 20 })).toBe(170);
    const b = createBudgetTracker({ tokensPerTurn: 1_000 });
    b.record({ input: 10, cacheRead: 500_000, cacheWrite: 0, output: 5 }, null);
    expect(b.check(null)).toBeUndefined();
    // A server that reported nothing counts the estimate of what was sent.
    b.record({ input: 0, cacheRead: 0, cacheWrite: 0, output: 0, unreported: 1 }, null, 2_000);
    expect(b.check(null)).toMatchObject({ name: 'max_tokens_per_turn', spent: 2_015, limit: 1_000, raisedTo: 2_000 });
    b.startTurn();
    expect(b.check(null)).toBeUndefined();
    expect(createBudgetTracker({}).active).toBe(false);
  });
});

describe('budgets in a session', () => {
  it('one-shot stops the turn as incomplete at max_tokens_per_turn, naming it, with a valid history that "continue" picks up', async () => {
    const e = await open(
      [step(1, { input: 300, output: 50 }), step(2, { input: 400, cacheRead: 5_000, output: 300 }), { text: 'done', usage: { input: 10, output: 5 } }],
      'max_tokens_per_turn = 1000',
      { oneShot: true, prices: false },
    );
    const outcome = await e.submit('work');
    // 350 after the first request, 1,050 after the second: the third is not sent.
    expect(fake!.requests).toHaveLength(2);
    expect(outcome.status).toBe('incomplete');
    expect(outcome.detail).toBe(
      'Stopped at a budget: This turn was billed 1,050 tokens (fresh input, cache writes and output; cache reads are not counted), ' +
        'reaching max_tokens_per_turn (1,000). Send "continue" to pick up where it stopped.',
    );
    expect(e.store.current().pendingQuestion ?? null).toBeNull();
    // A new turn has a budget of its own, and the history it sends is valid.
    expect(await e.submit('continue')).toMatchObject({ status: 'finished', result: 'done' });
    assertValidHistory(readRequest('openai', fake!.requests[2]!));
  });

  it('one-shot stops at max_cost_per_turn from the preset prices, and the next turn starts with a budget of its own', async () => {
    const e = await open(
      [step(1, { input: 100_000, output: 1_000 }), step(2, { input: 100_000, output: 1_000 }), { text: 'cheap', usage: { input: 10, output: 5 } }],
      'max_cost_per_turn = 0.30',
      { oneShot: true },
    );
    // $0.21 after the first request, $0.42 after the second.
    const outcome = await e.submit('work');
    expect(outcome).toMatchObject({ status: 'incomplete', steps: 2 });
    expect(outcome.detail).toMatch(/^Stopped at a budget: This turn has spent \$0\.42, reaching max_cost_per_turn \(\$0\.30\)\./);
    expect(e.store.current().budget?.turnCost).toEqual({ spent: expect.closeTo(0.42, 6), limit: 0.3 });
    expect(await e.submit('next')).toMatchObject({ status: 'finished', result: 'cheap' });
  });

  it('max_cost_per_session counts the whole session, across turns', async () => {
    const e = await open(
      [{ text: 'a', usage: { input: 100_000, output: 0 } }, step(1, { input: 10, output: 5 }), { text: 'never sent' }],
      'max_cost_per_session = 0.15',
      { oneShot: true },
    );
    // Shown from the start, before anything is spent.
    expect(e.store.current().budget).toEqual({ sessionCost: { spent: 0, limit: 0.15 } });
    expect(await e.submit('one')).toMatchObject({ status: 'finished' });
    const second = await e.submit('two');
    expect(second.status).toBe('incomplete');
    expect(second.detail).toMatch(/This session has spent \$0\.20, reaching max_cost_per_session \(\$0\.15\)\. Raise max_cost_per_session to go on/);
    expect(fake!.requests).toHaveLength(1);
  });

  it('in the full screen asks: continue raises the budget once, stop ends the turn', async () => {
    const e = await open(
      [step(1, { input: 600, output: 0 }), step(2, { input: 600, output: 0 }), step(3, { input: 900, output: 0 }), { text: 'never' }],
      'max_tokens_per_turn = 1000',
      { oneShot: false, prices: false },
    );
    const asked: EngineQuestion[] = [];
    const answers = ['continue', 'stop'];
    e.store.onEvent((ev) => {
      if (ev.type !== 'question.request') return;
      asked.push(ev.question);
      e.answerQuestion!(ev.question.id, answers.shift()!);
    });
    const outcome = await e.submit('work');
    expect(asked.map((q) => q.kind)).toEqual(['budget', 'budget']);
    expect(asked[0]!.lines[0]).toMatch(/billed 1,200 tokens .* reaching max_tokens_per_turn \(1,000\)/);
    expect(asked[0]!.choices).toEqual([
      { key: 'c', label: 'continue (up to 2,000 tokens for this turn)', value: 'continue' },
      { key: 's', label: 'stop the turn', value: 'stop' },
    ]);
    // Raised to 2,000, reached again at 2,100.
    expect(asked[1]!.lines[0]).toMatch(/billed 2,100 tokens .* reaching max_tokens_per_turn \(2,000\)/);
    expect(fake!.requests).toHaveLength(3);
    expect(outcome).toMatchObject({ status: 'incomplete' });
    expect(notices(e)).toContain('Going on: max_tokens_per_turn raised up to 2,000 tokens for this turn.');
    expect(e.store.current().pendingQuestion).toBeNull();
  });

  it('Ctrl+C while the question is open stops the turn as interrupted, not as a budget stop', async () => {
    const e = await open([step(1, { input: 2_000, output: 0 }), { text: 'never' }], 'max_tokens_per_turn = 1000', { oneShot: false, prices: false });
    e.store.onEvent((ev) => (ev.type === 'question.request' ? e.interrupt() : undefined));
    expect(await e.submit('work')).toMatchObject({ status: 'interrupted' });
  });

  it('warns at the start when dollar budgets are set but the preset has no prices', async () => {
    const e = await open([{ text: 'ok' }], 'max_cost_per_turn = 1', { oneShot: true, prices: false });
    expect(notices(e).some((t) => /^max_cost_per_turn is set, but preset fake has no prices, so dollar budgets cannot be checked/.test(t))).toBe(true);
    expect(await e.submit('hi')).toMatchObject({ status: 'finished' });
  });
});
