import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createEventStore, FRAME_MS } from '../../src/agent/store.js';
import { createApprovalQueue } from '../../src/agent/approvals.js';
import { reduce } from '../../src/agent/reducer.js';
import type { SessionState } from '../../src/agent/state.js';
import { ZERO_USAGE } from '../../src/providers/types.js';

function initialState(): SessionState {
  return {
    sessionId: 's1',
    preset: { name: 'p', format: 'anthropic', model: 'm' },
    thinking: false,
    markdown: true,
    projectRoot: '/tmp/x',
    permissionSummary: 'read=allow',
    blocks: [],
    busy: false,
    pendingApproval: null,
    lastUsage: null,
    sessionUsage: ZERO_USAGE,
    sessionCost: null,
    context: { usedTokens: 0, measured: false, window: 1000, threshold: 750 },
  };
}

describe('reducer', () => {
  it('replaces only the block that changed and bumps its version', () => {
    let s = reduce(initialState(), { type: 'turn.start', blockId: 'u1', text: 'hi' });
    s = reduce(s, { type: 'assistant.delta', blockId: 'a1', text: 'Hel' });
    const before = s;
    s = reduce(s, { type: 'assistant.delta', blockId: 'a1', text: 'lo' });
    expect(s.blocks[0]).toBe(before.blocks[0]);
    expect(s.blocks[1]).toMatchObject({ kind: 'assistant', text: 'Hello', version: 1, streaming: true });
    s = reduce(s, { type: 'block.end', blockId: 'a1' });
    expect(s.blocks[1]).toMatchObject({ streaming: false, version: 2 });
    expect(before.blocks[1]).toMatchObject({ text: 'Hel' });
  });

  it('tracks a tool call from start to end and bounds its live output', () => {
    let s = reduce(initialState(), { type: 'tool.start', blockId: 't1', callId: 'c1', name: 'bash', title: 'bash ls' });
    s = reduce(s, { type: 'tool.output', blockId: 't1', text: 'x'.repeat(20_000) });
    s = reduce(s, { type: 'tool.end', blockId: 't1', status: 'ok', summary: 'exit 0' });
    const block = s.blocks[0]!;
    expect(block.kind === 'tool' && block.output.length).toBeLessThanOrEqual(8_000);
    expect(block).toMatchObject({ status: 'ok', resultSummary: 'exit 0' });
  });

  it('closes streaming blocks and clears a pending approval at turn end', () => {
    let s = reduce(initialState(), { type: 'reasoning.delta', blockId: 'r1', text: 'hmm' });
    s = reduce(s, { type: 'tool.start', blockId: 't1', callId: 'c', name: 'bash', title: 'bash make' });
    s = reduce(s, {
      type: 'approval.request',
      request: { id: 'a', kind: 'bash', tool: 'bash', summary: 'run ls', reason: 'default bash=confirm', command: 'ls' },
    });
    expect(s.pendingApproval?.id).toBe('a');
    s = reduce(s, { type: 'turn.end', blockId: 'e1', status: 'interrupted' });
    expect(s.pendingApproval).toBeNull();
    expect(s.busy).toBe(false);
    expect(s.blocks[0]).toMatchObject({ streaming: false });
    expect(s.blocks[1]).toMatchObject({ kind: 'tool', status: 'interrupted' });
    expect(s.blocks.at(-1)).toMatchObject({ kind: 'turn_end', status: 'interrupted' });
  });
});

