/**
 * Assembles Ollama's native chat stream (one JSON object a line) into neutral events: content
 * and `thinking` arrive as pieces, each tool call arrives whole with its arguments as an object,
 * and the last line (`done: true`) carries the reason and the token counts.
 */
import { TextBuffer } from './text-buffer.js';
import { clip, unreadableEvent } from './errors.js';
import type { SseMessage } from './sse-reader.js';
import type { AssemblerOptions, StreamAssembler } from './stream-runner.js';
import { ToolIds } from './tool-ids.js';
import { parseToolInput } from './tool-input.js';
import { UNREPORTED_USAGE } from './usage.js';
import { ProviderError, ZERO_USAGE, type AssistantMessage, type ContentBlock, type StopReason, type StreamEvent, type Usage } from './types.js';

type Obj = Record<string, unknown>;

interface Call {
  readonly id: string;
  readonly name: string;
  readonly args: string;
}

export class OllamaAssembler implements StreamAssembler {
  // TextBuffers, not strings grown by `+=`: see text-buffer.ts.
  private readonly text = new TextBuffer();
  private thinking: TextBuffer | undefined;
  private readonly calls: Call[] = [];
  private usage: Usage = ZERO_USAGE;
  private doneReason: string | undefined;
  private done = false;
  private readonly ids: ToolIds;

  constructor(opts: AssemblerOptions = {}) {
    this.ids = new ToolIds(opts.usedIds, opts.note);
  }

  feed(msg: SseMessage): readonly StreamEvent[] {
    if (this.done) return [];
    let line: Obj;
    try {
      line = JSON.parse(msg.data) as Obj;
    } catch {
      throw unreadableEvent(msg, this.partial());
    }
    if (line['error'] !== undefined) {
      const err = line['error'];
      const text = typeof err === 'string' ? err : clip(JSON.stringify(err));
      throw new ProviderError('server', `The provider reported an error mid-answer: ${text}`, undefined, this.partial());
    }
    const out: StreamEvent[] = [];
    const message = (line['message'] ?? {}) as Obj;
    if (typeof message['thinking'] === 'string' && message['thinking'].length > 0) {
      (this.thinking ??= new TextBuffer()).append(message['thinking']);
      out.push({ type: 'thinking_delta', text: message['thinking'] });
    }
    if (typeof message['content'] === 'string' && message['content'].length > 0) {
      this.text.append(message['content']);
      out.push({ type: 'text_delta', text: message['content'] });
    }
    if (Array.isArray(message['tool_calls'])) for (const tc of message['tool_calls'] as Obj[]) this.readCall(tc, out);
    if (line['done'] === true) {
      this.done = true;
      this.doneReason = typeof line['done_reason'] === 'string' ? line['done_reason'] : undefined;
      // Old servers leave the counts out (a fully cached prompt): no measurement, not zero tokens.
      const counted = line['prompt_eval_count'] !== undefined || line['eval_count'] !== undefined;
      this.usage = counted ? { input: count(line['prompt_eval_count']), cacheRead: 0, cacheWrite: 0, output: count(line['eval_count']) } : UNREPORTED_USAGE;
      out.push({ type: 'usage', usage: this.usage });
    }
    return out;
  }

  finish(): readonly StreamEvent[] {
    if (!this.done) {
      throw new ProviderError('truncated', 'The answer was cut off: the stream ended before its last ("done") line.', undefined, this.partial());
    }
    const out: StreamEvent[] = [];
    const message = this.message(out);
    out.push({ type: 'stop', reason: this.stopReason(message), message, usage: this.usage });
    return out;
  }

  partial(): AssistantMessage | undefined {
    const m = this.message([]);
    return m.content.length > 0 || m.reasoningEcho ? m : undefined;
  }

  private readCall(tc: Obj, out: StreamEvent[]): void {
    const fn = (tc['function'] ?? {}) as Obj;
    const name = typeof fn['name'] === 'string' ? fn['name'] : '';
    if (!name) return;
    // Ids unique in the conversation: some builds number every reply's calls from call_0.
    const id = this.ids.claim(typeof tc['id'] === 'string' ? tc['id'] : undefined);
    const raw = fn['arguments'];
    const args = typeof raw === 'string' ? raw : raw === undefined || raw === null ? '' : JSON.stringify(raw);
    const index = this.calls.length;
    this.calls.push({ id, name, args });
    out.push({ type: 'tool_call_start', index, id, name });
    if (args) out.push({ type: 'tool_call_delta', index, fragment: args });
  }

  private message(out: StreamEvent[]): AssistantMessage {
    const content: ContentBlock[] = [];
    if (this.text.length > 0) content.push({ type: 'text', text: this.text.toString() });
    this.calls.forEach((c, index) => {
      const parsed = parseToolInput(c.args);
      const extra = parsed.inputError ? { inputError: parsed.inputError } : {};
      content.push({ type: 'tool_use', id: c.id, name: c.name, input: parsed.input, ...extra });
      const repairs = parsed.repairs ? { repairs: parsed.repairs } : {};
      out.push({ type: 'tool_call_end', index, id: c.id, name: c.name, input: parsed.input, ...extra, ...repairs });
    });
    // Kept in the field Ollama's OpenAI route uses, so a switch to it can echo it too.
    return this.thinking !== undefined
      ? { role: 'assistant', content, reasoningEcho: { field: 'reasoning', value: this.thinking.toString() } }
      : { role: 'assistant', content };
  }

  private stopReason(message: AssistantMessage): StopReason {
    if (this.doneReason === 'length') return 'max_tokens';
    return message.content.some((b) => b.type === 'tool_use') ? 'tool_use' : 'end_turn';
  }
}

function count(v: unknown): number {
  return typeof v === 'number' && Number.isFinite(v) ? v : 0;
}
