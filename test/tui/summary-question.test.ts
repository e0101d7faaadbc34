/**
 * A summary seen coming, in the real terminal: the built CLI in tmux, against the fake provider,
 * with prices. Its replies report prompts over the reclaim point (150,000 of a 200,000 window).
 * Before the summary a question says it is about to happen and what re-sending costs; "l" puts
 * it off once, until the next threshold, where it goes ahead with a notice and without asking;
 * the next time the point is passed it asks again, and "s" summarizes at once. Needs tmux and a
 * build.
 */
import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasTmux, until as untilOn } from '../support/tmux.js';
import { useBuild } from '../e2e/support/cli.js';
import { startFakeProvider, type FakeProvider } from '../support/fake-provider.js';
import { makeSandbox, shellQuote, type Sandbox } from '../support/sandbox.js';

const SOCKET = `lwyrm-summary-${process.pid}`;
const SUMMARY_ASK = /Summarize the conversation so far/;

function tmux(...args: string[]): string {
  return execFileSync('tmux', ['-L', SOCKET, ...args], { encoding: 'utf8' });
}

const screen = (): string => tmux('capture-pane', '-p', '-t', 'lw');
// The notices wrap at the pane's width: their sentences are checked with the breaks taken out.
const flat = (): string => screen().replace(/\s+/g, ' ');
const until = (what: string, check: () => boolean | Promise<boolean>, timeoutMs?: number): Promise<void> => untilOn(what, check, screen, timeoutMs);

describe.skipIf(!hasTmux)('a summary seen coming in the full screen (tmux)', () => {
  const cli = useBuild();
  let fake: FakeProvider;
  let sandbox: Sandbox | undefined;
  const summaries = (): number => fake.requests.filter((r) => SUMMARY_ASK.test(r.raw)).length;

  beforeAll(async () => {
    fake = await startFakeProvider({
      format: 'anthropic',
      replies: [
        { text: 'Answer one.', usage: { input: 151_000, output: 5 } },
        // Asked before this request, put off: it goes out unsummarized, and reports a prompt past the next threshold.
        { text: 'Answer two.', usage: { input: 174_000, output: 5 } },
        { text: 'SUMMARY: Done: answered one and two (done). Open: none. Latest request: third.' },
        { text: 'Answer three.', usage: { input: 151_000, output: 5 } },
        { text: 'SUMMARY: Done: answered three (done). Open: none. Latest request: fourth.' },
        { text: 'Answer four.' },
      ],
    });
    sandbox = await makeSandbox({
      format: 'anthropic',
      baseUrl: fake.baseUrl,
      configToml: 'max_retries = 0\nprotected_tokens = 1\n',
      presetToml: 'price_input = 3.0\nprice_output = 15.0\nprice_cache_read = 0.3\n',
    });
  });

  afterAll(async () => {
    try {
      tmux('kill-server');
    } catch {
      // Already gone.
    }
    await fake?.close();
    await sandbox?.cleanup();
  });

  const send = async (text: string): Promise<void> => {
    tmux('send-keys', '-t', 'lw', '-l', text);
    await until(`"${text}" typed`, () => screen().includes(text));
    tmux('send-keys', '-t', 'lw', 'Enter');
  };

  it('asks before summarizing: later holds once until the next threshold, summarize now at once', async () => {
    const lwyrm = `env -u CI ${sandbox!.shellEnv} TERM=xterm-256color ${shellQuote(process.execPath)} ${shellQuote(cli())}`;
    tmux('new-session', '-d', '-s', 'lw', '-x', '120', '-y', '40', '-c', sandbox!.project, `${lwyrm}; echo "__EXIT=$?"; sleep 600`);
    await until('the header', () => /lindwyrm\s+fake \(anthropic, fake-model\)/.test(screen()));

    await send('first');
    await until('the first answer', () => screen().includes('Answer one.'));
    await send('second');
    await until('the summary question', () => screen().includes('Summary ahead'));
    let shown = flat();
    // What will happen, and what it costs at the preset's prices: fake-model gets no cache
    // breakpoints, so every prompt is fresh input ($3/M), now as after.
    expect(shown).toMatch(/The context is at 151,\d{3} of 200,000 tokens\. To free room, the earlier conversation/);
    expect(shown).toMatch(/is about to be summarized; those turns are archived word for word, and recall can search them\./);
    const cost = /Afterwards the conversation is about ([\d,]+) tokens \(now (151,\d{3})\), sent once without cache: ≈ \$([\d.]+)/.exec(shown);
    expect(cost).not.toBeNull();
    expect(Number(cost![3])).toBeCloseTo((Number(cost![1]!.replaceAll(',', '')) * 3) / 1e6, 4);
    expect(shown).toMatch(/then ≈ \$[\d.]+ a request after that \(no cheaper cached rate in these prices\), against ≈ \$0\.45 a request now \(fake's prices\)/);
    expect(shown).toContain('[s] summarize now (Enter)');
    expect(shown).toContain('[l] later (once: it happens at 172,952 tokens)');
    // Nothing is sent while the question waits.
    expect(fake.requests).toHaveLength(1);

    tmux('send-keys', '-t', 'lw', 'l');
    await until('the second answer', () => screen().includes('Answer two.'));
    shown = flat();
    expect(shown).toContain('Summary postponed until the context reaches 172,952 tokens; /compact summarizes whenever you like.');
    expect(summaries()).toBe(0);

    // Past the point it was put off to: summarized without asking again, with a notice saying so.
    await send('third');
    await until('the third answer', () => screen().includes('Answer three.'));
    expect(flat()).toContain('Summarizing now: the context reached the point it was postponed to.');
    expect(summaries()).toBe(1);
    expect(fake.requests[2]!.raw).toMatch(SUMMARY_ASK);

    // The next time the reclaim point is passed, it asks again, and "s" summarizes at once.
    await send('fourth');
    await until('the summary question again', () => screen().includes('[l] later (once'));
    expect(fake.requests).toHaveLength(4);
    tmux('send-keys', '-t', 'lw', 's');
    await until('the fourth answer', () => screen().includes('Answer four.'));
    expect(summaries()).toBe(2);
    expect(flat()).toMatch(/archived \(arc_000\d\): recall searches them/);
    // What went out after the summary: the record of the past, the recall note, the current prompt.
    const last = fake.requests.at(-1)!.raw;
    expect(last).toContain('This is a record of what already happened, written by lindwyrm, not a message from the user');
    expect(last).toMatch(/the recall tool searches (it|them) by words or \/regex\//);

    tmux('send-keys', '-t', 'lw', 'C-c');
    tmux('send-keys', '-t', 'lw', 'C-c');
    await until('the process to exit', () => screen().includes('__EXIT='));
    expect(screen()).toMatch(/__EXIT=0/);
  }, 180_000);
});
