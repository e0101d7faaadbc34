/**
 * Assembles an OpenAI chat-completions stream into neutral events, tolerating what compatible
 * servers actually send (WIRE.md §4.2): calls by index or whole in one chunk, arguments as an
 * object, missing or empty ids, empty `choices`, usage on any chunk (or inside the choice, as
 * Moonshot puts it) or on none, content as an array of parts (Mistral), a refusal in its own
 * field, and Gemini's per-call `extra_content`, which must go back with the call.
 */
import type { AssemblerOptions, StreamAssembler } from './stream-runner.js';
import type { SseMessage } from './sse-reader.js';
import { clip, messageOf, unreadableEvent } from './errors.js';
import { TextBuffer } from './text-buffer.js';
import { parseToolInput } from './tool-input.js';
import { ToolIds } from './tool-ids.js';
import { ProviderError, ZERO_USAGE, type AssistantMessage, type ContentBlock, type ReasoningEcho, type StopReason, type StreamEvent, type Usage } from './types.js';
import { openaiUsage, UNREPORTED_USAGE } from './usage.js';
import { contentParts } from './openai-parts.js';

type Obj = Record<string, unknown>;

interface Slot {
  readonly ordinal: number;
  /** The index the server gave the call, when it gave one. */
  wireIndex?: number;
  /** The id as the server sent it: later fragments of the call are matched by it. */
  wireId?: string;
  /** The id the call is kept under (tool-ids.ts: unique in the conversation, of sane length). */
  id?: string;
  name?: string;
  args: TextBuffer;
  started: boolean;
  extra?: Record<string, unknown>;
}

export class OpenAiAssembler implements StreamAssembler {
  // TextBuffers, not strings grown by `+=`: see text-buffer.ts.
  private readonly text = new TextBuffer();
  private readonly refusal = new TextBuffer();
  private sawUsage = false;
  private readonly ids: ToolIds;
  private readonly reasoning = { reasoning_content: undefined as TextBuffer | undefined, reasoning: undefined as TextBuffer | undefined };
  private details: Obj[] | undefined;
  private readonly slots: Slot[] = [];
  private readonly byIndex = new Map<number, Slot>();
  private usage: Usage = ZERO_USAGE;
  private finishReason: string | undefined;
  private done = false;

  constructor(private readonly opts: AssemblerOptions = {}) {
    this.ids = new ToolIds(opts.usedIds, opts.note);
  }

  feed(msg: SseMessage): readonly StreamEvent[] {
    if (this.done) return [];
    if (msg.data === '[DONE]') {
      this.done = true;
      return [];
    }
    let chunk: Obj;
    try {
      chunk = JSON.parse(msg.data) as Obj;
    } catch {
      throw unreadableEvent(msg, this.partial());
    }
    if (msg.event === 'error' || chunk['error'] !== undefined || chunk['object'] === 'error') {
      const text = messageOf(chunk) ?? clip(msg.data);
      throw new ProviderError('server', `The provider reported an error mid-answer: ${text}`, undefined, this.partial());
    }
    const out: StreamEvent[] = [];
    const choices = Array.isArray(chunk['choices']) ? (chunk['choices'] as Obj[]) : [];
    const choice = choices[0];
    if (choice) {
      const delta = (choice['delta'] ?? {}) as Obj;
      this.readReasoning(delta, out);
      if (typeof delta['content'] === 'string') this.addText(delta['content'], out);
      else if (Array.isArray(delta['content'])) {
        for (const part of contentParts(delta['content'])) {
          if (part.kind === 'text') this.addText(part.text, out);
          else out.push({ type: 'thinking_delta', text: part.text });
        }
      }
      if (typeof delta['refusal'] === 'string' && delta['refusal'].length > 0) {
        // The refusal is what the model said instead of an answer: shown, and kept as its reply.
        this.refusal.append(delta['refusal']);
        out.push({ type: 'text_delta', text: delta['refusal'] });
      }
      if (Array.isArray(delta['tool_calls'])) for (const tc of delta['tool_calls'] as Obj[]) this.readToolCall(tc, out);
      if (typeof choice['finish_reason'] === 'string' && choice['finish_reason'].length > 0) this.finishReason = choice['finish_reason'];
    }
    const raw = chunk['usage'] ?? choice?.['usage'];
    const usage = raw === null || raw === undefined ? undefined : openaiUsage(raw, this.opts.note);
    if (usage) {
      this.sawUsage = true;
      this.usage = usage;
      out.push({ type: 'usage', usage });
    }
    return out;
  }

