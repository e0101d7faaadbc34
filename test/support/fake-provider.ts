/**
 * A scripted model server for tests: real HTTP on 127.0.0.1 (port 0), real SSE in each wire
 * format's own shape, deltas split into small pieces, every request recorded.
 *
 * API (stable; other areas' tests depend on it):
 *
 *   const fake = await startFakeProvider({ format: 'anthropic' | 'openai', replies });
 *   // replies: ScriptedReply[] (one per POST, in order) or (req, index) => ScriptedReply
 *   preset.baseUrl = fake.baseUrl;   // anthropic: POST {baseUrl}/v1/messages
 *                                    // openai:    POST {baseUrl}/chat/completions, GET {baseUrl}/models
 *   fake.requests                    // RecordedRequest[]: {method, path, headers, body (parsed JSON), raw}
 *   await fake.close();
 *
 * ScriptedReply: thinking, text, toolCalls [{name, input, id?}] (input: any JSON value, or a string
 * sent verbatim as the raw argument text, e.g. to script invalid JSON), stop (default 'tool_use' when
 * toolCalls are given, else 'end_turn'), usage (neutral Usage, translated to the wire's fields),
 * delayMs (before the response head), chunkDelayMs (between SSE events), eventsPerSecond (paced by
 * the clock, for benchmarks), onWritten (the last event left), fault (see FaultSpec),
 * pieceChars (deltas of that many characters, for replies of many megabytes),
 * plus wire details: signature / redactedThinking (anthropic), quirks (openai compat-server shapes).
 *
 * Usage defaults to {input: 10, cacheRead: 0, cacheWrite: 0, output: 5}. OpenAI sends the usage-only
 * final chunk only when the request asks for it (stream_options.include_usage), as real servers do.
 * Server-wide options: openaiReasoningField, lineEnding ('\r\n' / '\r'), keepAliveComments,
 * splitWritesBytes (cut every event into tiny TCP writes), models (GET /models ids),
 * promptCache (anthropic: model Anthropic's prompt caching and bill what it computes — see
 * fake-provider-cache.ts; fake.cache.log has each request's outcome), rejectCacheControl (a
 * strict gateway: any cache_control is a 400 "Extra inputs are not permitted").
 *
 * Real-server shapes a reply can ask for: refusal (openai delta.refusal; anthropic stop_reason
 * "refusal" with stop_details), contentParts (openai: Mistral's content arrays), omitUsage (a
 * server that never reports usage), wireUsage (the usage object verbatim), duplicateBlocks
 * (anthropic: a block replayed under its index, deltas repeated after its stop, or every block
 * numbered 0), toolCalls[].extraContent (openai: Gemini's extra_content), contentEncoding
 * (the body compressed: gzip, deflate, deflate-raw, br; or labelled with an encoding nobody
 * decodes).
 *
 * A POST after the scripted list is used up gets HTTP 500 (x-should-retry: false) naming the
 * request number, so a test that makes one call too many fails at once instead of hanging.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import * as zlib from 'node:zlib';
import type { Usage } from '../../src/providers/types.js';
import { CacheRejection, PromptCacheModel, type PromptCacheOptions } from './fake-provider-cache.js';
import { anthropicEvents, openaiEvents, type SseEvent } from './fake-provider-events.js';

export type FakeFormat = 'anthropic' | 'openai';

/** Where and how a reply goes wrong. `afterEvents` counts SSE events already written. */
export type FaultSpec =
  /** Answer with this status and body instead of a stream (headers e.g. retry-after, x-should-retry). */
  | { kind: 'status'; status: number; body?: unknown; headers?: Record<string, string> }
  /** Reset the TCP connection: before any byte when afterEvents is 0/absent, else after that many events. */
  | { kind: 'reset'; afterEvents?: number }
  /**
   * Stop sending after that many events and keep the connection open (idle-timeout tests); with
   * keepAliveMs, go on sending `: keep-alive` comments (and, with pings, Anthropic ping events).
   */
  | { kind: 'stall'; afterEvents: number; keepAliveMs?: number; pings?: boolean }
  /** After that many events, send text deltas forever (until the client hangs up). */
  | { kind: 'endless'; afterEvents: number; piece?: string }
  /** After that many events, write bytes that break the HTTP chunked framing. */
  | { kind: 'bad_chunk'; afterEvents: number }
  /** Write a `data:` line that is not JSON after that many events, then end normally. */
  | { kind: 'malformed'; afterEvents: number }
  /** Send the format's mid-stream error event after that many events, then close. */
  | { kind: 'error_event'; afterEvents: number; errorType?: string; message?: string }
  /**
   * Close cleanly without the end marker: after that many events, or (afterEvents absent) after
   * everything but message_stop (anthropic) / the finish chunk, usage chunk and [DONE] (openai).
   */
  | { kind: 'no_end'; afterEvents?: number };

