/** An engine question in the full screen: shown in place of the input, answered by its keys. */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { BudgetGauge, EngineQuestion } from '../../src/agent/state.js';
import { KEYS, renderApp, settle } from './render-app.js';

const question: EngineQuestion = {
  id: 'q1',
  kind: 'compaction',
  title: 'Summary ahead',
  lines: ['The context is at 97,000 of 128,000 tokens. The earlier conversation is about to be summarized.', 'Afterwards ≈ $0.15 once.'],
  choices: [
    { key: 's', label: 'summarize now', value: 'now' },
    { key: 'l', label: 'later (once: it happens at 112,000 tokens)', value: 'later' },
  ],
  fallback: 'now',
  cancel: 'later',
};

const budgetStatus: BudgetGauge = {
  turnCost: { spent: 0.12, limit: 0.5 },
  sessionCost: { spent: 1.2, limit: 5 },
  turnTokens: { spent: 12_000, limit: 100_000 },
};

describe('the question modal', () => {
  let clock = 2_000_000;
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(clock);
  });
  afterEach(() => vi.useRealTimers());
  const wait = (): void => {
    clock += 1_000;
    vi.setSystemTime(clock);
  };

  it('shows the title, the explanation and the answers in place of the input', async () => {
    const r = renderApp({ columns: 80, rows: 24 });
    r.engine.emit({ type: 'question.request', question });
    await settle();
    const frame = r.frame();
    expect(frame).toContain('Summary ahead');
    expect(frame).toContain('The earlier conversation is about');
    expect(frame).toContain('[s] summarize now (Enter)');
    expect(frame).toContain('[l] later (once: it happens at 112,000 tokens)');
    expect(frame).not.toContain('ask, or /help');
  });

  it('takes its own keys, Enter for the first answer and Esc for its cancel; other keys do nothing', async () => {
    const r = renderApp({ columns: 80, rows: 24 });
    r.engine.emit({ type: 'question.request', question });
    await settle();
    wait();
    await r.type('x');
    expect(r.engine.questionAnswers).toEqual([]);
    await r.type('l');
    expect(r.engine.questionAnswers).toEqual([{ id: 'q1', value: 'later' }]);
    await settle();
    expect(r.frame()).not.toContain('Summary ahead');

    r.engine.emit({ type: 'question.request', question: { ...question, id: 'q2' } });
    await settle();
    wait();
    await r.type(KEYS.enter);
    r.engine.emit({ type: 'question.request', question: { ...question, id: 'q3' } });
    await settle();
    wait();
    await r.type(KEYS.escape);
    expect(r.engine.questionAnswers.slice(1)).toEqual([
      { id: 'q2', value: 'now' },
      { id: 'q3', value: 'later' },
    ]);
  });

  it('Ctrl+C answers with the cancel and stops the turn', async () => {
    const r = renderApp({ columns: 80, rows: 24 });
    r.engine.emit({ type: 'turn.start', blockId: 'u1', text: 'work' }, { type: 'question.request', question: { ...question, kind: 'budget', cancel: 'stop' } });
    await settle();
    wait();
    await r.type(KEYS.ctrlC);
    expect(r.engine.questionAnswers).toEqual([{ id: 'q1', value: 'stop' }]);
    expect(r.engine.interrupts).toBe(1);
  });

  it('the status line shows spend against the budgets', async () => {
    const r = renderApp({ columns: 140, rows: 24 });
    r.engine.emit({ type: 'budget', gauge: budgetStatus });
    await settle();
    expect(r.frame()).toMatch(/0% of 128k · compaction at 75% \(0 tokens, estimated\)\s*· turn \$0\.12\/\$0\.50, 12k\/100k tok · session \$1\.20\/\$5\.00/);
  });

  it('keeps the budgets whole on a narrow screen while a turn runs: the meter is cut first', async () => {
    const r = renderApp({ columns: 80, rows: 24 });
    r.engine.emit({ type: 'turn.start', blockId: 'u1', text: 'work' }, { type: 'budget', gauge: { turnCost: { spent: 0.46, limit: 0.5 } } });
    await settle();
    const status = r.frame().split('\n').find((l) => l.includes('working'))!;
    expect(status).toMatch(/^·+ 0% of 128k · compac.*… · turn \$0\.46\/\$0\.50 · working 0s \(Ctrl\+C stops\)$/);
    expect(status.length).toBeLessThanOrEqual(80);
  });
});
