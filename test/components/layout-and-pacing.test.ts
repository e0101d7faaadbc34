import { describe, expect, it } from 'vitest';
import { computeLayout } from '../../components/layout.js';
import { paceEngine } from '../../hooks/paced-engine.js';
import { FakeEngine } from './fake-engine.js';

describe('layout', () => {
  it.each([8, 12, 24, 40, 80])('fills exactly %i rows, whatever is open', (rows) => {
    for (const reasoning of [false, true]) {
      for (const composerRows of [1, 3, 20]) {
        for (const modalRows of [undefined, 10, 200]) {
          const l = computeLayout({ rows, reasoning, composerRows, composerExtras: 2, ...(modalRows !== undefined ? { modalRows } : {}) });
          expect(l.header + l.transcript + l.reasoning + l.status + l.bottom).toBe(rows);
          expect(l.transcript).toBeGreaterThanOrEqual(0);
        }
      }
    }
  });

  it('caps the composer and the modal so the transcript keeps room', () => {
    const l = computeLayout({ rows: 40, reasoning: false, composerRows: 50, composerExtras: 0 });
    expect(l.composerRows).toBeLessThanOrEqual(8);
    const m = computeLayout({ rows: 40, reasoning: true, composerRows: 1, composerExtras: 0, modalRows: 500 });
    expect(m.transcript).toBeGreaterThanOrEqual(3);
  });
});

describe('paced engine', () => {
  it('passes one notification through at once and folds a burst into one more', async () => {
    const engine = new FakeEngine();
    const paced = paceEngine(engine, 30);
    let calls = 0;
    const unsubscribe = paced.subscribe(() => (calls += 1));
    engine.emit({ type: 'notice', blockId: 'n1', level: 'info', text: 'a' });
    expect(calls).toBe(1);
    for (let i = 0; i < 10; i++) engine.emit({ type: 'notice', blockId: `m${i}`, level: 'info', text: 'b' });
    expect(calls).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(calls).toBe(2);
    expect(paced.getSnapshot().blocks).toHaveLength(11);
    unsubscribe();
    engine.emit({ type: 'notice', blockId: 'z', level: 'info', text: 'c' });
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(calls).toBe(2);
  });
});