export interface OpenAiQuirks {
  /** Send each tool call whole in one chunk (Ollama). */
  readonly wholeToolCalls?: boolean;
  /** Send arguments as a JSON object instead of a string (llama.cpp, TGI). */
  readonly argumentsAsObject?: boolean;
  /** Leave out tool call ids (old vLLM / Ollama). */
  readonly omitToolIds?: boolean;
  /** Put usage on the finish chunk with prompt_cache_hit/miss fields instead of a usage-only chunk (DeepSeek). */
  readonly deepseekUsage?: boolean;
  /** Start with an Azure-style chunk whose choices array is empty. */
  readonly emptyChoicesFirst?: boolean;
  /** Leave out the `data: [DONE]` line (finish_reason still sent). */
  readonly omitDone?: boolean;
}

export type ContentEncoding = 'gzip' | 'deflate' | 'deflate-raw' | 'br' | 'zstd-unsupported' | 'compress';

export interface ScriptedReply {
  readonly thinking?: string;
  readonly text?: string;
  readonly toolCalls?: readonly {
    readonly name: string;
    readonly input: unknown;
    readonly id?: string;
    /** OpenAI: sent as the call's extra_content (Gemini: {google: {thought_signature}}). */
    readonly extraContent?: Record<string, unknown>;
  }[];
  /** The model declines: openai delta.refusal pieces; anthropic stop_reason "refusal" + stop_details.explanation. */
  readonly refusal?: string;
  /** OpenAI: thinking and text as content-part arrays (Mistral), one chunk carrying both. */
  readonly contentParts?: boolean;
  /** No usage anywhere in the stream, whatever the request asked. */
  readonly omitUsage?: boolean;
  /** The wire usage object, sent verbatim (both formats). */
  readonly wireUsage?: Record<string, unknown>;
  /** Anthropic: 'replay' resends the text block under its index; 'late_deltas' resends its deltas after its stop; 'zero' numbers every block 0. */
  readonly duplicateBlocks?: 'replay' | 'late_deltas' | 'zero';
  /** Compress the response body (stream or error body) this way, with a matching content-encoding header. */
  readonly contentEncoding?: ContentEncoding;
  /** A recorded stream (SSE text, e.g. a file under test/fixtures/streams/) sent verbatim instead of a generated one. */
  readonly rawSse?: string;
  readonly stop?: 'end_turn' | 'tool_use' | 'max_tokens';
  /** Cut text, reasoning and arguments into pieces of this many characters (default: 1–7, varying). */
  readonly pieceChars?: number;
  readonly usage?: Partial<Usage>;
  readonly delayMs?: number;
  readonly chunkDelayMs?: number;
  /**
   * Pace the stream by the wall clock: by t seconds after the head, t × this many events have
   * been written, in one write per ~10 ms tick (as a fast provider's packets arrive). For rates
   * above what chunkDelayMs can do (timers have a 1 ms floor); benchmarks use 2,000.
   */
  readonly eventsPerSecond?: number;
  /** Called when the last event of this reply has been written (benchmarks end their clock here). */
  readonly onWritten?: () => void;
  readonly fault?: FaultSpec;
  /** Anthropic: the thinking block's signature (default a made-up one; '' sends no signature_delta). */
  readonly signature?: string;
  /** Anthropic: emit a redacted_thinking block with this data before the thinking block. */
  readonly redactedThinking?: string;
  /** OpenAI: overrides the server-wide reasoning field for this reply. */
  readonly openaiReasoningField?: OpenAiReasoningField;
  readonly quirks?: OpenAiQuirks;
}

