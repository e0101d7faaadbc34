/**
 * The pure reducer: (state, event) → state. Only the block that changed is replaced (with its
 * version bumped), so views caching on (id, version) skip everything else.
 */
import { appendStreamed } from './streamed-text.js';
import type { ApprovalRequest } from '../policy/types.js';
import { parseUnifiedDiff } from '../tools/numbered-diff.js';
import type { FileChange } from '../tools/types.js';
import type { EngineEvent } from './events.js';
import type { PendingApproval, SessionState, StreamPieces, TranscriptBlock, TranscriptChange } from './state.js';

/** Live tool output kept in the state: the tail only, so a chatty command cannot grow it forever. */
export const TOOL_OUTPUT_TAIL_CHARS = 8_000;

function newlines(text: string): number {
  let n = 0;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

// Diffs are read into numbered lines once, here, so every view draws them from the same reading.
function parsedChange({ diff, ...change }: FileChange): TranscriptChange {
  return diff === undefined || diff === '' ? change : { ...change, diff: parseUnifiedDiff(diff) };
}

function parsedApproval({ diff, clipped, ...request }: ApprovalRequest): PendingApproval {
  const parsed = diff === undefined || diff === '' ? request : { ...request, diff: parseUnifiedDiff(diff) };
  if (clipped === undefined) return parsed;
  const { diff: clippedDiff, ...rest } = clipped;
  return { ...parsed, clipped: clippedDiff === undefined || clippedDiff === '' ? rest : { ...rest, diff: parseUnifiedDiff(clippedDiff) } };
}

function indexOfBlock(blocks: readonly TranscriptBlock[], id: string): number {
  // Changes almost always hit the newest blocks, so search from the end.
  for (let i = blocks.length - 1; i >= 0; i--) if (blocks[i]!.id === id) return i;
  return -1;
}

function replaceAt(blocks: readonly TranscriptBlock[], i: number, block: TranscriptBlock): TranscriptBlock[] {
  const next = blocks.slice();
  next[i] = block;
  return next;
}

/**
 * Whether streaming blocks keep their pieces (StreamPieces). Only a view that lays the text out
 * as it grows reads them; without one (-p, --json, stream-json, ACP) they would keep every delta
 * alive beside the text, about the reply's size again. The full screen turns this on.
 */
let keepPieces = false;
export function keepStreamPieces(on: boolean): void {
  keepPieces = on;
}

/**
 * Whether streaming blocks keep their text. Without a view (-p, --json, stream-json) nothing reads
 * it: the answer goes out as deltas and lives on in the history, and this copy was the reply's
 * size again for as long as the run lasted. One-shot mode turns it off; the blocks then stay empty.
 */
let keepText = true;
export function keepStreamedText(on: boolean): void {
  keepText = on;
}

function appendText(
  state: SessionState,
  kind: 'assistant' | 'reasoning',
  id: string,
  text: string,
): SessionState {
  const i = indexOfBlock(state.blocks, id);
  if (!keepText) text = '';
  if (i < 0) {
    const block: TranscriptBlock = { kind, id, version: 0, text, streaming: true, ...(keepPieces ? { stream: { list: [text], count: 1 } } : {}) };
    return { ...state, blocks: [...state.blocks, block] };
  }
  const old = state.blocks[i]!;
  if (old.kind !== kind) return state;
  if (!keepText) return state;
  const grown = appendStreamed(old, old.text, text);
  const stream = keepPieces && old.streaming ? grow(old.stream, old.text, text) : undefined;
  const block = { ...old, text: grown.text, version: old.version + 1, ...(stream ? { stream } : {}) };
  grown.keep(block);
  return { ...state, blocks: replaceAt(state.blocks, i, block) };
}

/** The pieces with one more: appended in place while this version is the newest (see StreamPieces). */
function grow(pieces: StreamPieces | undefined, before: string, text: string): StreamPieces {
  if (pieces === undefined) return { list: before === '' ? [text] : [before, text], count: before === '' ? 1 : 2 };
  if (pieces.list.length === pieces.count) {
    (pieces.list as string[]).push(text);
    return { list: pieces.list, count: pieces.count + 1 };
  }
  // An older version grows (not done by the engine; kept correct anyway): it gets its own list.
  const list = pieces.list.slice(0, pieces.count);
  list.push(text);
  return { list, count: list.length };
}

function endStreaming(block: TranscriptBlock): TranscriptBlock {
  if ((block.kind === 'assistant' || block.kind === 'reasoning') && block.streaming) {
    const { stream: _done, ...rest } = block;
    return { ...rest, streaming: false, version: block.version + 1 };
  }
  return block;
}

export function reduce(state: SessionState, event: EngineEvent): SessionState {
  switch (event.type) {
    case 'session.reset':
      // A new or resumed session does not stop the index building in the background.
      return event.state.indexing === undefined && state.indexing !== undefined ? { ...event.state, indexing: state.indexing } : event.state;
    case 'settings':
      return { ...state, ...event.patch };
    case 'turn.start': {
      const block: TranscriptBlock = { kind: 'user', id: event.blockId, version: 0, text: event.text };
      return { ...state, busy: true, blocks: [...state.blocks, block] };
    }
    case 'assistant.delta':
      return appendText(state, 'assistant', event.blockId, event.text);
    case 'reasoning.delta':
      return appendText(state, 'reasoning', event.blockId, event.text);
    case 'block.end': {
      const i = indexOfBlock(state.blocks, event.blockId);
      if (i < 0) return state;
      const ended = endStreaming(state.blocks[i]!);
      return ended === state.blocks[i] ? state : { ...state, blocks: replaceAt(state.blocks, i, ended) };
    }
    case 'tool.start': {
      const block: TranscriptBlock = {
        kind: 'tool',
        id: event.blockId,
        version: 0,
        callId: event.callId,
        name: event.name,
        title: event.title,
        ...(event.detail !== undefined ? { detail: event.detail } : {}),
        status: 'running',
        output: '',
      };
      return { ...state, blocks: [...state.blocks, block] };
    }
    case 'tool.output': {
      const i = indexOfBlock(state.blocks, event.blockId);
      const old = i < 0 ? undefined : state.blocks[i];
      if (!old || old.kind !== 'tool') return state;
      const output = (old.output + event.text).slice(-TOOL_OUTPUT_TAIL_CHARS);
      // Counted as it comes: the tail is cut, and "… N earlier lines" must be N of all of them.
      const outputLines = (old.outputLines ?? 0) + newlines(event.text);
      return { ...state, blocks: replaceAt(state.blocks, i, { ...old, output, outputLines, version: old.version + 1 }) };
    }
    case 'tool.end': {
      const i = indexOfBlock(state.blocks, event.blockId);
      const old = i < 0 ? undefined : state.blocks[i];
      if (!old || old.kind !== 'tool') return state;
      const block: TranscriptBlock = {
        ...old,
        status: event.status,
        resultSummary: event.summary,
        ...(event.change ? { change: parsedChange(event.change) } : {}),
        ...(event.failure ? { failure: event.failure } : {}),
        version: old.version + 1,
      };
      return { ...state, blocks: replaceAt(state.blocks, i, block) };
    }
    case 'assistant.message':
      return state;
    case 'approval.request':
      return { ...state, pendingApproval: parsedApproval(event.request) };
    case 'approval.resolved':
      return state.pendingApproval?.id === event.id ? { ...state, pendingApproval: null } : state;
    case 'usage':
      return { ...state, lastUsage: event.lastUsage, sessionUsage: event.sessionUsage, sessionCost: event.sessionCost };
    case 'context':
      return { ...state, context: event.gauge };
    case 'commands':
      return { ...state, commands: event.commands };
    case 'question.request':
      return { ...state, pendingQuestion: event.question };
    case 'question.resolved':
      return state.pendingQuestion?.id === event.id ? { ...state, pendingQuestion: null } : state;
    case 'budget':
      return { ...state, budget: event.gauge };
    case 'indexing': {
      const old = state.indexing ?? null;
      const next = event.progress;
      if (old === next || (old && next && old.done === next.done && old.total === next.total)) return state;
      return { ...state, indexing: next };
    }
    case 'save':
      return (state.saveError ?? null) === event.error ? state : { ...state, saveError: event.error };
    case 'notice': {
      const block: TranscriptBlock = { kind: 'notice', id: event.blockId, version: 0, level: event.level, text: event.text };
      return { ...state, blocks: [...state.blocks, block] };
    }
    case 'turn.end': {
      // Anything of this turn still streaming or running (an interrupt, a failure) ends with it.
      let blocks = state.blocks;
      for (let i = blocks.length - 1; i >= 0 && blocks[i]!.kind !== 'user'; i--) {
        const b = blocks[i]!;
        const ended = b.kind === 'tool' && b.status === 'running' ? { ...b, status: 'interrupted' as const, version: b.version + 1 } : endStreaming(b);
        if (ended !== b) blocks = replaceAt(blocks, i, ended);
      }
      const end: TranscriptBlock = { kind: 'turn_end', id: event.blockId, version: 0, status: event.status };
      const withDetail: TranscriptBlock = event.detail === undefined ? end : { ...end, detail: event.detail };
      return { ...state, busy: false, pendingApproval: null, ...(state.pendingQuestion ? { pendingQuestion: null } : {}), blocks: [...blocks, withDetail] };
    }
    default: {
      const unhandled: never = event;
      return unhandled;
    }
  }
}
