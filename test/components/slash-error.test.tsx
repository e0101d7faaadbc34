/** A failing slash command's one-line result shows in the error style, a working one's as news. */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { FakeEngine } from './fake-engine.js';

type RenderApp = typeof import('./render-app.js');
let h: RenderApp;
const savedForceColor = process.env['FORCE_COLOR'];

beforeAll(async () => {
  // Colours are what this test is about: force them on whatever runs it.
  process.env['FORCE_COLOR'] = '1';
  h = await import('./render-app.js');
});
afterAll(() => {
  if (savedForceColor === undefined) delete process.env['FORCE_COLOR'];
  else process.env['FORCE_COLOR'] = savedForceColor;
});

/** The raw frame line holding `text`, colour codes kept. */
function rawLine(frame: string | undefined, text: string): string {
  return (frame ?? '').split('\n').find((l) => h.strip(l).includes(text)) ?? '';
}

const RED = '\x1b[31m';
const CYAN = '\x1b[36m';

it('a slash command marked as failed shows red; one that worked does not', async () => {
  const engine = new FakeEngine();
  engine.slashReply = (cmd) =>
    cmd.startsWith('/nope') ? { output: 'Unknown command /nope. /help lists the commands.', error: true } : { output: 'Markdown off.' };
  const r = h.renderApp({ engine, rows: 24, columns: 80 });
  await r.type('/nope', h.KEYS.enter);
  await h.settle();
  const failed = rawLine(r.app.lastFrame(), 'Unknown command /nope');
  expect(failed).toContain(RED);
  expect(failed).not.toContain(CYAN);

  await r.type('/markdown', h.KEYS.enter);
  await h.settle();
  const worked = rawLine(r.app.lastFrame(), 'Markdown off.');
  expect(worked).toContain(CYAN);
  expect(worked).not.toContain(RED);
});