export type OpenAiReasoningField = 'reasoning_content' | 'reasoning' | 'reasoning_details';

export interface RecordedRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: Record<string, string | string[] | undefined>;
  /** Parsed JSON body (undefined for an empty or non-JSON body). */
  readonly body: unknown;
  readonly raw: string;
}

export interface FakeProviderOptions {
  readonly format: FakeFormat;
  readonly replies: readonly ScriptedReply[] | ((req: RecordedRequest, index: number) => ScriptedReply);
  /** OpenAI only: which delta field carries reasoning (default 'reasoning_content'). */
  readonly openaiReasoningField?: OpenAiReasoningField;
  /** Line ending of the SSE stream (default '\n'). */
  readonly lineEnding?: '\n' | '\r\n' | '\r';
  /** Send `: keep-alive` comment lines between events. */
  readonly keepAliveComments?: boolean;
  /** Split every written event into writes of this many bytes (exercises reassembly). */
  readonly splitWritesBytes?: number;
  /** Ids returned by GET /models (openai; default ['fake-model']). */
  readonly models?: readonly string[];
  /** Anthropic: compute cache reads and writes from the requests' cache_control breakpoints. */
  readonly promptCache?: PromptCacheOptions;
  /** Anthropic: refuse any request carrying cache_control, as a strict gateway does. */
  readonly rejectCacheControl?: boolean;
}

export interface FakeProvider {
  readonly baseUrl: string;
  readonly requests: RecordedRequest[];
  /** The prompt-cache model, when promptCache was given. */
  readonly cache?: PromptCacheModel;
  close(): Promise<void>;
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

export async function startFakeProvider(opts: FakeProviderOptions): Promise<FakeProvider> {
  const requests: RecordedRequest[] = [];
  const cache = opts.promptCache && opts.format === 'anthropic' ? new PromptCacheModel(opts.promptCache) : undefined;
  const sockets = new Set<Socket>();
  let posts = 0;
  let closed = false;

  const server = createServer((req, res) => {
    void handle(req, res).catch((err: unknown) => {
      if (!res.headersSent) {
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: `fake provider crashed: ${String(err)}` } }));
      } else res.destroy();
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('error', () => {}); // a client that aborts mid-stream is normal here
    s.on('close', () => sockets.delete(s));
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    res.on('error', () => {});
    const raw = await readBody(req);
    let body: unknown;
    try {
      body = raw.length > 0 ? JSON.parse(raw) : undefined;
    } catch {
      body = undefined;
    }
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    const recorded: RecordedRequest = { method: req.method ?? 'GET', path, headers: { ...req.headers }, body, raw };
    requests.push(recorded);

    if (req.method === 'GET' && (path === '/models' || path === '/v1/models')) {
      const ids = opts.models ?? ['fake-model'];
      sendJson(res, 200, { object: 'list', data: ids.map((id) => ({ id, object: 'model' })) });
      return;
    }
    const expected = opts.format === 'anthropic' ? '/v1/messages' : '/chat/completions';
    if (req.method !== 'POST' || path !== expected) {
      sendJson(res, 404, errorBody(opts.format, 'not_found_error', `fake provider: no route ${req.method} ${path}`));
      return;
    }
    const index = posts++;
    let reply: ScriptedReply | undefined;
    if (typeof opts.replies === 'function') reply = opts.replies(recorded, index);
    else reply = opts.replies[index];
    if (reply === undefined) {
      // x-should-retry: false, so a client does not spend its backoff retrying a test's mistake.
      sendJson(res, 500, errorBody(opts.format, 'api_error', `fake provider: no scripted reply for request #${index + 1}`), {
        'x-should-retry': 'false',
      });
      return;
    }
    if (reply.delayMs) await sleep(reply.delayMs);
    const rejected = cacheRejection(body);
    if (rejected) {
      sendJson(res, 400, errorBody(opts.format, 'invalid_request_error', rejected));
      return;
    }
    await serveReply(req, res, withCacheUsage(reply, body), body);
  }

