/**
 * Newline-delimited JSON, the framing of Ollama's native streams: one JSON object a line. Lines
 * come out as SseMessage-shaped frames so the stream runner treats both framings alike; TCP
 * chunks that split a line or a UTF-8 character are joined first.
 */
import { MAX_EVENT_CHARS, type SseMessage } from './sse-reader.js';
import { ProviderError } from './types.js';

export class NdjsonParser {
  private readonly decoder = new TextDecoder('utf-8');
  /** The unfinished line, in pieces (joined once, at its end). */
  private pending: string[] = [];
  private pendingChars = 0;
  private readonly maxLineChars: number;

  constructor(opts: { maxLineChars?: number } = {}) {
    this.maxLineChars = opts.maxLineChars ?? MAX_EVENT_CHARS;
  }

  /** Characters of the line in progress: a long line arriving slowly is progress, not silence. */
  get pendingEventChars(): number {
    return this.pendingChars;
  }

  push(chunk: Uint8Array): readonly SseMessage[] {
    return this.pushText(this.decoder.decode(chunk, { stream: true }));
  }

  pushText(text: string): readonly SseMessage[] {
    const out: SseMessage[] = [];
    let pos = 0;
    for (let nl = text.indexOf('\n'); nl !== -1; nl = text.indexOf('\n', pos)) {
      this.emit(this.take(text.slice(pos, nl)), out);
      pos = nl + 1;
    }
    if (pos < text.length) {
      this.pending.push(text.slice(pos));
      this.pendingChars += text.length - pos;
      if (this.pendingChars > this.maxLineChars) {
        this.pending = [];
        this.pendingChars = 0;
        const mb = Math.round(this.maxLineChars / (1024 * 1024));
        throw new ProviderError('malformed', `The provider sent a stream line larger than ${mb} MB without ending it; gave up reading it.`);
      }
    }
    return out;
  }

  /** End of stream: a last line without its newline still counts. */
  end(): readonly SseMessage[] {
    const out: SseMessage[] = [...this.pushText(this.decoder.decode())];
    if (this.pendingChars > 0) this.emit(this.take(''), out);
    return out;
  }

  private take(tail: string): string {
    if (this.pending.length === 0) return tail;
    this.pending.push(tail);
    const line = this.pending.join('');
    this.pending = [];
    this.pendingChars = 0;
    return line;
  }

  private emit(line: string, out: SseMessage[]): void {
    const data = line.trim();
    if (data.length > 0) out.push({ event: 'message', data });
  }
}
