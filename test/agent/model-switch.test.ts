/**
 * /model to a preset with another context window: the context manager works with the new window
 * (meter, reclaim point), not the first preset's.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { LindwyrmEngine } from '../../src/agent/engine.js';
import { startFakeProvider, type FakeProvider } from '../support/fake-provider.js';
import { makeSandbox, noteTool, startEngine, type Sandbox } from './support/harness.js';

let fake: FakeProvider | undefined;
let sandbox: Sandbox | undefined;
let engine: LindwyrmEngine | undefined;
afterEach(async () => {
  await engine?.dispose();
  await fake?.close();
  await sandbox?.cleanup();
  engine = fake = sandbox = undefined;
});

describe('/model', () => {
  it('rebuilds the context settings for the new preset: its window and reclaim point', async () => {
    fake = await startFakeProvider({
      format: 'anthropic',
      replies: [
        { text: 'big window', usage: { input: 13_000, output: 5 } },
        { text: 'still big', usage: { input: 13_000, output: 5 } },
        { text: 'small window', usage: { input: 13_000, output: 5 } },
        { text: 'SUMMARY: two short turns.' },
        { text: 'after the summary' },
      ],
    });
    // The first preset has 200,000 tokens; "tiny" reclaims at 12,000 of 16,000.
    sandbox = await makeSandbox(
      'anthropic',
      fake.baseUrl,
      'protected_tokens = 1',
      `
[[presets]]
name = "tiny"
format = "anthropic"
base_url = "${fake.baseUrl}"
model = "tiny-model"
api_key_env = ["FAKE_API_KEY"]
thinking = false
context_window = 16000
max_tokens = 1024
`,
    );
    engine = await startEngine(sandbox, [noteTool]);
    await engine.submit('first');
    // 13,000 of 200,000: nothing to reclaim.
    await engine.submit('second');
    expect(fake.requests).toHaveLength(2);
    expect(engine.store.current().context.window).toBe(200_000);

    expect((await engine.runSlash('/model tiny')).output).toMatch(/Switched to tiny/);
    expect(engine.store.current().context).toMatchObject({ window: 16_000, threshold: 12_000 });
    const panel = (await engine.runSlash('/context')).output;
    expect(panel).toMatch(/window 16,000 · reclaims at 12,000/);
    // The session's totals carry over the switch.
    expect(panel).toMatch(/output so far: 10 tokens/);

    // 13,000 measured is over the new reclaim point: the next turn summarizes first.
    await engine.submit('third');
    expect(fake.requests).toHaveLength(3);
    await engine.submit('fourth');
    expect(fake.requests).toHaveLength(5);
    expect(fake.requests[3]!.raw).toMatch(/Summarize the conversation so far/);
    expect((fake.requests[4]!.body as { model: string }).model).toBe('tiny-model');
  });
});
