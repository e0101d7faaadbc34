import { describe, expect, it } from 'vitest';
import { MISSING_RESULT, repairHistory } from '../../src/agent/history.js';
import { blocksFromHistory } from '../../src/agent/history-blocks.js';
import { appendUserText } from '../../src/agent/turn-loop.js';
import { createLoopDetector } from '../../src/agent/loop-detector.js';
import type { Message } from '../../src/providers/types.js';

const call = (id: string, name = 'read_file'): Message => ({
  role: 'assistant',
  content: [{ type: 'tool_use', id, name, input: { path: 'a.py' } }],
});

describe('repairHistory', () => {
  it('adds a result for every unanswered call, keeping the answered ones', () => {
    const history: Message[] = [
      { role: 'user', content: [{ type: 'text', text: 'go' }] },
      { role: 'assistant', content: [{ type: 'tool_use', id: 'a', name: 'x', input: {} }, { type: 'tool_use', id: 'b', name: 'y', input: {} }] },
      { role: 'user', content: [{ type: 'tool_result', toolUseId: 'a', content: 'ok' }] },
      call('c'),
    ];
    const fixed = repairHistory(history);
    expect(fixed).toHaveLength(5);
    expect(fixed[2]!.content.map((b) => (b.type === 'tool_result' ? b.toolUseId : ''))).toEqual(['b', 'a']);
    expect(fixed[4]).toEqual({ role: 'user', content: [{ type: 'tool_result', toolUseId: 'c', content: MISSING_RESULT, isError: true }] });
    expect(history).toHaveLength(4);
    expect(repairHistory(fixed)).toEqual(fixed);
  });
});

describe('appendUserText', () => {
  it('merges into trailing tool results so roles keep alternating', () => {
    const history: Message[] = [call('a'), { role: 'user', content: [{ type: 'tool_result', toolUseId: 'a', content: 'r' }] }];
    appendUserText(history, 'continue');
    expect(history).toHaveLength(2);
    expect(history[1]!.content.at(-1)).toEqual({ type: 'text', text: 'continue' });
    history.push({ role: 'assistant', content: [{ type: 'text', text: 'ok' }] });
    appendUserText(history, 'next');
    expect(history).toHaveLength(4);
  });
});

describe('blocksFromHistory', () => {
  it('rebuilds user, answer and tool blocks with their outcome', () => {
    const history: Message[] = [
      { role: 'user', content: [{ type: 'text', text: 'fix it' }] },
      { role: 'assistant', content: [{ type: 'text', text: 'Looking.' }, { type: 'tool_use', id: 't1', name: 'read_file', input: { path: 'a.py' } }, { type: 'tool_use', id: 't2', name: 'bash', input: {} }] },
      {
        role: 'user',
        content: [
          { type: 'tool_result', toolUseId: 't1', content: 'line one\nline two' },
          { type: 'tool_result', toolUseId: 't2', content: 'Interrupted by the user', isError: true },
        ],
      },
    ];
    const blocks = blocksFromHistory(history, (n) => n);
    expect(blocks.map((b) => b.kind)).toEqual(['user', 'assistant', 'tool', 'tool']);
    expect(blocks[2]).toMatchObject({ status: 'ok', resultSummary: 'line one' });
    expect(blocks[3]).toMatchObject({ status: 'interrupted' });
  });
});

describe('loop detector', () => {
  it('flags the third identical call in the window, whatever the key order', () => {
    const d = createLoopDetector(6);
    expect(d.isLoop('grep', { pattern: 'x', path: 'src' })).toBe(false);
    expect(d.isLoop('grep', { path: 'src', pattern: 'x' })).toBe(false);
    expect(d.isLoop('grep', { pattern: 'x', path: 'src' })).toBe(true);
  });

  it('forgets calls that left the window, and is off at 0', () => {
    const d = createLoopDetector(3);
    d.isLoop('a', {});
    d.isLoop('a', {});
    d.isLoop('b', {});
    d.isLoop('c', {});
    d.isLoop('d', {});
    expect(d.isLoop('a', {})).toBe(false);
    const off = createLoopDetector(0);
    for (let i = 0; i < 5; i++) expect(off.isLoop('a', {})).toBe(false);
  });
});
