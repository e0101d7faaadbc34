import { describe, expect, it } from 'vitest';
import { SseParser, type SseMessage } from '../../src/providers/sse-reader.js';

function parseChunks(chunks: readonly Uint8Array[]): { messages: SseMessage[]; comments: number } {
  const p = new SseParser();
  const messages: SseMessage[] = [];
  for (const c of chunks) messages.push(...p.push(c));
  messages.push(...p.end());
  return { messages, comments: p.comments };
}

const enc = new TextEncoder();

/** Every way of cutting the byte stream in two, plus one-byte chunks. */
function everySplit(text: string): Uint8Array[][] {
  const bytes = enc.encode(text);
  const out: Uint8Array[][] = [];
  for (let i = 0; i <= bytes.length; i++) out.push([bytes.subarray(0, i), bytes.subarray(i)]);
  out.push(Array.from(bytes, (b) => Uint8Array.of(b)));
  return out;
}

describe('SseParser', () => {
  const stream =
    ': keep-alive\r\n\r\n' +
    'event: content_block_delta\r\n' +
    'data:{"text":"東京 🐉"}\r\n\r\n' +
    'data: line one\r\n' +
    'data: line two\r\n' +
    '\r\n' +
    'id: 7\r\nretry: 1000\r\ndata: [DONE]\r\n\r\n';
  const expected: SseMessage[] = [
    { event: 'content_block_delta', data: '{"text":"東京 🐉"}' },
    { event: 'message', data: 'line one\nline two' },
    { event: 'message', data: '[DONE]' },
  ];

  it('gives the same events however the bytes are split (inside UTF-8 characters and CRLF pairs too)', () => {
    for (const chunks of everySplit(stream)) {
      const { messages, comments } = parseChunks(chunks);
      expect(messages).toEqual(expected);
      expect(comments).toBe(1);
    }
  });

  it('accepts LF and bare CR line endings alike', () => {
    for (const eol of ['\n', '\r']) {
      const text = stream.replaceAll('\r\n', eol);
      for (const chunks of everySplit(text)) expect(parseChunks(chunks).messages).toEqual(expected);
    }
  });

  it('strips exactly one space after the colon, and keeps the rest', () => {
    const { messages } = parseChunks([enc.encode('data:  two spaces\n\ndata:none\n\ndata\n\n')]);
    expect(messages.map((m) => m.data)).toEqual([' two spaces', 'none', '']);
  });

  it('ignores events with no data and resets the event name after each dispatch', () => {
    const { messages } = parseChunks([enc.encode('event: ping\n\nevent: error\ndata: {"x":1}\n\ndata: after\n\n')]);
    expect(messages).toEqual([
      { event: 'error', data: '{"x":1}' },
      { event: 'message', data: 'after' },
    ]);
  });

  it('dispatches a final event whose blank line never came, and skips a leading BOM', () => {
    const { messages } = parseChunks([enc.encode('\uFEFFdata: a\n\ndata: tail')]);
    expect(messages.map((m) => m.data)).toEqual(['a', 'tail']);
  });

  it('does not treat CR at a chunk end followed by a non-LF as a doubled line end', () => {
    const { messages } = parseChunks([enc.encode('data: a\r'), enc.encode('\r'), enc.encode('data: b\r\r')]);
    expect(messages.map((m) => m.data)).toEqual(['a', 'b']);
  });
});

describe('SseParser size cap', () => {
  it('refuses a line that never ends once it outgrows the cap, however it is split', () => {
    const p = new SseParser({ maxEventChars: 1000 });
    p.push(enc.encode('data: '));
    const piece = enc.encode('x'.repeat(300));
    expect(() => {
      for (let i = 0; i < 10; i++) p.push(piece);
    }).toThrow(/larger than .* without ending it/);
  });

  it('refuses an event whose data lines add up past the cap, and parses one just under it', () => {
    const many = 'data: ' + 'y'.repeat(99) + '\n';
    const over = new SseParser({ maxEventChars: 1000 });
    expect(() => over.pushText(many.repeat(11))).toThrow(/larger than/);
    const under = new SseParser({ maxEventChars: 1000 });
    const msgs = [...under.pushText(many.repeat(9)), ...under.pushText('\n')];
    expect(msgs).toHaveLength(1);
    expect(msgs[0]?.data.length).toBe(9 * 99 + 8);
  });

  it('reassembles a long line sent in many small chunks into exactly the original text', () => {
    const payload = JSON.stringify({ text: 'é'.repeat(5000) + '🐉'.repeat(3000) });
    const bytes = enc.encode(`data: ${payload}\r\n\r\n`);
    const chunks: Uint8Array[] = [];
    for (let i = 0; i < bytes.length; i += 7) chunks.push(bytes.subarray(i, i + 7));
    expect(parseChunks(chunks).messages).toEqual([{ event: 'message', data: payload }]);
  });
});
