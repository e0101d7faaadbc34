/**
 * The view lays a streaming answer out from the pieces the reducer keeps (never reading the text
 * itself, a rope any read of which copies the whole answer), and the transcript's rows reach the
 * terminal past Ink: the frame writer inserts them into Ink's shorter frame.
 */
import { describe, expect, it } from 'vitest';
import { keepStreamPieces, reduce } from '../../src/agent/reducer.js';

// As the full screen does (runTui turns it on).
keepStreamPieces(true);
import type { SessionState, TranscriptBlock } from '../../src/agent/state.js';
import { LineCache } from '../../components/transcript/line-cache.js';
import { formatBlock } from '../../components/transcript/format-block.js';
import { FrameWriter } from '../../components/terminal/frame-writer.js';
import { RowOverlay, applyOverlay } from '../../components/terminal/row-overlay.js';
import { initialState } from './fake-engine.js';

const answer = [
  '## Plan',
  '- read **prices.py** and 中文字符 🎉',
  '```ts',
  'const re = /a+b/g; // done',
  'export function add(x: number): string { return `${x + 1} items`; }',
  '```',
  '| a | b |',
  '|---|---|',
  '| 1 | 2 |',
  '',
  'Done.',
].join('\n');

const show = (rows: ReturnType<LineCache['rows']>): string[] => rows.map((r) => r.map((s) => `${s.text}${s.style ? JSON.stringify(s.style) : ''}`).join('|'));

function lastBlock(state: SessionState): TranscriptBlock {
  return state.blocks.at(-1)!;
}

describe('streaming from pieces', () => {
  it('gives the finished layout after every delta, whatever the piece sizes', () => {
    for (const size of [1, 3, 7, 40]) {
      let state = reduce(initialState(), { type: 'turn.start', blockId: 'u1', text: 'q' });
      const cache = new LineCache();
      const opts = { markdown: true, expandReasoning: false };
      for (let at = 0; at < answer.length; at += size) {
        state = reduce(state, { type: 'assistant.delta', blockId: 'a1', text: answer.slice(at, at + size) });
        const block = lastBlock(state);
        expect(block.kind === 'assistant' && block.stream?.count).toBe(Math.floor(at / size) + 1);
        const text = answer.slice(0, at + size);
        const final = formatBlock({ kind: 'assistant', id: 'a1', version: 0, text, streaming: false }, 30, opts);
        expect(show(cache.rows(block, 30, opts)), `pieces of ${size}, after ${text.length} characters`).toEqual(show(final));
      }
      state = reduce(state, { type: 'block.end', blockId: 'a1' });
      const ended = lastBlock(state);
      expect(ended).toMatchObject({ text: answer, streaming: false });
      expect('stream' in ended).toBe(false);
    }
  });

  it('never reads the streaming text itself', () => {
    const cache = new LineCache();
    const opts = { markdown: true, expandReasoning: false };
    const list: string[] = [];
    for (let n = 1; n <= 4; n++) {
      list.push(`line ${n} of the answer\n`);
      const block = { kind: 'assistant', id: 'a1', version: n, streaming: true, stream: { list, count: n } } as const;
      // Reading the rope flattens it: the view must go by the pieces.
      Object.defineProperty(block, 'text', { get: () => (() => { throw new Error('the text was read'); })() });
      expect(show(cache.rows(block as unknown as TranscriptBlock, 30, opts)).at(-2)).toBe(`line ${n} of the answer`);
    }
  });

  it('keeps an older version of the block as it was when a newer one grows from it', () => {
    let state = reduce(initialState(), { type: 'assistant.delta', blockId: 'a1', text: 'one ' });
    const older = reduce(state, { type: 'assistant.delta', blockId: 'a1', text: 'two ' });
    state = reduce(older, { type: 'assistant.delta', blockId: 'a1', text: 'three' });
    const fork = reduce(older, { type: 'assistant.delta', blockId: 'a1', text: 'four' });
    const pieces = (s: SessionState): string => {
      const b = lastBlock(s);
      return b.kind === 'assistant' && b.stream ? b.stream.list.slice(0, b.stream.count).join('') : '';
    };
    expect(pieces(older)).toBe('one two ');
    expect(pieces(state)).toBe('one two three');
    expect(pieces(fork)).toBe('one two four');
    expect(lastBlock(fork)).toMatchObject({ text: 'one two four' });
  });
});

describe('rows past Ink', () => {
  it('inserts the band into the frame and pads it to its height', () => {
    expect(applyOverlay(['head', 'status', 'input'], { top: 1, height: 3, rows: ['a', 'b'] })).toEqual(['head', 'a', 'b', '', 'status', 'input']);
    expect(applyOverlay(['head'], undefined)).toEqual(['head']);
  });

  it('draws each frame with the overlay as it was when Ink wrote it', () => {
    const written: string[] = [];
    const overlay = new RowOverlay();
    const writer = new FrameWriter({ write: (d) => written.push(d) }, 6, { minIntervalMs: 0, synchronized: false, overlay });
    overlay.set(1, 3, ['first answer row', 'second']);
    writer.submit('header\nstatus\n> input');
    expect(writer.shown).toEqual(['header', 'first answer row', 'second', '', 'status', '> input']);
    // The pane unmounted (a panel took its place): Ink's frame is the whole screen again.
    overlay.clear();
    writer.submit('header\npanel 1\npanel 2\npanel 3\nstatus\n> input');
    expect(writer.shown).toEqual(['header', 'panel 1', 'panel 2', 'panel 3', 'status', '> input']);
    expect(written.join('')).toContain('panel 2');
  });
});
