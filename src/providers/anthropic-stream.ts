/**
 * Assembles an Anthropic Messages event stream into neutral events and the final assistant
 * message, keeping thinking, signatures and redacted_thinking exactly as they arrived.
 *
 * Proxies do not always send the stream the API does: a block index used twice (a replayed
 * block, or every block numbered 0), deltas repeated after a block's stop, tool ids repeated or
 * kilobytes long. Blocks are kept in arrival order, a replay of a block already shown is neither
 * printed again nor kept twice, and ids are fixed as they arrive (tool-ids.ts).
 */
import type { AssemblerOptions, StreamAssembler } from './stream-runner.js';
import type { SseMessage } from './sse-reader.js';
import { clip, unreadableEvent } from './errors.js';
import { TextBuffer } from './text-buffer.js';
import { parseToolInput } from './tool-input.js';
import { ToolIds } from './tool-ids.js';
import { ProviderError, ZERO_USAGE, type AssistantMessage, type ContentBlock, type StopReason, type StreamEvent, type Usage } from './types.js';
import { mergeAnthropicUsage, UNREPORTED_USAGE } from './usage.js';

type Obj = Record<string, unknown>;

// Text and arguments in TextBuffers, not strings grown by `+=`: a reply of many megabytes in
// token-sized deltas would otherwise cost ten times its size (text-buffer.ts).
type Body =
  | { kind: 'text'; text: TextBuffer }
  | { kind: 'thinking'; text: TextBuffer; signature?: string }
  | { kind: 'redacted'; data: string }
  | { kind: 'tool'; ordinal: number; wireId: string; id: string; name: string; json: TextBuffer; done?: ContentBlock };

type Block = Body & {
  stopped: boolean;
  /** A second block under an index whose block was already streamed: shown only once it differs. */
  replayOf?: Block;
  /** The replay turned out to be new content (it stopped repeating its predecessor). */
  diverged?: boolean;
  /** Left out of the message: a replay that only repeated, or the original a longer replay replaced. */
  dropped?: boolean;
};

const STOP: Record<string, StopReason> = {
  end_turn: 'end_turn',
  tool_use: 'tool_use',
  max_tokens: 'max_tokens',
  model_context_window_exceeded: 'max_tokens',
  stop_sequence: 'stop_sequence',
  refusal: 'refusal',
};

export class AnthropicAssembler implements StreamAssembler {
  private readonly blocks: Block[] = [];
  private readonly byIndex = new Map<number, Block>();
  private usage: Usage = ZERO_USAGE;
  private sawUsage = false;
  private stopReason: string | undefined;
  private explanation: string | undefined;
  private stopped = false;
  private tools = 0;
  private readonly ids: ToolIds;

  constructor(private readonly opts: AssemblerOptions = {}) {
    this.ids = new ToolIds(opts.usedIds, opts.note);
  }

  feed(msg: SseMessage): readonly StreamEvent[] {
    if (this.stopped) return [];
    if (msg.event === 'ping') return [];
    let data: Obj;
    try {
      data = JSON.parse(msg.data) as Obj;
    } catch {
      throw unreadableEvent(msg, this.partial());
    }
    const type = msg.event === 'error' ? 'error' : typeof data['type'] === 'string' ? data['type'] : msg.event;
    switch (type) {
      case 'message_start':
        return this.readUsage((data['message'] as Obj | undefined)?.['usage']);
      case 'content_block_start':
        return this.start(Number(data['index']), (data['content_block'] ?? {}) as Obj);
      case 'content_block_delta':
        return this.delta(Number(data['index']), (data['delta'] ?? {}) as Obj);
      case 'content_block_stop':
        return this.stop(Number(data['index']));
      case 'message_delta': {
        const delta = data['delta'] as Obj | undefined;
        if (typeof delta?.['stop_reason'] === 'string') this.stopReason = delta['stop_reason'];
        // A refusal says why in stop_details (type "refusal", with an explanation).
        const details = delta?.['stop_details'] as Obj | undefined;
        if (typeof details?.['explanation'] === 'string' && details['explanation'].trim()) this.explanation = clip(details['explanation'], 1000);
        return this.readUsage(data['usage']);
      }
      case 'message_stop': {
        this.stopped = true;
        const usage = this.sawUsage ? this.usage : UNREPORTED_USAGE;
        const reason = STOP[this.stopReason ?? ''] ?? 'other';
        const explanation = reason === 'refusal' && this.explanation ? { explanation: this.explanation } : {};
        return [{ type: 'stop', reason, message: this.message(), usage, ...explanation }];
      }
      case 'error': {
        const err = (data['error'] ?? {}) as Obj;
        const errType = typeof err['type'] === 'string' ? err['type'] : 'error';
        const text = typeof err['message'] === 'string' ? clip(err['message'], 500) : clip(msg.data);
        const kind = errType === 'rate_limit_error' ? 'rate_limit' : errType === 'invalid_request_error' ? 'bad_request' : 'server';
        throw new ProviderError(kind, `The provider reported an error mid-answer (${errType}): ${text}`, undefined, this.partial());
      }
      default:
        return []; // new event types may appear; ignore them
    }
  }

