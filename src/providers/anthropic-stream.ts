/**
 * Assembles an Anthropic Messages event stream into neutral events and the final assistant
 * message, keeping thinking, signatures and redacted_thinking exactly as they arrived.
 */
import type { StreamAssembler } from './stream-runner.js';
import type { SseMessage } from './sse-reader.js';
import { clip, unreadableEvent } from './errors.js';
import { generateToolId, parseToolInput } from './tool-input.js';
import { ProviderError, ZERO_USAGE, type AssistantMessage, type ContentBlock, type StopReason, type StreamEvent, type Usage } from './types.js';
import { mergeAnthropicUsage } from './usage.js';

type Block =
  | { kind: 'text'; text: string }
  | { kind: 'thinking'; thinking: string; signature?: string }
  | { kind: 'redacted'; data: string }
  | { kind: 'tool'; ordinal: number; id: string; name: string; json: string; done?: ContentBlock };

type Obj = Record<string, unknown>;

const STOP: Record<string, StopReason> = {
  end_turn: 'end_turn',
  tool_use: 'tool_use',
  max_tokens: 'max_tokens',
  model_context_window_exceeded: 'max_tokens',
  stop_sequence: 'stop_sequence',
  refusal: 'refusal',
};

export class AnthropicAssembler implements StreamAssembler {
  private readonly blocks = new Map<number, Block>();
  private usage: Usage = ZERO_USAGE;
  private stopReason: string | undefined;
  private stopped = false;
  private tools = 0;

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
      case 'message_start': {
        const message = data['message'] as Obj | undefined;
        this.usage = mergeAnthropicUsage(this.usage, message?.['usage']);
        return [{ type: 'usage', usage: this.usage }];
      }
      case 'content_block_start':
        return this.start(Number(data['index']), (data['content_block'] ?? {}) as Obj);
      case 'content_block_delta':
        return this.delta(Number(data['index']), (data['delta'] ?? {}) as Obj);
      case 'content_block_stop':
        return this.stop(Number(data['index']));
      case 'message_delta': {
        const delta = data['delta'] as Obj | undefined;
        if (typeof delta?.['stop_reason'] === 'string') this.stopReason = delta['stop_reason'];
        if (data['usage'] === undefined) return [];
        this.usage = mergeAnthropicUsage(this.usage, data['usage']);
        return [{ type: 'usage', usage: this.usage }];
      }
      case 'message_stop':
        this.stopped = true;
        return [{ type: 'stop', reason: STOP[this.stopReason ?? ''] ?? 'other', message: this.message(), usage: this.usage }];
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
    throw new ProviderError(
      'truncated',
      'The answer was cut off: the stream ended before message_stop.',
      undefined,
      this.partial(),
    );
  }

  partial(): AssistantMessage | undefined {
    const m = this.message();
    return m.content.length > 0 ? m : undefined;
  }

  private start(index: number, cb: Obj): StreamEvent[] {
    switch (cb['type']) {
      case 'text':
        this.blocks.set(index, { kind: 'text', text: str(cb['text']) });
        return cb['text'] ? [{ type: 'text_delta', text: str(cb['text']) }] : [];
      case 'thinking': {
        const b: Block = { kind: 'thinking', thinking: str(cb['thinking']) };
        if (typeof cb['signature'] === 'string') b.signature = cb['signature'];
        this.blocks.set(index, b);
        return b.thinking ? [{ type: 'thinking_delta', text: b.thinking }] : [];
      }
      case 'redacted_thinking':
        this.blocks.set(index, { kind: 'redacted', data: str(cb['data']) });
        return [];
      case 'tool_use': {
        const b: Block = { kind: 'tool', ordinal: this.tools++, id: str(cb['id']) || generateToolId(), name: str(cb['name']), json: '' };
        this.blocks.set(index, b);
        return [{ type: 'tool_call_start', index: b.ordinal, id: b.id, name: b.name }];
      }
      default:
        return [];
    }
  }

  private delta(index: number, d: Obj): StreamEvent[] {
    const b = this.blocks.get(index);
    if (!b) return [];
    switch (d['type']) {
      case 'text_delta':
        if (b.kind !== 'text') return [];
        b.text += str(d['text']);
        return [{ type: 'text_delta', text: str(d['text']) }];
      case 'thinking_delta':
        if (b.kind !== 'thinking') return [];
        b.thinking += str(d['thinking']);
        return [{ type: 'thinking_delta', text: str(d['thinking']) }];
      case 'signature_delta':
        // Assigned, not appended: the signature arrives whole.
        if (b.kind === 'thinking') b.signature = str(d['signature']);
        return [];
      case 'input_json_delta': {
        if (b.kind !== 'tool') return [];
        const fragment = str(d['partial_json']);
        b.json += fragment;
        return fragment ? [{ type: 'tool_call_delta', index: b.ordinal, fragment }] : [];
      }
      default:
        return [];
    }
  }

  private stop(index: number): StreamEvent[] {
    const b = this.blocks.get(index);
    if (!b || b.kind !== 'tool' || b.done) return [];
    const parsed = parseToolInput(b.json);
    b.done = { type: 'tool_use', id: b.id, name: b.name, input: parsed.input, ...(parsed.inputError ? { inputError: parsed.inputError } : {}) };
    const repairs = parsed.repairs ? { repairs: parsed.repairs } : {};
    return [{ type: 'tool_call_end', index: b.ordinal, id: b.id, name: b.name, input: parsed.input, ...(parsed.inputError ? { inputError: parsed.inputError } : {}), ...repairs }];
  }

  private message(): AssistantMessage {
    const content: ContentBlock[] = [];
    for (const [, b] of [...this.blocks].sort((x, y) => x[0] - y[0])) {
      if (b.kind === 'text') {
        if (b.text.length > 0) content.push({ type: 'text', text: b.text });
      } else if (b.kind === 'thinking') {
        content.push(b.signature !== undefined ? { type: 'thinking', thinking: b.thinking, signature: b.signature } : { type: 'thinking', thinking: b.thinking });
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
