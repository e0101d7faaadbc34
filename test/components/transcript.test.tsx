import { describe, expect, it } from 'vitest';
import { KEYS, renderApp, settle } from './render-app.js';
import { FakeEngine } from './fake-engine.js';
import { LineCache } from '../../components/transcript/line-cache.js';
import { sliceRows } from '../../components/transcript/transcript-window.js';
import { formatBlock } from '../../components/transcript/format-block.js';
import { lineText } from '../../components/text/styled-line.js';

function answer(engine: FakeEngine, lines: number, from = 1): void {
  const id = engine.id('a');
  const text = Array.from({ length: lines }, (_, i) => `row ${from + i}`).join('\n');
  engine.emit({ type: 'assistant.delta', blockId: id, text }, { type: 'block.end', blockId: id });
}

describe('transcript window', () => {
  it('renders only the visible slice of a long history', () => {
    const blocks = Array.from({ length: 1000 }, (_, i) => [[{ text: `r${i}` }]]);
    const w = sliceRows(blocks, 5, { follow: true, top: 0 });
    expect(w.rows.map(lineText)).toEqual(['r995', 'r996', 'r997', 'r998', 'r999']);
    expect(w.total).toBe(1000);
    const back = sliceRows(blocks, 5, { follow: false, top: 10 });
    expect(back.rows.map(lineText)).toEqual(['r10', 'r11', 'r12', 'r13', 'r14']);
    expect(back.below).toBe(985);
  });

  it('caches rows per block version and width', () => {
    const cache = new LineCache();
    const block = { kind: 'user', id: 'u1', version: 0, text: 'hello there' } as const;
    const opts = { markdown: true, expandReasoning: false };
    const a = cache.rows(block, 40, opts);
    expect(cache.rows(block, 40, opts)).toBe(a);
    expect(cache.rows(block, 20, opts)).not.toBe(a);
    expect(cache.rows({ ...block, version: 1 }, 20, opts)).not.toBe(a);
  });

  it('lays a streaming answer out incrementally and ends with the same rows as a full layout', () => {
    const cache = new LineCache();
    const opts = { markdown: true, expandReasoning: false };
    const full = '# Plan\n\nFirst **step** here.\n\n- a\n- b\n\n```\nx = 1\n\ny = 2\n```\n\nDone.';
    let text = '';
    let version = 0;
    for (const ch of full) {
      text += ch;
      version += 1;
      const rows = cache.rows({ kind: 'assistant', id: 'a1', version, text, streaming: true }, 30, opts);
      for (const row of rows) expect(lineText(row).length).toBeLessThanOrEqual(30);
    }
    const streamed = cache.rows({ kind: 'assistant', id: 'a1', version, text, streaming: true }, 30, opts).map(lineText);
    const final = formatBlock({ kind: 'assistant', id: 'a1', version: version + 1, text, streaming: false }, 30, opts).map(lineText);
    expect(streamed).toEqual(final);
  });
});

