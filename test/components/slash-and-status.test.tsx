import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { KEYS, renderApp, settle } from './render-app.js';
import { FakeEngine, initialState } from './fake-engine.js';
import { formatTokens, readMeter } from '../../components/status/context-meter.js';
import { farewellText } from '../../components/run-tui.js';
import { BUILTIN_SLASH_INFO as SLASH_COMMANDS } from '../../src/slash/builtin-info.js';

const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

const sessions = [
  { id: 'aaaa1111', updatedAt: '2026-11-30T04:00:00.000Z', firstPrompt: 'fix the parser', turns: 3, tokens: 12_000, cost: 0.0123 },
  { id: 'bbbb2222', updatedAt: '2026-11-29T04:00:00.000Z', firstPrompt: 'write docs', turns: 1, tokens: 800, cost: null },
];

describe('slash commands', () => {
  it('/help explains every command and the keys in a panel that Esc closes', async () => {
    const r = renderApp({ rows: 40, columns: 120 });
    await r.type('/help', KEYS.enter);
    await settle();
    const f = r.frame();
    for (const cmd of SLASH_COMMANDS) expect(f).toContain(cmd.name);
    expect(f).toContain('Ctrl+C');
    expect(r.engine.slashes).toEqual([]);
    await r.type(KEYS.escape);
    expect(r.frame()).not.toContain('/presets');
  });

  it('sends engine commands to runSlash and shows a one-line result as a notice, a longer one in a panel', async () => {
    const engine = new FakeEngine();
    engine.slashReply = (cmd) =>
      cmd.startsWith('/thinking') ? { output: 'Thinking is off.' } : { output: 'read   allow  (default)\nwrite  confirm  (default)\nbash   confirm  (default)' };
    const r = renderApp({ engine, rows: 30, columns: 80 });
    await r.type('/thinking off', KEYS.enter);
    await settle();
    expect(engine.slashes).toEqual(['/thinking off']);
    expect(r.frame()).toContain('Thinking is off.');
    await r.type('/policy', KEYS.enter);
    await settle();
    expect(r.frame()).toContain('/policy');
    expect(r.frame()).toContain('write  confirm  (default)');
    expect(r.frame()).toContain('Esc closes');
  });

  it('leaves on /exit and when the engine asks to exit', async () => {
    const r = renderApp();
    await r.type('/exit', KEYS.enter);
    await settle();
    expect(r.exits()).toBe(1);
    r.engine.slashReply = () => ({ exit: true });
    await r.type('/clear', KEYS.enter);
    await settle();
    expect(r.exits()).toBe(2);
  });

  // What the file holds, and that it is written under the policy, is the engine's: test/agent/export.test.ts.
  it('/export goes to the engine, which writes the file; the view shows where', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'lwyrm-export-'));
    dirs.push(dir);
    const engine = new FakeEngine(initialState({ projectRoot: dir }));
    engine.slashReply = (cmd) => (cmd === '/export notes.md' ? { output: `Transcript written to ${join(dir, 'notes.md')}` } : { output: '?' });
    const r = renderApp({ engine });
    await r.type('/export notes.md', KEYS.enter);
    for (let i = 0; i < 20 && !r.frame().includes('written'); i++) await settle();
    expect(engine.slashes).toEqual(['/export notes.md']);
    expect(r.frame()).toContain(`Transcript written to ${join(dir, 'notes.md')}`);
  });

  it('/sessions opens a list: arrows choose, Enter resumes, d then y deletes', async () => {
    const engine = new FakeEngine();
    engine.slashReply = (cmd) => (cmd === '/sessions' ? { panel: 'sessions', sessions } : { output: `done: ${cmd}` });
    const r = renderApp({ engine, rows: 24, columns: 100 });
    await r.type('/sessions', KEYS.enter);
    await settle();
    expect(r.frame()).toContain('Sessions of this project (2)');
    expect(r.frame()).toContain('aaaa1111');
    expect(r.frame()).toContain('fix the parser');
    await r.type(KEYS.down, 'd');
    expect(r.frame()).toContain('Delete session bbbb2222?');
    await r.type('y');
    await settle();
    expect(engine.slashes).toContain('/sessions delete bbbb2222');
    await r.type(KEYS.up, KEYS.enter);
    await settle();
    expect(engine.slashes).toContain('/sessions resume aaaa1111');
    expect(r.frame()).not.toContain('Sessions of this project');
  });
});

describe('status line and header', () => {
  it('reads the context meter as the fill of the window, and says where compaction starts', () => {
    const m = readMeter({ usedTokens: 160_240, measured: true, window: 1_000_000, threshold: 200_000 }, 24);
    expect(m.percent).toBe(16);
    expect(m.label).toBe('16% of 1M · compaction at 20%');
    expect(m.bar).toBe('████' + '·'.repeat(20));
    // Close to the compaction point it turns red, though the window is far from full.
    expect(m.level).toBe('warn');
    expect(readMeter({ usedTokens: 190_000, measured: true, window: 1_000_000, threshold: 200_000 }, 24).level).toBe('high');
    expect(readMeter({ usedTokens: 1_250_000, measured: true, window: 1_000_000, threshold: 200_000 }, 10).bar).toBe('█'.repeat(10));
    expect(readMeter({ usedTokens: 0, measured: false, window: 0, threshold: 0 }, 4).percent).toBe(0);
  });

  it('shows the header settings, the meter, the last request and the cost', async () => {
    const engine = new FakeEngine(initialState({ sessionCost: 0.4567 }));
    const r = renderApp({ engine, rows: 24, columns: 120 });
    engine.emit(
      { type: 'context', gauge: { usedTokens: 48_000, measured: true, window: 128_000, threshold: 96_000 } },
      {
        type: 'usage',
        lastUsage: { input: 1000, cacheRead: 9000, cacheWrite: 0, output: 321 },
        sessionUsage: { input: 1000, cacheRead: 9000, cacheWrite: 0, output: 321 },
        sessionCost: 0.4567,
      },
    );
    await settle();
    const f = r.frame();
    expect(f).toContain('flash (anthropic, deepseek-chat)  thinking on · high');
    expect(f).toContain('/home/dev/shop  read=allow write=confirm delete=confirm bash=confirm');
    expect(f).toContain('38% of 128k · compaction at 75% (48,000 tokens)');
    expect(f).toContain('last 10,000 in · 321 out');
    expect(f).toContain('$0.46');
    engine.emit({ type: 'settings', patch: { thinking: false, preset: { name: 'pro', format: 'openai', model: 'm2' } } });
    await settle();
    expect(r.frame()).toContain('pro (openai, m2)  thinking off');
  });

  it('prints the last answer and the resume command when leaving', () => {
    const engine = new FakeEngine();
    engine.emit(
      { type: 'turn.start', blockId: 'u1', text: 'q' },
      { type: 'assistant.delta', blockId: 'a1', text: 'The answer.\x1b[2J' },
      { type: 'turn.end', blockId: 'e1', status: 'finished' },
    );
    const s = engine.getSnapshot();
    const text = farewellText(s.blocks, s.sessionId);
    expect(text).toContain('The answer.␛[2J');
    expect(text).toContain('lwyrm --resume sess-1234abcd');
    expect(farewellText([], 'x')).toBe('');
  });
});

describe('formatTokens', () => {
  it('groups digits by thousands as en-US does', () => {
    for (const n of [0, 7, 999, 1000, 12_345, 1_234_567.6, -1234]) expect(formatTokens(n)).toBe(Math.round(n).toLocaleString('en-US'));
  });
});
