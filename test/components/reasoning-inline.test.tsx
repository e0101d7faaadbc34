/** Below 14 rows there is no reasoning pane: the live thinking row shows the latest thought, in one row. */
import { expect, it } from 'vitest';
import { renderApp, settle } from './render-app.js';

const rowsOf = (frame: string) => frame.split('\n');

it('on a short screen the thinking row carries the latest thought without taking a row from anything', async () => {
  const r = renderApp({ columns: 60, rows: 11 });
  r.engine.emit({ type: 'turn.start', blockId: 'u1', text: 'think' });
  await settle();
  const before = rowsOf(r.frame());
  r.engine.emit({ type: 'reasoning.delta', blockId: 'r1', text: 'first idea\nsecond idea, which is a long line that goes on past the width of this screen and ends here' });
  await settle();
  const during = rowsOf(r.frame());
  // The same number of rows, the input and its separator where they were.
  expect(during.length).toBe(before.length);
  expect(during.at(-1)).toBe(before.at(-1));
  expect(during.at(-2)).toBe(before.at(-2));
  const thinking = during.filter((row) => row.includes('thinking…'));
  expect(thinking).toHaveLength(1);
  // The end of the line being written, on that one row; the pane's frame is nowhere.
  expect(thinking[0]).toContain('ends here');
  expect(thinking[0]!.length).toBeLessThanOrEqual(60);
  expect(r.frame()).not.toContain('┌ thinking');

  r.engine.emit({ type: 'reasoning.delta', blockId: 'r1', text: '\nthird idea\n' });
  await settle();
  expect(rowsOf(r.frame()).find((row) => row.includes('thinking…'))).toContain('third idea');

  // Once the answer starts the row is the usual summary again.
  r.engine.emit({ type: 'block.end', blockId: 'r1' }, { type: 'assistant.delta', blockId: 'a1', text: 'the answer' });
  await settle();
  expect(r.frame()).not.toContain('third idea');
  expect(r.frame()).toMatch(/thought for 3 lines/);
});

it('a tall screen keeps the pane and the plain thinking row', async () => {
  const r = renderApp({ columns: 60, rows: 24 });
  r.engine.emit({ type: 'turn.start', blockId: 'u1', text: 'think' }, { type: 'reasoning.delta', blockId: 'r1', text: 'only idea' });
  await settle();
  expect(r.frame()).toContain('┌ thinking');
  expect(rowsOf(r.frame()).some((row) => row.trim() === '▸ thinking…')).toBe(true);
});
