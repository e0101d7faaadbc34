/** A scrolled-back transcript keeps the same content at the top of the view across a resize. */
import { expect, it } from 'vitest';
import { render } from 'ink-testing-library';
import { App } from '../../components/app.js';
import { EngineProvider } from '../../hooks/engine-context.js';
import { FakeEngine } from './fake-engine.js';
import { KEYS, settle, strip } from './render-app.js';

function mount(engine: FakeEngine, columns: number, rows: number) {
  const tree = (c: number, r: number) => (
    <EngineProvider engine={engine}>
      <App size={{ columns: c, rows: r }} onExit={() => undefined} />
    </EngineProvider>
  );
  const app = render(tree(columns, rows));
  return {
    frame: () => strip(app.lastFrame()),
    resize: async (c: number, r: number) => {
      app.rerender(tree(c, r));
      await settle();
    },
    type: async (...keys: string[]) => {
      for (const key of keys) {
        app.stdin.write(key);
        await settle();
      }
    },
  };
}

/** The first transcript row (below the two header rows). */
const topRow = (frame: string) => frame.split('\n')[2] ?? '';

// 66 characters: one row at 80 columns, two at 40.
const line = (i: number) => `R${String(i).padStart(2, '0')} ${'lorem ipsum '.repeat(5)}end`;

it('a resize keeps the row that was at the top of a scrolled-back view, and End still follows', async () => {
  const engine = new FakeEngine();
  engine.emit({ type: 'turn.start', blockId: 'u1', text: 'first question' });
  engine.emit({ type: 'assistant.delta', blockId: 'a1', text: Array.from({ length: 60 }, (_, i) => line(i)).join('\n') + '\n' });
  engine.emit({ type: 'turn.start', blockId: 'u2', text: 'second question' });
  engine.emit({ type: 'assistant.delta', blockId: 'a2', text: 'a short answer\n' });
  await settle();
  const r = mount(engine, 80, 24);
  await settle();
  await r.type(KEYS.pageUp, KEYS.pageUp);
  const before = topRow(r.frame()).match(/R\d\d/)?.[0];
  expect(before).toBeDefined();

  await r.resize(40, 24);
  expect(topRow(r.frame())).toContain(before);
  expect(r.frame()).toMatch(/more lines? below/);

  // Back to the old width: the same place again, not a drifted one.
  await r.resize(80, 24);
  expect(topRow(r.frame())).toContain(before);

  // Output that arrives meanwhile does not move the view; End follows the tail again.
  engine.emit({ type: 'assistant.delta', blockId: 'a2', text: 'more\nand the last line\n' });
  await settle();
  expect(topRow(r.frame())).toContain(before);
  await r.type(KEYS.ctrlEnd);
  expect(r.frame()).toContain('and the last line');
  expect(r.frame()).not.toMatch(/more lines? below/);
  await r.resize(50, 20);
  expect(r.frame()).toContain('and the last line');
});

it('a view scrolled to the start of a block still starts there after the width changes', async () => {
  const engine = new FakeEngine();
  for (let t = 0; t < 6; t++) {
    engine.emit({ type: 'turn.start', blockId: `u${t}`, text: `question number ${t}` });
    engine.emit({ type: 'assistant.delta', blockId: `a${t}`, text: Array.from({ length: 8 }, (_, i) => `T${t}.${i} ${'wide words '.repeat(5)}`).join('\n') });
  }
  await settle();
  const r = mount(engine, 80, 20);
  await settle();
  await r.type(KEYS.ctrlHome);
  // Down to the row of the third question.
  for (let i = 0; i < 60 && !topRow(r.frame()).includes('question number 2'); i++) await r.type(KEYS.shiftDown);
  expect(topRow(r.frame())).toContain('question number 2');
  await r.resize(44, 20);
  expect(topRow(r.frame())).toContain('question number 2');
  await r.resize(120, 30);
  expect(topRow(r.frame())).toContain('question number 2');
});