describe('transcript pane in the app', () => {
  it('follows the tail, scrolls back with PgUp and Shift+↑, keeps its place while output arrives, End follows again', async () => {
    const r = renderApp({ rows: 20, columns: 60 });
    await settle();
    answer(r.engine, 100);
    await settle();
    expect(r.frame()).toContain('row 100');
    expect(r.frame()).not.toContain('more line');

    await r.type(KEYS.pageUp);
    const scrolled = r.frame();
    expect(scrolled).not.toContain('row 100');
    expect(scrolled).toMatch(/↓ \d+ more lines below/);

    await r.type(KEYS.shiftUp);
    const firstVisible = r.frame().match(/row (\d+)/)![1];

    answer(r.engine, 30, 101);
    await settle();
    expect(r.frame().match(/row (\d+)/)![1]).toBe(firstVisible);
    expect(r.frame()).not.toContain('row 130');

    await r.type(KEYS.ctrlHome);
    expect(r.frame()).toContain('row 1\n');
    await r.type(KEYS.ctrlEnd);
    expect(r.frame()).toContain('row 130');
    expect(r.frame()).not.toContain('more line');
  });

  it('shows tool calls with their result, live bash output, and the turn status', async () => {
    const r = renderApp({ rows: 24, columns: 70 });
    r.engine.emit(
      { type: 'turn.start', blockId: 'u1', text: 'run the tests' },
      { type: 'tool.start', blockId: 't1', callId: 'c1', name: 'read_file', title: 'read_file prices.py' },
      { type: 'tool.end', blockId: 't1', status: 'ok', summary: 'Read 12 lines' },
      { type: 'tool.start', blockId: 't2', callId: 'c2', name: 'bash', title: 'bash npm test' },
      { type: 'tool.output', blockId: 't2', text: 'PASS a.test.ts\nPASS b.test.ts\n' },
    );
    await settle();
    let f = r.frame();
    expect(f).toContain('→ read_file prices.py');
    expect(f).toContain('✓ Read 12 lines');
    expect(f).toContain('→ bash npm test');
    expect(f).toContain('│ PASS b.test.ts');
    r.engine.emit(
      { type: 'tool.end', blockId: 't2', status: 'error', summary: 'exit code 1' },
      { type: 'turn.end', blockId: 'e1', status: 'interrupted' },
    );
    await settle();
    f = r.frame();
    expect(f).toContain('✗ exit code 1');
    expect(f).toContain('⏹ interrupted');
  });

  it('shows reasoning live in its own pane, then collapses it to one line that Ctrl+O expands', async () => {
    const r = renderApp({ rows: 24, columns: 70 });
    r.engine.emit({ type: 'turn.start', blockId: 'u1', text: 'why' }, { type: 'reasoning.delta', blockId: 'r1', text: 'first thought\nsecond thought' });
    await settle();
    expect(r.frame()).toContain('┌ thinking…');
    expect(r.frame()).toContain('│ second thought');
    r.engine.emit({ type: 'block.end', blockId: 'r1' }, { type: 'assistant.delta', blockId: 'a1', text: 'Because.' });
    await settle();
    expect(r.frame()).not.toContain('┌ thinking…');
    expect(r.frame()).toContain('▸ thought for 2 lines');
    expect(r.frame()).not.toContain('second thought');
    await r.type(KEYS.ctrlO);
    expect(r.frame()).toContain('│ second thought');
  });

  it('renders markdown only when it is on, and never passes control sequences through', async () => {
    const engine = new FakeEngine();
    const r = renderApp({ engine, rows: 20, columns: 60 });
    engine.emit({ type: 'assistant.delta', blockId: 'a1', text: '# Head\n\n**bold** \x1b[2Jgone' }, { type: 'block.end', blockId: 'a1' });
    await settle();
    expect(r.frame()).toContain('bold ␛[2Jgone');
    expect(r.frame()).not.toContain('**bold**');
    expect(r.app.lastFrame()).not.toContain('\x1b[2J');
    engine.emit({ type: 'settings', patch: { markdown: false } });
    await settle();
    expect(r.frame()).toContain('# Head');
    expect(r.frame()).toContain('**bold** ␛[2Jgone');
  });

  it('never draws a frame taller than the viewport while many lines stream in', async () => {
    const engine = new FakeEngine();
    const r = renderApp({ engine, rows: 24, columns: 80 });
    engine.emit({ type: 'turn.start', blockId: 'u1', text: 'stream' });
    for (let i = 0; i < 600; i++) {
      engine.emit({ type: 'assistant.delta', blockId: 'a1', text: `streamed line ${i} with some words to wrap around the edge of the screen maybe\n` });
      if (i % 50 === 0) await settle();
    }
    engine.emit({ type: 'block.end', blockId: 'a1' }, { type: 'turn.end', blockId: 'e1', status: 'finished' });
    await settle();
    expect(r.app.frames.length).toBeGreaterThan(5);
    for (const frame of r.app.frames) {
      expect(frame.split('\n').length).toBeLessThanOrEqual(24);
    }
    expect(r.frame()).toContain('streamed line 599');
  });
});
