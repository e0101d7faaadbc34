/**
 * Server-sent events parser following the WHATWG rules rather than splitting on "\n\n": real
 * servers send CRLF (sse-starlette, Azure), bare CR, comments while queued, `data:` without the
 * space, multi-line data, and TCP chunks that split lines, CRLF pairs and UTF-8 characters.
 */
import { ProviderError } from './types.js';

export interface SseMessage {
  /** The `event:` name, 'message' when none was given. */
  readonly event: string;
  readonly data: string;
}

const LF = 10;
const CR = 13;

/** Default cap on one event (its pending line plus its data lines), in UTF-16 units. */
export const MAX_EVENT_CHARS = 64 * 1024 * 1024;

export interface SseParserOptions {
  readonly maxEventChars?: number;
}

export class SseParser {
  private readonly decoder = new TextDecoder('utf-8');
  /** The unfinished line, in pieces: joining only at its end keeps a huge line linear, not quadratic. */
  private pending: string[] = [];
  private pendingChars = 0;
  /** The previous chunk ended in CR: a LF at the start of the next one belongs to it. */
  private skipLf = false;
  private sawBom = false;
  private eventName = '';
  private dataLines: string[] = [];
  private dataChars = 0;
  private out: SseMessage[] = [];
  private readonly maxEventChars: number;
  /** Comment lines seen so far (`: keep-alive`); callers may treat them as signs of life. */
  comments = 0;
  /** The last `id:` seen (MCP resumes a broken stream from it with Last-Event-ID). */
  lastEventId = '';
  /** The last `retry:` seen, in ms: how long to wait before reconnecting. */
  retryMs: number | undefined;

  constructor(opts: SseParserOptions = {}) {
    this.maxEventChars = opts.maxEventChars ?? MAX_EVENT_CHARS;
  }

  /**
   * Characters of an event still arriving (its data lines so far, and an unfinished line that is
   * not a comment). A caller watching for a silent server counts growth here as progress, so a
   * huge event arriving slowly is not "idle" — while comments alone never are progress.
   */
  get pendingEventChars(): number {
    const comment = this.pending.length > 0 && (this.pending[0] ?? '').startsWith(':');
    return this.dataChars + (comment ? 0 : this.pendingChars);
  }

  /** Feeds raw bytes; returns the events completed by them. */
  push(chunk: Uint8Array): readonly SseMessage[] {
    return this.pushText(this.decoder.decode(chunk, { stream: true }));
  }

  /** Feeds already-decoded text (tests, recordings). Throws ProviderError when one event outgrows the cap. */
  pushText(input: string): readonly SseMessage[] {
    let text = input;
    if (!this.sawBom && text.length > 0) {
      this.sawBom = true;
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    }
    if (this.skipLf && text.length > 0) {
      if (text.charCodeAt(0) === LF) text = text.slice(1);
      this.skipLf = false;
    }
    // Only the new text is searched: the pending piece is known to hold no line end.
    let pos = 0;
    let nextCr = text.indexOf('\r');
    for (;;) {
      const nextLf = text.indexOf('\n', pos);
      if (nextCr !== -1 && nextCr < pos) nextCr = text.indexOf('\r', pos);
      let end: number;
      if (nextLf === -1 && nextCr === -1) break;
      if (nextCr === -1 || (nextLf !== -1 && nextLf < nextCr)) end = nextLf;
      else end = nextCr;
      this.line(this.takePending(text.slice(pos, end)));
      if (text.charCodeAt(end) === CR) {
        if (end + 1 === text.length) {
          this.skipLf = true;
          pos = end + 1;
          break;
        }
        pos = text.charCodeAt(end + 1) === LF ? end + 2 : end + 1;
      } else pos = end + 1;
    }
    if (pos < text.length) {
      this.pending.push(pos === 0 ? text : text.slice(pos));
      this.pendingChars += text.length - pos;
      this.checkSize();
    }
    return this.take();
  }

  /**
   * End of stream. The spec drops an event not closed by a blank line; servers that omit the last
   * blank line exist, so a pending complete field is still dispatched.
   */
  end(): readonly SseMessage[] {
    const rest = this.decoder.decode();
    if (rest.length > 0) this.pushText(rest);
    if (this.pendingChars > 0) this.line(this.takePending(''));
    this.dispatch();
    return this.take();
  }

  private takePending(tail: string): string {
    if (this.pending.length === 0) return tail;
    this.pending.push(tail);
    const line = this.pending.join('');
    this.pending = [];
    this.pendingChars = 0;
    return line;
  }

  /** A server that never ends a line (or an event) must not grow memory without bound. */
  private checkSize(): void {
    if (this.pendingChars + this.dataChars <= this.maxEventChars) return;
    const mb = Math.round(this.maxEventChars / (1024 * 1024));
    this.pending = [];
    this.dataLines = [];
    this.pendingChars = 0;
    this.dataChars = 0;
    throw new ProviderError('malformed', `The provider sent a stream event larger than ${mb} MB without ending it; gave up reading it.`);
  }

  private take(): readonly SseMessage[] {
    if (this.out.length === 0) return EMPTY;
    const out = this.out;
    this.out = [];
    return out;
  }

  private line(line: string): void {
    if (line.length === 0) {
      this.dispatch();
      return;
    }
    const colon = line.indexOf(':');
    if (colon === 0) {
      this.comments++;
      return;
    }
    let field: string;
    let value: string;
    if (colon === -1) {
      field = line;
      value = '';
    } else {
      field = line.slice(0, colon);
      value = line.charCodeAt(colon + 1) === 32 ? line.slice(colon + 2) : line.slice(colon + 1);
    }
    if (field === 'data') {
      this.dataLines.push(value);
      this.dataChars += value.length + 1;
      this.checkSize();
    }
    else if (field === 'event') this.eventName = value;
    // A model's one-shot POST stream ignores these; an MCP stream resumes with them.
    else if (field === 'id' && !value.includes('\0')) this.lastEventId = value;
    else if (field === 'retry' && /^\d+$/.test(value)) this.retryMs = Number(value);
  }

  private dispatch(): void {
    if (this.dataLines.length === 0) {
      this.eventName = '';
      return;
    }
    const data = this.dataLines.length === 1 ? (this.dataLines[0] ?? '') : this.dataLines.join('\n');
    this.out.push({ event: this.eventName || 'message', data });
    this.dataLines = [];
    this.dataChars = 0;
    this.eventName = '';
  }
}

const EMPTY: readonly SseMessage[] = Object.freeze([]);
