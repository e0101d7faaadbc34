import { describe, expect, it } from 'vitest';
import { OpenAiAssembler } from '../../src/providers/openai-stream.js';
import { ProviderError, type StreamEvent } from '../../src/providers/types.js';

/** Feeds chunk objects (as the server would send them) straight into the assembler. */
function run(chunks: readonly unknown[], done = true): StreamEvent[] {
  const a = new OpenAiAssembler();
  const out: StreamEvent[] = [];
  for (const c of chunks) out.push(...a.feed({ event: 'message', data: JSON.stringify(c) }));
  if (done) out.push(...a.feed({ event: 'message', data: '[DONE]' }));
  out.push(...a.finish());
  return out;
}

const delta = (d: unknown, finish: string | null = null) => ({ choices: [{ index: 0, delta: d, finish_reason: finish }] });
const call = (tc: unknown) => delta({ tool_calls: [tc] });

function calls(events: readonly StreamEvent[]) {
  const stop = events.at(-1);
  if (stop?.type !== 'stop') throw new Error('no stop');
  return stop.message.content.flatMap((b) => (b.type === 'tool_use' ? [[b.id, b.name, b.input]] : []));
}

describe('openai stream quirks (WIRE.md §4.2)', () => {
  it('every parallel call numbered 0: a new id opens a new call', () => {
    const ev = run([
      call({ index: 0, id: 'a', function: { name: 'read_file', arguments: '{"path":' } }),
      call({ index: 0, function: { arguments: '"x"}' } }),
      call({ index: 0, id: 'b', function: { name: 'read_file', arguments: '{"path":"y"}' } }),
      delta({}, 'stop'),
    ]);
    expect(calls(ev)).toEqual([
      ['a', 'read_file', { path: 'x' }],
      ['b', 'read_file', { path: 'y' }],
    ]);
    // finish_reason "stop" with calls present is still a tool turn.
    expect(ev.at(-1)).toMatchObject({ reason: 'tool_use' });
  });

  it('no index at all (Gemini relays): each whole call is its own; empty-string ids are absent', () => {
    const ev = run([
      call({ id: 'g1', type: 'function', function: { name: 'grep', arguments: '{"pattern":"a"}' } }),
      call({ id: 'g2', type: 'function', function: { name: 'grep', arguments: '{"pattern":"b"}' } }),
      call({ id: '', function: { arguments: '' } }),
      delta({ tool_calls: [] }, 'tool_calls'),
    ]);
    expect(calls(ev)).toEqual([
      ['g1', 'grep', { pattern: 'a' }],
      ['g2', 'grep', { pattern: 'b' }],
    ]);
  });

  it('DashScope-style continuation deltas with id "" stay on their call', () => {
    const ev = run([
      call({ index: 0, id: 'd1', function: { name: 'list_dir', arguments: '' } }),
      call({ index: 0, id: '', function: { arguments: '{"path":"src"}' } }),
      delta({}, 'tool_calls'),
    ]);
    expect(calls(ev)).toEqual([['d1', 'list_dir', { path: 'src' }]]);
  });

  it('reads usage from any chunk and keeps the last one', () => {
    const ev = run([
      { choices: [{ index: 0, delta: { content: 'a' }, finish_reason: null }], usage: { prompt_tokens: 5, completion_tokens: 1 } },
      { choices: [{ index: 0, delta: { content: 'b' }, finish_reason: 'stop' }], usage: { prompt_tokens: 5, completion_tokens: 2 } },
    ]);
    expect(ev.at(-1)).toMatchObject({ reason: 'end_turn', usage: { input: 5, output: 2 }, message: { content: [{ type: 'text', text: 'ab' }] } });
  });

  it('treats {"error": ...} and {"object": "error"} chunks as stream errors with the partial answer', () => {
    for (const bad of [{ error: { message: 'The server had an error' } }, { object: 'error', message: 'engine overloaded' }]) {
      const a = new OpenAiAssembler();
      a.feed({ event: 'message', data: JSON.stringify(delta({ content: 'so far' })) });
      let err: unknown;
      try {
        a.feed({ event: 'message', data: JSON.stringify(bad) });
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(ProviderError);
      expect((err as ProviderError).message).toMatch(/server had an error|engine overloaded/);
      expect((err as ProviderError).partial?.content).toEqual([{ type: 'text', text: 'so far' }]);
    }
  });

  it('maps length to max_tokens and content_filter to refusal; no finish and no [DONE] is truncated', () => {
    expect(run([delta({ content: 'x' }, 'length')]).at(-1)).toMatchObject({ reason: 'max_tokens' });
    expect(run([delta({ content: 'x' }, 'content_filter')]).at(-1)).toMatchObject({ reason: 'refusal' });
    expect(() => run([delta({ content: 'x' })], false)).toThrow(/cut off/);
  });
});
