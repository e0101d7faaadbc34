/** The input area under pressure: long command results, and less room than it wants. */
import { describe, expect, it } from 'vitest';
import { KEYS, renderApp, settle } from './render-app.js';
import { FakeEngine } from './fake-engine.js';

const proxyReply =
  'fake → http://127.0.0.1:34467: direct (no proxy) (global setting). localhost is never proxied: set no_proxy to change that.';

describe('composer area', () => {
  it('wraps a one-line command result that is wider than the screen instead of cutting it', async () => {
    const engine = new FakeEngine();
    engine.slashReply = () => ({ output: proxyReply });
    const r = renderApp({ engine, columns: 60, rows: 15 });
    await r.type('/proxy', KEYS.enter);
    await settle();
    const f = r.frame();
    expect(f.split('\n').length).toBeLessThanOrEqual(15);
    expect(f.replace(/\s+/g, ' ')).toContain('localhost is never proxied: set no_proxy to change that.');
    expect(f).toMatch(/^› /m);
  });

  it('keeps the input line visible when the screen is too short for the rule and a message', async () => {
    const engine = new FakeEngine();
    engine.slashReply = () => ({ output: 'Thinking off.' });
    const r = renderApp({ engine, columns: 30, rows: 4 });
    await r.type('/thinking', KEYS.enter);
    await settle();
    await r.type('abc');
    const f = r.frame();
    expect(f.split('\n').length).toBeLessThanOrEqual(4);
    expect(f).toMatch(/^› abc/m);
    // Rows are whole: no message drawn over the rule.
    for (const line of f.split('\n')) if (line.includes('─')) expect(line).toMatch(/^─+$/);
  });

  it('cuts a message longer than its rows with an ellipsis', async () => {
    const engine = new FakeEngine();
    engine.slashReply = () => ({ output: `${'word '.repeat(31)}END` });
    const r = renderApp({ engine, columns: 20, rows: 24 });
    await r.type('/proxy', KEYS.enter);
    await settle();
    expect(r.frame()).toContain('…');
    expect(r.frame()).not.toContain('END');
    expect(r.frame()).toMatch(/^› /m);
  });
});