  function cacheRejection(body: unknown): string | undefined {
    if (opts.format !== 'anthropic' || typeof body !== 'object' || body === null) return undefined;
    if (opts.rejectCacheControl && JSON.stringify(body).includes('"cache_control"')) {
      return 'messages.0.content.0.text.cache_control: Extra inputs are not permitted';
    }
    if (!cache) return undefined;
    try {
      pendingOutcome = cache.account(body as Record<string, unknown>);
    } catch (err) {
      if (err instanceof CacheRejection) return err.message;
      throw err;
    }
    return undefined;
  }

  let pendingOutcome: ReturnType<PromptCacheModel['account']> | undefined;
  /** With the cache model on, the reply bills what the model computed for this request. */
  function withCacheUsage(reply: ScriptedReply, body: unknown): ScriptedReply {
    const outcome = pendingOutcome;
    pendingOutcome = undefined;
    if (!outcome || typeof body !== 'object' || body === null) return reply;
    const output = reply.usage?.output ?? 5;
    return {
      ...reply,
      usage: { input: outcome.inputTokens, cacheRead: outcome.readTokens, cacheWrite: outcome.writeTokens, output },
      wireUsage: reply.wireUsage ?? {
        input_tokens: outcome.inputTokens,
        cache_creation_input_tokens: outcome.writeTokens,
        cache_read_input_tokens: outcome.readTokens,
        cache_creation: { ephemeral_5m_input_tokens: outcome.write5mTokens, ephemeral_1h_input_tokens: outcome.write1hTokens },
        output_tokens: output,
      },
    };
  }