  private addText(text: string, out: StreamEvent[]): void {
    if (text.length === 0) return;
    const sealed = this.text.append(text);
    out.push(sealed !== undefined ? { type: 'text_delta', text, sealed } : { type: 'text_delta', text });
  }

  finish(): readonly StreamEvent[] {
    if (this.finishReason === undefined && !this.done) {
      throw new ProviderError('truncated', 'The answer was cut off: the stream ended without a finish reason.', undefined, this.partial());
    }
    const out: StreamEvent[] = [];
    const message = this.message(true, out);
    const reason = this.stopReason(message);
    // A server that ignores stream_options sends no usage at all: unknown, not zero.
    const usage = this.sawUsage ? this.usage : UNREPORTED_USAGE;
    const refusal = this.refusal.toString().trim();
    const why = refusal ? clip(refusal, 1000) : this.finishReason === 'content_filter' ? "the provider's content filter stopped the answer (finish_reason content_filter)" : undefined;
    const explanation = reason === 'refusal' && why ? { explanation: why } : {};
    out.push({ type: 'stop', reason, message, usage, ...explanation });
    return out;
  }

  partial(): AssistantMessage | undefined {
    const m = this.message(false, []);
    return m.content.length > 0 || m.reasoningEcho ? m : undefined;
  }

  private readReasoning(delta: Obj, out: StreamEvent[]): void {
    let shown: string | undefined;
    for (const field of ['reasoning_content', 'reasoning'] as const) {
      const v = delta[field];
      if (typeof v === 'string') {
        (this.reasoning[field] ??= new TextBuffer()).append(v);
        shown ??= v;
      }
    }
    const details = delta['reasoning_details'];
    if (Array.isArray(details)) {
      this.details ??= [];
      let fromDetails = '';
      for (const d of details as Obj[]) {
        mergeDetail(this.details, d);
        if (typeof d['text'] === 'string') fromDetails += d['text'];
        else if (typeof d['summary'] === 'string') fromDetails += d['summary'];
      }
      shown ??= fromDetails;
    }
    if (shown) out.push({ type: 'thinking_delta', text: shown });
  }

  private readToolCall(tc: Obj, out: StreamEvent[]): void {
    const fn = (tc['function'] ?? {}) as Obj;
    const id = typeof tc['id'] === 'string' && tc['id'].length > 0 ? tc['id'] : undefined;
    const name = typeof fn['name'] === 'string' && fn['name'].length > 0 ? fn['name'] : undefined;
    const index = typeof tc['index'] === 'number' ? tc['index'] : undefined;
    const slot = this.slotFor(index, id, name);
    if (index !== undefined) slot.wireIndex ??= index;
    if (id && !slot.started) slot.wireId = id;
    if (name) slot.name = name;
    const extra = tc['extra_content'];
    if (typeof extra === 'object' && extra !== null && !Array.isArray(extra)) slot.extra = { ...slot.extra, ...(extra as Obj) };
    if (!slot.started && slot.name) {
      slot.started = true;
      slot.id = this.ids.claim(slot.wireId);
      out.push({ type: 'tool_call_start', index: slot.ordinal, id: slot.id, name: slot.name });
    }
    const args = fn['arguments'];
    if (typeof args === 'string') {
      if (args.length === 0) return;
      slot.args.append(args);
      if (slot.started) out.push({ type: 'tool_call_delta', index: slot.ordinal, fragment: args });
    } else if (args !== undefined && args !== null) {
      // llama.cpp / TGI send the object itself: it replaces, it cannot be concatenated.
      const whole = JSON.stringify(args);
      slot.args.set(whole);
      if (slot.started) out.push({ type: 'tool_call_delta', index: slot.ordinal, fragment: whole });
    }
  }