describe('event store', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('coalesces streaming deltas into one notification per frame', () => {
    const store = createEventStore(initialState());
    const notify = vi.fn();
    store.subscribe(notify);
    for (let i = 0; i < 200; i++) store.dispatch({ type: 'assistant.delta', blockId: 'a', text: 'x' });
    expect(notify).not.toHaveBeenCalled();
    expect(store.getSnapshot().blocks).toHaveLength(0);
    vi.advanceTimersByTime(FRAME_MS);
    expect(notify).toHaveBeenCalledTimes(1);
    const block = store.getSnapshot().blocks[0]!;
    expect(block.kind === 'assistant' && block.text.length).toBe(200);
  });

  it('coalesces indexing progress per frame, ignores repeats, and keeps it across a session reset', () => {
    const store = createEventStore(initialState());
    const notify = vi.fn();
    store.subscribe(notify);
    for (let done = 1; done <= 300; done++) store.dispatch({ type: 'indexing', progress: { done, total: 324 } });
    expect(notify).not.toHaveBeenCalled();
    vi.advanceTimersByTime(FRAME_MS);
    expect(notify).toHaveBeenCalledTimes(1);
    expect(store.getSnapshot().indexing).toEqual({ done: 300, total: 324 });
    const before = store.current();
    store.dispatch({ type: 'indexing', progress: { done: 300, total: 324 } });
    expect(store.current()).toBe(before);
    // /clear or a resumed session replaces the state; the index is still building.
    store.dispatch({ type: 'session.reset', state: initialState() });
    expect(store.current().indexing).toEqual({ done: 300, total: 324 });
    store.dispatch({ type: 'indexing', progress: null });
    vi.advanceTimersByTime(FRAME_MS);
    expect(store.getSnapshot().indexing).toBeNull();
  });

  it('flushes at once on block end, approval request and turn end', () => {
    const store = createEventStore(initialState());
    const notify = vi.fn();
    store.subscribe(notify);
    store.dispatch({ type: 'assistant.delta', blockId: 'a', text: 'x' });
    store.dispatch({ type: 'block.end', blockId: 'a' });
    expect(notify).toHaveBeenCalledTimes(1);
    const queue = createApprovalQueue(store.dispatch);
    const decided = queue.request({ id: 'q1', kind: 'write', tool: 'edit_file', summary: 'edit a', reason: 'r' });
    expect(notify).toHaveBeenCalledTimes(2);
    expect(store.getSnapshot().pendingApproval?.id).toBe('q1');
    store.dispatch({ type: 'turn.end', blockId: 'e', status: 'finished' });
    expect(notify).toHaveBeenCalledTimes(3);
    vi.advanceTimersByTime(FRAME_MS * 3);
    expect(notify).toHaveBeenCalledTimes(3);
    void decided;
  });
});

describe('approval queue', () => {
  it('settles the promise for the id answered and clears the request', async () => {
    const store = createEventStore(initialState(), 0);
    const queue = createApprovalQueue(store.dispatch);
    const first = queue.request({ id: 'x', kind: 'write', tool: 'write_file', summary: 's', reason: 'r' });
    const second = queue.request({ id: 'x', kind: 'bash', tool: 'bash', summary: 's', reason: 'r' });
    const ids = queue.pending().map((r) => r.id);
    expect(new Set(ids).size).toBe(2);
    expect(queue.answer(ids[1]!, 'no')).toBe(true);
    expect(queue.answer('x', 'yes')).toBe(true);
    expect(queue.answer('x', 'yes')).toBe(false);
    await expect(first).resolves.toBe('yes');
    await expect(second).resolves.toBe('no');
    expect(store.current().pendingApproval).toBeNull();
  });

  it('cancels every pending request', async () => {
    const store = createEventStore(initialState(), 0);
    const queue = createApprovalQueue(store.dispatch);
    const p = queue.request({ id: 'a', kind: 'write', tool: 'write_file', summary: 's', reason: 'r' });
    queue.cancelAll('quit');
    await expect(p).resolves.toBe('quit');
    expect(queue.pending()).toHaveLength(0);
  });
});

describe('notifications held for a request about to leave', () => {
  it('keeps the snapshot current but tells subscribers once the event loop has gone round twice', async () => {
    const store = createEventStore(initialState());
    let heard = 0;
    store.subscribe(() => (heard += 1));
    store.holdNotifications();
    store.dispatch({ type: 'turn.start', blockId: 'u1', text: 'hi' });
    // turn.start is delivered at once when nothing holds it; held, only the snapshot moves.
    expect(store.getSnapshot().busy).toBe(true);
    expect(heard).toBe(0);
    await new Promise((resolve) => setImmediate(resolve));
    expect(heard).toBe(0);
    await new Promise((resolve) => setImmediate(() => setImmediate(resolve)));
    expect(heard).toBe(1);
    // Released: the next event is heard at once again.
    store.dispatch({ type: 'turn.end', blockId: 'e1', status: 'finished' });
    expect(heard).toBe(2);
  });
});