  finish(): readonly StreamEvent[] {
    if (this.stopped) return [];
    throw new ProviderError('truncated', 'The answer was cut off: the stream ended before message_stop.', undefined, this.partial());
  }

  partial(): AssistantMessage | undefined {
    const m = this.message();
    return m.content.length > 0 ? m : undefined;
  }

  private readUsage(raw: unknown): StreamEvent[] {
    if (typeof raw !== 'object' || raw === null) return [];
    this.sawUsage = true;
    this.usage = mergeAnthropicUsage(this.usage, raw, this.opts.note);
    return [{ type: 'usage', usage: this.usage }];
  }

  private start(index: number, cb: Obj): StreamEvent[] {
    const prev = this.byIndex.get(index);
    const body = this.bodyOf(cb, prev);
    if (!body) return [];
    const block: Block = { ...body, stopped: false };
    if (prev && prev.kind === block.kind && prev.kind !== 'redacted') {
      // Same index, same kind: a replay unless it turns out to say something new.
      if (prev.kind === 'tool' && block.kind === 'tool' && prev.wireId !== block.wireId) this.claimTool(block);
      else block.replayOf = prev;
    } else if (block.kind === 'tool') this.claimTool(block);
    this.byIndex.set(index, block);
    this.blocks.push(block);
    if (block.kind === 'tool' && !block.replayOf) return [{ type: 'tool_call_start', index: block.ordinal, id: block.id, name: block.name }];
    if (block.kind !== 'text' && block.kind !== 'thinking') return [];
    const initial = block.text.toString();
    block.text = new TextBuffer();
    return this.appendText(block, initial);
  }

  private bodyOf(cb: Obj, prev: Block | undefined): Body | undefined {
    switch (cb['type']) {
      case 'text':
        return { kind: 'text', text: new TextBuffer(str(cb['text'])) };
      case 'thinking': {
        const signature = typeof cb['signature'] === 'string' ? { signature: cb['signature'] } : {};
        return { kind: 'thinking', text: new TextBuffer(str(cb['thinking'])), ...signature };
      }
      case 'redacted_thinking':
        // A byte-identical redacted block under the same index is the same block sent twice.
        if (prev?.kind === 'redacted' && prev.data === str(cb['data'])) return undefined;
        return { kind: 'redacted', data: str(cb['data']) };
      case 'tool_use': {
        const wireId = str(cb['id']);
        return { kind: 'tool', ordinal: -1, wireId, id: wireId, name: str(cb['name']), json: new TextBuffer() };
      }
      default:
        return undefined;
    }
  }

  private claimTool(block: Block & { kind: 'tool' }): void {
    block.ordinal = this.tools++;
    block.id = this.ids.claim(block.wireId);
  }