  async function serveReply(req: IncomingMessage, res: ServerResponse, reply: ScriptedReply, body: unknown): Promise<void> {
    const fault = reply.fault;
    if (fault?.kind === 'status') {
      const payload = fault.body ?? errorBody(opts.format, 'api_error', `fake provider: scripted status ${fault.status}`);
      const text = typeof payload === 'string' ? payload : JSON.stringify(payload);
      const encoded = reply.contentEncoding ? compressWhole(reply.contentEncoding, text) : undefined;
      res.writeHead(fault.status, {
        'content-type': 'application/json',
        ...(reply.contentEncoding ? { 'content-encoding': encodingHeader(reply.contentEncoding) } : {}),
        ...fault.headers,
      });
      res.end(encoded ?? text);
      return;
    }
    if (fault?.kind === 'reset' && !fault.afterEvents) {
      resetSocket(req.socket);
      return;
    }
    const model = typeof body === 'object' && body !== null && 'model' in body ? String((body as { model: unknown }).model) : 'fake-model';
    if (reply.rawSse !== undefined) {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      // Event by event, so the client reads it as a stream rather than one buffer.
      for (const piece of reply.rawSse.split(/(?<=\n\n)/)) {
        if (closed || res.destroyed) return;
        await writePlain(res, piece);
      }
      res.end();
      return;
    }
    const events: SseEvent[] =
      opts.format === 'anthropic'
        ? anthropicEvents(reply, model)
        : openaiEvents(reply, model, reply.openaiReasoningField ?? opts.openaiReasoningField ?? 'reasoning_content', wantsUsage(body));

    const encoding = reply.contentEncoding;
    res.writeHead(200, {
      'content-type': 'text/event-stream',
      'cache-control': 'no-cache',
      connection: 'keep-alive',
      ...(encoding ? { 'content-encoding': encodingHeader(encoding) } : {}),
    });
    res.flushHeaders();
    const sink = encoding ? compressingSink(res, encoding) : undefined;
    const write = (r: ServerResponse, text: string): Promise<void> => (sink ? sink.write(text) : writePlain(r, text));
    const eol = opts.lineEnding ?? '\n';
    let limit = fault && 'afterEvents' in fault && fault.afterEvents !== undefined ? fault.afterEvents : Infinity;
    if (fault?.kind === 'no_end' && fault.afterEvents === undefined) limit = events.filter((e) => !e.terminal).length;
    let written = 0;
    const paced = reply.eventsPerSecond !== undefined && reply.eventsPerSecond > 0 && fault === undefined && !opts.keepAliveComments;
    if (paced) {
      const startedAt = performance.now();
      while (written < events.length) {
        if (closed || res.destroyed) return;
        const due = Math.min(events.length, Math.max(written + 1, Math.floor(((performance.now() - startedAt) / 1000) * reply.eventsPerSecond!)));
        let batch = '';
        for (; written < due; written++) batch += frame(events[written]!, eol);
        await write(res, batch);
        if (written < events.length) await sleep(10);
      }
      reply.onWritten?.();
      if (sink) await sink.end();
      else res.end();
      return;
    }
    for (const ev of events) {
      if (written >= limit) break;
      if (closed || res.destroyed) return;
      if (opts.keepAliveComments) await write(res, `: keep-alive${eol}${eol}`);
      await write(res, frame(ev, eol));
      written++;
      if (reply.chunkDelayMs) await sleep(reply.chunkDelayMs);
    }
    if (fault === undefined || written < limit) {
      if (sink) await sink.end();
      else res.end();
      return;
    }
    switch (fault.kind) {
      case 'reset':
        resetSocket(req.socket);
        return;
      case 'stall':
        if (fault.keepAliveMs === undefined) return; // keep the socket open; close() or the client ends it
        while (!closed && !res.destroyed) {
          await sleep(fault.keepAliveMs);
          await write(res, `: keep-alive${eol}${eol}`);
          if (fault.pings && !res.destroyed) await write(res, frame({ event: 'ping', data: '{"type": "ping"}' }, eol));
        }
        return;
      case 'endless': {
        const piece = fault.piece ?? 'all work and no play makes jack a dull boy. ';
        const ev: SseEvent =
          opts.format === 'anthropic'
            ? { event: 'content_block_delta', data: JSON.stringify({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: piece } }) }
            : { data: JSON.stringify({ id: 'chatcmpl-fake01', object: 'chat.completion.chunk', created: 0, model, choices: [{ index: 0, delta: { content: piece }, finish_reason: null }] }) };
        const line = frame(ev, eol).repeat(64);
        while (!closed && !res.destroyed) await write(res, line);
        return;
      }
      case 'bad_chunk':
        // A chunk-size line that is not hex breaks the HTTP/1.1 chunked framing mid-body.
        req.socket.write('zz\r\nnot a chunk\r\n');
        await sleep(20);
        req.socket.destroy();
        return;
      case 'malformed':
        await write(res, `data: {"type": "content_block_delta", "index": 0, "delta": {${eol}${eol}`);
        res.end();
        return;
      case 'error_event': {
        const type = fault.errorType ?? (opts.format === 'anthropic' ? 'overloaded_error' : 'server_error');
        const message = fault.message ?? 'Overloaded';
        const ev: SseEvent =
          opts.format === 'anthropic'
            ? { event: 'error', data: JSON.stringify({ type: 'error', error: { type, message } }) }
            : { data: JSON.stringify({ error: { message, type } }) };
        await write(res, frame(ev, eol));
        res.end();
        return;
      }
      case 'no_end':
        res.end();
        return;
    }
  }

  function writePlain(res: ServerResponse, text: string): Promise<void> {
    const size = opts.splitWritesBytes;
    const bytes = Buffer.from(text, 'utf8');
    if (!size || size >= bytes.length) return writeBytes(res, bytes);
    return (async () => {
      for (let i = 0; i < bytes.length; i += size) {
        await writeBytes(res, bytes.subarray(i, i + size));
        // Let each piece leave as its own TCP segment so the client sees real splits.
        await new Promise((r) => setImmediate(r));
      }
    })();
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;

  return {
    baseUrl: `http://127.0.0.1:${port}`,
    requests,
    ...(cache ? { cache } : {}),
    async close() {
      closed = true;
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function encodingHeader(encoding: ContentEncoding): string {
  if (encoding === 'deflate-raw') return 'deflate';
  if (encoding === 'zstd-unsupported') return 'zstd';
  return encoding;
}

function compressWhole(encoding: ContentEncoding, text: string): Buffer {
  switch (encoding) {
    case 'gzip':
      return zlib.gzipSync(text);
    case 'deflate':
      return zlib.deflateSync(text);
    case 'deflate-raw':
      return zlib.deflateRawSync(text);
    case 'br':
      return zlib.brotliCompressSync(text);
    default:
      return Buffer.from(text, 'latin1'); // labelled but not really encoded: the client must name it, not decode it
  }
}

/** A body written through a compressor that flushes after every event, so the stream stays live. */
function compressingSink(res: ServerResponse, encoding: ContentEncoding): { write(text: string): Promise<void>; end(): Promise<void> } {
  const z =
    encoding === 'gzip'
      ? zlib.createGzip()
      : encoding === 'deflate'
        ? zlib.createDeflate()
        : encoding === 'deflate-raw'
          ? zlib.createDeflateRaw()
          : encoding === 'br'
            ? zlib.createBrotliCompress()
            : undefined;
  if (!z) {
    return {
      write: (text) => new Promise((resolve) => (res.destroyed ? resolve() : res.write(Buffer.from(text), () => resolve()))),
      end: () => new Promise((resolve) => res.end(() => resolve())),
    };
  }
  z.on('data', (chunk: Buffer) => {
    if (!res.destroyed) res.write(chunk);
  });
  z.on('error', () => {});
  const flushKind = encoding === 'br' ? zlib.constants.BROTLI_OPERATION_FLUSH : zlib.constants.Z_SYNC_FLUSH;
  return {
    write: (text) =>
      new Promise((resolve) => {
        if (res.destroyed) return resolve();
        z.write(text);
        z.flush(flushKind, () => resolve());
      }),
    end: () =>
      new Promise((resolve) => {
        z.once('end', () => res.end(() => resolve()));
        z.end();
      }),
  };
}

function wantsUsage(body: unknown): boolean {
  const so = typeof body === 'object' && body !== null ? (body as { stream_options?: { include_usage?: unknown } }).stream_options : undefined;
  return so?.include_usage === true;
}

function frame(ev: SseEvent, eol: string): string {
  const head = ev.event ? `event: ${ev.event}${eol}` : '';
  return `${head}data: ${ev.data}${eol}${eol}`;
}

function writeBytes(res: ServerResponse, bytes: Buffer): Promise<void> {
  return new Promise((resolve) => {
    if (res.destroyed) return resolve();
    res.write(bytes, () => resolve());
  });
}

function resetSocket(socket: Socket): void {
  // resetAndDestroy sends a TCP RST (what a dropped connection looks like); fall back to destroy.
  const s = socket as Socket & { resetAndDestroy?: () => void };
  if (typeof s.resetAndDestroy === 'function') s.resetAndDestroy();
  else s.destroy();
}

function sendJson(res: ServerResponse, status: number, payload: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(payload));
}

function errorBody(format: FakeFormat, type: string, message: string): unknown {
  return format === 'anthropic' ? { type: 'error', error: { type, message } } : { error: { message, type, param: null, code: null } };
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}
