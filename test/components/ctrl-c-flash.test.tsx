/** "Press Ctrl+C again to leave" is only on screen while a second Ctrl+C would leave. */
import { afterEach, expect, it, vi } from 'vitest';
import { DOUBLE_CTRL_C_MS } from '../../components/keys/app-keys.js';
import { KEYS, renderApp, settle } from './render-app.js';

afterEach(() => vi.useRealTimers());

it('goes away when the window for the second Ctrl+C closes', async () => {
  vi.useFakeTimers({ toFake: ['Date', 'setTimeout', 'clearTimeout'] });
  const r = renderApp({ columns: 80, rows: 24 });
  await r.type(KEYS.ctrlC);
  expect(r.frame()).toContain('Press Ctrl+C again to leave');
  vi.advanceTimersByTime(DOUBLE_CTRL_C_MS + 10);
  await settle();
  expect(r.frame()).not.toContain('Press Ctrl+C again');
  await r.type(KEYS.ctrlC);
  expect(r.exits()).toBe(0);
});

it('goes away when another key closes the window, and a stopped turn still says so', async () => {
  const r = renderApp({ columns: 80, rows: 24 });
  r.engine.emit({ type: 'turn.start', blockId: 'u1', text: 'work' });
  await settle();
  await r.type(KEYS.ctrlC);
  expect(r.frame()).toContain('Stopped. Press Ctrl+C again to leave.');
  await r.type('x');
  expect(r.frame()).not.toContain('Press Ctrl+C again');
  expect(r.frame()).toContain('Stopped.');
  await r.type(KEYS.ctrlC);
  expect(r.exits()).toBe(0);
});