  private delta(index: number, d: Obj): StreamEvent[] {
    let b = this.byIndex.get(index);
    if (!b) return [];
    if (b.stopped && (b.kind === 'text' || b.kind === 'thinking')) {
      // Deltas for a block already closed: the block is being sent again.
      const replay: Block = { kind: b.kind, text: new TextBuffer(), stopped: false, replayOf: b };
      this.byIndex.set(index, replay);
      this.blocks.push(replay);
      b = replay;
    }
    switch (d['type']) {
      case 'text_delta':
        return b.kind === 'text' ? this.appendText(b, str(d['text'])) : [];
      case 'thinking_delta':
        return b.kind === 'thinking' ? this.appendText(b, str(d['thinking'])) : [];
      case 'signature_delta':
        // Assigned, not appended: the signature arrives whole.
        if (b.kind === 'thinking') b.signature = str(d['signature']);
        return [];
      case 'input_json_delta': {
        // A replayed tool block (same index, same id) repeats arguments already taken.
        if (b.kind !== 'tool' || b.replayOf || b.stopped) return [];
        const fragment = str(d['partial_json']);
        b.json.append(fragment);
        return fragment ? [{ type: 'tool_call_delta', index: b.ordinal, fragment }] : [];
      }
      default:
        return [];
    }
  }

  /** Appends streamed text, showing only what the user has not already seen. */
  private appendText(b: Block & { kind: 'text' | 'thinking' }, piece: string): StreamEvent[] {
    if (!piece) return [];
    const type = b.kind === 'text' ? 'text_delta' : 'thinking_delta';
    const sealed = b.text.append(piece);
    const orig = b.replayOf;
    if (!orig || b.diverged || (orig.kind !== 'text' && orig.kind !== 'thinking')) {
      return [type === 'text_delta' && sealed !== undefined ? { type, text: piece, sealed } : { type, text: piece }];
    }
    // Only a replayed block (a proxy's) compares whole texts.
    const replayed = b.text.toString();
    const original = orig.text.toString();
    if (original.startsWith(replayed)) return []; // still repeating what was shown
    b.diverged = true;
    if (replayed.startsWith(original)) {
      // The replay went on past the original: it replaces it, and only the rest is new.
      orig.dropped = true;
      const rest = replayed.slice(original.length);
      return rest ? [{ type, text: rest }] : [];
    }
    return [{ type, text: replayed }];
  }

  private stop(index: number): StreamEvent[] {
    const b = this.byIndex.get(index);
    if (!b || b.stopped) return [];
    b.stopped = true;
    if (b.replayOf && !b.diverged) {
      b.dropped = true; // it only repeated (part of) what was already there
      if (b.kind === 'thinking' && b.replayOf.kind === 'thinking' && b.signature && b.replayOf.signature === undefined) b.replayOf.signature = b.signature;
      return [];
    }
    if (b.kind !== 'tool' || b.done) return [];
    const parsed = parseToolInput(b.json.toString());
    // The arguments live on as the parsed input; their text is not needed again.
    b.json.set('');
    const extra = parsed.inputError ? { inputError: parsed.inputError } : {};
    const repairs = parsed.repairs ? { repairs: parsed.repairs } : {};
    b.done = { type: 'tool_use', id: b.id, name: b.name, input: parsed.input, ...extra };
    return [{ type: 'tool_call_end', index: b.ordinal, id: b.id, name: b.name, input: parsed.input, ...extra, ...repairs }];
  }

  private message(): AssistantMessage {
    const content: ContentBlock[] = [];
    for (const b of this.blocks) {
      if (b.dropped || (b.replayOf && !b.diverged)) continue;
      if (b.kind === 'text') {
        if (b.text.length > 0) content.push({ type: 'text', text: b.text.toString() });
      } else if (b.kind === 'thinking') {
        const thinking = b.text.toString();
        content.push(b.signature !== undefined ? { type: 'thinking', thinking, signature: b.signature } : { type: 'thinking', thinking });
      } else if (b.kind === 'redacted') content.push({ type: 'redacted_thinking', data: b.data });
      else if (b.done) content.push(b.done);
      else if (this.stopped) {
        // A tool block that never closed (cut by max_tokens): keep it, marked unusable.
        content.push({ type: 'tool_use', id: b.id, name: b.name, input: {}, inputError: 'The tool call was cut off before its arguments were complete.' });
      }
    }
    return { role: 'assistant', content };
  }
}

function str(v: unknown): string {
  return typeof v === 'string' ? v : '';
}
