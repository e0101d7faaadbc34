/**
 * The built CLI in one-shot mode: a budget reached stops the turn as incomplete (exit 3) and
 * stderr names the budget; --json carries it as the error. An automatic summary goes ahead and
 * stderr says so first, with what re-sending the conversation will cost.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startFakeProvider, type FakeProvider, type ScriptedReply } from '../support/fake-provider.js';
import { makeSandbox, type Sandbox } from '../support/sandbox.js';
import { start, useBuild } from './support/cli.js';

vi.setConfig({ testTimeout: 60_000 });
const cli = useBuild();

let fake: FakeProvider | undefined;
let sandbox: Sandbox | undefined;
afterEach(async () => {
  await fake?.close();
  await sandbox?.cleanup();
  fake = sandbox = undefined;
});

// A second preset with a small window (reclaims at 12,000) and prices, beside the sandbox's own.
const SMALL = `price_input = 2
price_cache_read = 0.5
price_output = 10

[[presets]]
name = "small"
format = "openai"
base_url = "BASE"
model = "fake-model"
api_key_env = ["FAKE_API_KEY"]
thinking = false
context_window = 16000
max_tokens = 1000
price_input = 2
price_cache_read = 0.5
price_output = 10
`;

async function setup(replies: ScriptedReply[], configToml: string): Promise<Sandbox> {
  fake = await startFakeProvider({ format: 'openai', replies });
  sandbox = await makeSandbox({ format: 'openai', baseUrl: fake.baseUrl, configToml: `max_retries = 0\n${configToml}`, presetToml: SMALL.replace('BASE', fake.baseUrl) });
  return sandbox;
}

const listStep = (usage: ScriptedReply['usage']): ScriptedReply => ({ toolCalls: [{ name: 'list_dir', input: {} }], usage });

describe('lwyrm -p with budgets', () => {
  it('stops at max_tokens_per_turn with exit 3, naming the budget on stderr and in --json', async () => {
    const env = await setup([listStep({ input: 3_000, output: 100 }), listStep({ input: 3_000, output: 100 }), { text: 'never' }], 'max_tokens_per_turn = 5000\n');
    const r = await start(cli(), env, ['-p', 'look around', '--json']).done;
    expect(r.status).toBe(3);
    expect(fake!.requests).toHaveLength(2);
    expect(r.stderr).toMatch(/lwyrm: incomplete: Stopped at a budget: This turn was billed 6,200 tokens \(fresh input, cache writes and output; cache reads are not counted\), reaching max_tokens_per_turn \(5,000\)\. To pick up where it stopped: lwyrm -c -p continue/);
    const json = JSON.parse(r.stdout) as Record<string, unknown>;
    expect(json).toMatchObject({ status: 'incomplete', steps: 2 });
    expect(json['error']).toMatch(/reaching max_tokens_per_turn \(5,000\)/);
  });

  it('stops at max_cost_per_turn, priced by the preset in use', async () => {
    const env = await setup([listStep({ input: 100_000, output: 0 }), { text: 'never' }], 'max_cost_per_turn = 0.1\n');
    const r = await start(cli(), env, ['-p', 'look around']).done;
    expect(r.status).toBe(3);
    expect(r.stderr).toMatch(/This turn has spent \$0\.20, reaching max_cost_per_turn \(\$0\.10\)/);
  });

  it('says on stderr that it is summarizing, and what re-sending will cost, then goes ahead', async () => {
    const env = await setup(
      // A first answer of ~15,000 tokens: the resumed run's estimate is over the reclaim point.
      [{ text: 'word '.repeat(12_000) }, { text: 'SUMMARY: one turn.' }, { text: 'second answer' }],
      'protected_tokens = 1\n',
    );
    expect((await start(cli(), env, ['-m', 'small', '-p', 'first']).done).status).toBe(0);
    const r = await start(cli(), env, ['-m', 'small', '-c', '-p', 'second']).done;
    expect(r.status).toBe(0);
    expect(r.stdout).toBe('second answer\n');
    expect(r.stderr).toMatch(/lwyrm: The context is at [\d,]+ of 16,000 tokens\. To free room, the earlier conversation .* is about to be summarized/);
    expect(r.stderr).toMatch(/sent once without cache: ≈ \$[\d.]+ .*\(small's prices\)\. Summarizing now \(nothing is asked outside the full screen\)\./);
    expect(r.stderr).toMatch(/lwyrm: Summarized 2 earlier messages .* archived \(arc_0001\): recall searches them\./);
  });
});
