/**
 * Server-sent events parser following the WHATWG rules rather than splitting on "\n\n": real
 * servers send CRLF (sse-starlette, Azure), bare CR, comments while queued, `data:` without the
 * space, multi-line data, and TCP chunks that split lines, CRLF pairs and UTF-8 characters.
 */

export interface SseMessage {
  /** The `event:` name, 'message' when none was given. */
  readonly event: string;
  readonly data: string;
}

const LF = 10;
const CR = 13;

export class SseParser {
  private readonly decoder = new TextDecoder('utf-8');
  private pending = '';
  /** The previous chunk ended in CR: a LF at the start of the next one belongs to it. */
  private skipLf = false;
  private sawBom = false;
  private eventName = '';
  private dataLines: string[] = [];
  private out: SseMessage[] = [];
  /** Comment lines seen so far (`: keep-alive`); callers may treat them as signs of life. */
  comments = 0;

  /** Feeds raw bytes; returns the events completed by them. */
  push(chunk: Uint8Array): readonly SseMessage[] {
    return this.pushText(this.decoder.decode(chunk, { stream: true }));
  }

  /** Feeds already-decoded text (tests, recordings). */
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
    const s = this.pending.length > 0 ? this.pending + text : text;
    let pos = 0;
    // indexOf is far faster than a char loop; a CR search is repeated only while CRs remain.
    let nextCr = s.indexOf('\r');
    for (;;) {
      const nextLf = s.indexOf('\n', pos);
      if (nextCr !== -1 && nextCr < pos) nextCr = s.indexOf('\r', pos);
      let end: number;
      if (nextLf === -1 && nextCr === -1) break;
      if (nextCr === -1 || (nextLf !== -1 && nextLf < nextCr)) end = nextLf;
      else end = nextCr;
      this.line(s.slice(pos, end));
      if (s.charCodeAt(end) === CR) {
        if (end + 1 === s.length) {
          this.skipLf = true;
          pos = end + 1;
          break;
        }
        pos = s.charCodeAt(end + 1) === LF ? end + 2 : end + 1;
      } else pos = end + 1;
    }
    this.pending = pos < s.length ? s.slice(pos) : '';
    return this.take();
  }

  /**
   * End of stream. The spec drops an event not closed by a blank line; servers that omit the last
   * blank line exist, so a pending complete field is still dispatched.
   */
  end(): readonly SseMessage[] {
    const rest = this.decoder.decode();
    if (rest.length > 0) this.pushText(rest);
    if (this.pending.length > 0) {
      this.line(this.pending);
      this.pending = '';
    }
    this.dispatch();
    return this.take();
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
    if (field === 'data') this.dataLines.push(value);
    else if (field === 'event') this.eventName = value;
    // id and retry are irrelevant to a one-shot POST stream.
  }

  private dispatch(): void {
    if (this.dataLines.length === 0) {
      this.eventName = '';
      return;
    }
    const data = this.dataLines.length === 1 ? (this.dataLines[0] ?? '') : this.dataLines.join('\n');
    this.out.push({ event: this.eventName || 'message', data });
    this.dataLines = [];
    this.eventName = '';
  }
}

const EMPTY: readonly SseMessage[] = Object.freeze([]);