  /** WIRE.md §4.2 rule 3: index when numeric; otherwise a known id, a new id or name opens a slot. */
  private slotFor(index: number | undefined, id: string | undefined, name: string | undefined): Slot {
    // A known id continues its call, unless the server numbered this fragment as another call:
    // then two calls share one id, and the second gets its own slot (and a fresh id on claim).
    const known = id ? this.slots.find((s) => s.wireId === id && (index === undefined || s.wireIndex === undefined || s.wireIndex === index)) : undefined;
    if (known) return known;
    if (index !== undefined) {
      const existing = this.byIndex.get(index);
      // Servers that number every parallel call 0: a new id, or a second name, is a new call.
      const clash = existing && ((id && existing.wireId && existing.wireId !== id) || (name && existing.name && !id));
      if (existing && !clash) return existing;
      const slot = this.newSlot();
      this.byIndex.set(index, slot);
      return slot;
    }
    const last = this.slots[this.slots.length - 1];
    if (!last || id || (name && last.name)) return this.newSlot();
    return last;
  }

  private newSlot(): Slot {
    const slot: Slot = { ordinal: this.slots.length, args: new TextBuffer(), started: false };
    this.slots.push(slot);
    return slot;
  }

  private message(final: boolean, out: StreamEvent[]): AssistantMessage {
    const content: ContentBlock[] = [];
    const text = this.refusal.length > 0 ? this.text.toString() + this.refusal.toString() : this.text.toString();
    if (text.length > 0) content.push({ type: 'text', text });
    for (const s of this.slots) {
      if (!s.name) continue;
      const id = (s.id ??= this.ids.claim(s.wireId));
      const parsed = parseToolInput(s.args.toString());
      // Once final, the arguments live on as the parsed input only.
      if (final) s.args.set('');
      if (!final && parsed.inputError) continue; // half-streamed arguments are not a call
      const extra = parsed.inputError ? { inputError: parsed.inputError } : {};
      const wire = s.extra ? { extraContent: s.extra } : {};
      const repairs = parsed.repairs ? { repairs: parsed.repairs } : {};
      content.push({ type: 'tool_use', id, name: s.name, input: parsed.input, ...extra, ...wire });
      if (final) out.push({ type: 'tool_call_end', index: s.ordinal, id, name: s.name, input: parsed.input, ...extra, ...repairs });
    }
    const echo = this.echo();
    return echo ? { role: 'assistant', content, reasoningEcho: echo } : { role: 'assistant', content };
  }

  /** The reasoning in the field the server used; OpenRouter's details win since they must go back whole. */
  private echo(): ReasoningEcho | undefined {
    if (this.details) return { field: 'reasoning_details', value: this.details };
    if (this.reasoning.reasoning_content !== undefined) return { field: 'reasoning_content', value: this.reasoning.reasoning_content.toString() };
    if (this.reasoning.reasoning !== undefined) return { field: 'reasoning', value: this.reasoning.reasoning.toString() };
    return undefined;
  }

  private stopReason(message: AssistantMessage): StopReason {
    const f = this.finishReason;
    if (f === 'length') return 'max_tokens';
    if (this.refusal.toString().trim() && !message.content.some((b) => b.type === 'tool_use')) return 'refusal';
    // Some servers say "stop" after tool calls (LiteLLM over Ollama): the calls decide.
    if (message.content.some((b) => b.type === 'tool_use')) return 'tool_use';
    if (f === 'stop' || f === 'tool_calls' || f === undefined) return 'end_turn';
    if (f === 'content_filter') return 'refusal';
    return 'other';
  }
}

/** Streamed reasoning_details arrive as pieces of the same entry (same index and type): join them. */
function mergeDetail(into: Obj[], d: Obj): void {
  const prev = into.find((p) => p['index'] === d['index'] && p['type'] === d['type'] && d['index'] !== undefined);
  if (!prev) {
    into.push({ ...d });
    return;
  }
  for (const [k, v] of Object.entries(d)) {
    if ((k === 'text' || k === 'summary' || k === 'data') && typeof v === 'string') prev[k] = String(prev[k] ?? '') + v;
    else if (v !== null && v !== undefined) prev[k] = v;
  }
}
