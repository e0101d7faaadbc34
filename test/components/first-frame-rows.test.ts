/**
 * The early first frame (components/first-frame.ts) must be the frame Ink draws: the CLI paints it
 * before Ink is loaded and the view's writer starts from it, so any difference would be a visible
 * jump on every start. Compared here with Ink's real first frame, row by row, at many sizes.
 */
import { EventEmitter } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Engine, SessionState } from '../../src/agent/state.js';
import { encodeAsInk, firstFrame, firstFrameRows } from '../../components/first-frame.js';
import { EarlyKeys } from '../../components/terminal/early-input.js';
import { startingSnapshot } from '../../hooks/starting-engine.js';
import type { FrameWriter } from '../../components/terminal/frame-writer.js';
import { initialState } from './fake-engine.js';
import { FakeStdin } from '../support/fake-tty.js';

type RunTui = typeof import('../../components/run-tui.js').runTui;
let runTui: RunTui;
const savedForceColor = process.env['FORCE_COLOR'];

beforeAll(async () => {
  // Ink's colours depend on the terminal; the early frame is only drawn where they are on.
  process.env['FORCE_COLOR'] = '1';
  ({ runTui } = await import('../../components/run-tui.js'));
});
afterAll(() => {
  if (savedForceColor === undefined) delete process.env['FORCE_COLOR'];
  else process.env['FORCE_COLOR'] = savedForceColor;
});

/** The rows Ink's first frame puts on a terminal of this size, for a session still starting. */
async function inkFirstFrame(state: SessionState, columns: number, rows: number): Promise<readonly string[]> {
  return (await inkFrameWithTyped(state, columns, rows, undefined)).lines;
}

/**
 * Ink's first frame when the early input hands `typed` over (the keys as the early reader took
 * them), and where the view puts the terminal's cursor.
 */
async function inkFrameWithTyped(
  state: SessionState,
  columns: number,
  rows: number,
  typed: string | undefined,
): Promise<{ lines: readonly string[]; cursor: { row: number; column: number } | undefined }> {
  let writer: FrameWriter | undefined;
  let fail: (e: unknown) => void = () => undefined;
  const pending = new Promise<Engine>((_, reject) => (fail = reject));
  let written = '';
  const output = Object.assign(new EventEmitter(), { columns, rows, write: (data: string) => ((written += data), true) });
  const keys = new EarlyKeys();
  if (typed !== undefined) keys.push(Buffer.from(typed, 'utf8'));
  // Painted at another size: nothing is assumed on screen, so the writer shows Ink's whole frame.
  const painted = { columns: -1, rows: -1, lines: [], cursor: { row: 0, column: 0 }, handOver: () => keys.typed, abandon: () => undefined };
  const done = runTui(pending, {
    output,
    stdin: new FakeStdin().stream,
    farewell: () => undefined,
    startingState: state,
    onFrameWriter: (w) => (writer = w),
    ...(typed !== undefined ? { painted } : {}),
  });
  await new Promise((resolve) => setTimeout(resolve, typed === undefined ? 0 : 20));
  const shown = [...(writer?.shown ?? [])];
  fail(new Error('test over'));
  await expect(done).rejects.toThrow('test over');
  // Ink leaves rows below its output out of the frame; on screen they are empty.
  while (shown.length < rows) shown.push('');
  // eslint-disable-next-line no-control-regex -- the cursor's last placement (CUP, then shown)
  const placed = [...written.matchAll(/\x1b\[(\d+);(\d+)H\x1b\[\?25h/g)].at(-1);
  return { lines: shown, cursor: placed ? { row: Number(placed[1]) - 1, column: Number(placed[2]) - 1 } : undefined };
}

const SIZES: readonly [number, number][] = [
  [120, 40],
  [80, 24],
  [200, 60],
  [100, 30],
  [60, 12],
  [50, 11],
  [40, 8],
  [20, 6],
];

const STATES: readonly [string, SessionState][] = [
  ['the defaults', initialState()],
  ['thinking off', initialState({ thinking: false })],
  ['thinking on without an effort', initialState({ thinkingEffort: undefined } as Partial<SessionState>)],
  [
    'a long root and a read-only policy',
    initialState({
      projectRoot: '/home/someone/work/clients/a-rather-long-organisation-name/the-project-with-a-long-name',
      permissionSummary: 'read=allow write=deny delete=deny bash=deny (read-only)',
    }),
  ],
  ['a long preset', initialState({ preset: { name: 'my-local-vllm-box', format: 'openai', model: 'qwen3-coder-30b-a3b-instruct-fp8' } })],
  ['a root with Latin letters beyond ASCII', initialState({ projectRoot: '/home/renée/Projekte/größe-ça' })],
];

describe('the early first frame', () => {
  for (const [label, state] of STATES) {
    it(`is Ink's first frame, row for row: ${label}`, async () => {
      for (const [columns, rows] of SIZES) {
        const early = firstFrameRows(startingSnapshot(state), columns, rows);
        expect(early, `${columns}x${rows}`).toBeDefined();
        expect(early, `${columns}x${rows}`).toEqual(await inkFirstFrame(state, columns, rows));
      }
    });
  }

  const TYPED: readonly [string, string][] = [
    ['a short prompt', 'fix the failing test'],
    ['Latin letters beyond ASCII', 'café señor Øre ß ł'],
    ['text that wraps onto several rows', 'explain '.repeat(60)],
    ['Backspace in between', 'fix teh\x7f\x7fhe bug'],
    ['a row filled to the last column', 'x'.repeat(78)],
  ];
  for (const [label, typed] of TYPED) {
    it(`is Ink's first frame with keys typed early, rows and cursor: ${label}`, async () => {
      const state = initialState();
      for (const [columns, rows] of SIZES) {
        const early = firstFrame(startingSnapshot(state), columns, rows, (() => {
          const keys = new EarlyKeys();
          keys.push(Buffer.from(typed, 'utf8'));
          return keys.typed.buffer;
        })());
        expect(early, `${columns}x${rows}`).toBeDefined();
        const ink = await inkFrameWithTyped(state, columns, rows, typed);
        expect(early!.lines, `${columns}x${rows}`).toEqual(ink.lines);
        expect(early!.cursor, `${columns}x${rows}`).toEqual(ink.cursor);
      }
    });
  }

  it('is not drawn when a row holds text whose width only Ink can measure', () => {
    expect(firstFrameRows(startingSnapshot(initialState({ projectRoot: '/home/李/项目' })), 120, 40)).toBeUndefined();
    expect(firstFrameRows(startingSnapshot(initialState({ preset: { name: 'x\x1b[31m', format: 'openai', model: 'm' } })), 120, 40)).toBeUndefined();
  });

  it('is not drawn on a terminal too small to lay out', () => {
    expect(firstFrameRows(startingSnapshot(initialState()), 19, 40)).toBeUndefined();
    expect(firstFrameRows(startingSnapshot(initialState()), 120, 5)).toBeUndefined();
  });

  it('truncates with an ellipsis in the style of the last character kept', () => {
    expect(encodeAsInk([{ text: 'abc', style: { dim: true } }, { text: 'def' }], 4)).toBe('\x1b[2mabc…\x1b[22m');
    expect(encodeAsInk([{ text: 'abcdef', style: { color: 'green' } }], 6)).toBe('\x1b[32mabcdef\x1b[39m');
    expect(encodeAsInk([{ text: 'ab', style: { bold: true, color: 'magentaBright' } }], 10)).toBe('\x1b[1m\x1b[95mab\x1b[39m\x1b[22m');
  });
});
