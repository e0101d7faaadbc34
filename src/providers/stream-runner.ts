/**
 * The part both wire formats share: POST a JSON body, check the status, read the (decoded) SSE
 * stream through a format-specific assembler, watch for a silent server (idle timeout: comments
 * and pings are not progress), cut off a runaway reply (max_reply_bytes), follow the caller's
 * abort signal, and retry transient failures — but only while nothing of the answer has reached
 * the caller.
 */
import { Readable } from 'node:stream';
import type { Dispatcher } from 'undici';
import { request } from './undici-parts.js';
import { requestDispatched } from '../io/request-gate.js';
import type { Preset } from '../config/types.js';
import { bodyText, contentEncodings, decodeBody, isDecodeError, UnsupportedEncodingError } from './body-decoding.js';
import { redactKeys } from '../secrets/redact.js';
import { errorCode, htmlPage, httpError, messageOf, midAnswerError, networkError } from './errors.js';
import { isLoopback } from './proxy.js';
import { isRetryableStatus, retryDelayMs, sleep, type HeaderBag } from './retry.js';
import { NdjsonParser } from './ndjson-reader.js';
import { DEFAULT_MAX_REPLY_BYTES, isPing, replyBytes, tooLarge } from './reply-limits.js';
import { MAX_EVENT_CHARS, SseParser, type SseMessage } from './sse-reader.js';
import { ProviderError, type AssistantMessage, type StreamEvent } from './types.js';
import { sentValue, type RequestBody } from './request-body.js';

/** Format-specific turning of SSE messages into neutral events. Throws ProviderError on stream errors. */
export interface StreamAssembler {
  feed(msg: SseMessage): readonly StreamEvent[];
  /** End of the byte stream: the final events, or a 'truncated' error when the end marker never came. */
  finish(): readonly StreamEvent[];
  /** What has arrived so far, for errors that happen mid-answer. */
  partial(): AssistantMessage | undefined;
}

/** What every assembler is told: the tool ids already in the conversation, and the -v log. */
export interface AssemblerOptions {
  readonly usedIds?: Iterable<string>;
  readonly note?: (line: string) => void;
}

export interface RunnerOptions {
  readonly preset: Preset;
  readonly dispatcher: Dispatcher;
  readonly maxRetries: number;
  readonly idleTimeoutMs: number;
  readonly retryBaseMs: number;
  readonly keySent: boolean;
  readonly log?: (line: string) => void;
  /** Told before each retry, in the same words as the log (machine interfaces report it). */
  readonly onRetry?: (note: string) => void;
  /** Bytes of answer, reasoning and tool arguments one reply may stream (max_reply_bytes). */
  readonly maxReplyBytes?: number;
}


/** The credentials a request carries (x-api-key, the bearer token), to keep out of messages. */
function sentSecrets(headers: Readonly<Record<string, string>>): string[] {
  const out: string[] = [];
  for (const [name, value] of Object.entries(headers)) {
    const lower = name.toLowerCase();
    if (lower === 'x-api-key' || lower === 'api-key') out.push(value);
    else if (lower === 'authorization') out.push(value.replace(/^\s*bearer\s+/i, ''));
  }
  return out;
}

export interface StreamCall {
  readonly url: string;
  readonly headers: Record<string, string>;
  readonly body: RequestBody;
  readonly signal?: AbortSignal;
  readonly newAssembler: () => StreamAssembler;
  /** How the body is framed: server-sent events (default), or one JSON object a line (Ollama). */
  readonly framing?: 'sse' | 'ndjson';
}

/** Marks an error after which a new attempt may help, with the response headers (Retry-After). */
class Transient extends Error {
  constructor(
    readonly error: ProviderError,
    readonly headers?: HeaderBag,
  ) {
    super(error.message);
  }
}

export async function* runStream(call: StreamCall, opts: RunnerOptions): AsyncGenerator<StreamEvent> {
  for (let attempt = 0; ; attempt++) {
    const delivered = { content: false };
    try {
      yield* attempt1(call, opts, delivered);
      return;
    } catch (err) {
      if (!(err instanceof Transient)) throw err;
      if (delivered.content || call.signal?.aborted) throw err.error;
      if (attempt >= opts.maxRetries) throw gaveUp(err.error, attempt);
      const wait = retryDelayMs(attempt, err.headers, { baseMs: opts.retryBaseMs });
      const note = `${err.error.message} Retrying in ${(wait / 1000).toFixed(1)} s (retry ${attempt + 1} of ${opts.maxRetries}).`;
      opts.log?.(note);
      opts.onRetry?.(note);
      try {
        await sleep(wait, call.signal);
      } catch {
        throw new ProviderError('aborted', 'Request cancelled.');
      }
    }
  }
}

/** How long reading a stream may keep the event loop before it lets timers and I/O run. */
const YIELD_MS = 25;

const CONTENT_EVENTS = new Set<StreamEvent['type']>(['text_delta', 'thinking_delta', 'tool_call_start', 'tool_call_delta', 'tool_call_end']);

async function* attempt1(call: StreamCall, opts: RunnerOptions, delivered: { content: boolean }): AsyncGenerator<StreamEvent> {
  const controller = new AbortController();
  let timedOut = false;
  let timer: NodeJS.Timeout | undefined;
  let lastActivity = Date.now();
  // True while the caller handles events: a slow consumer is not a silent server.
  let consuming = false;
  const check = (): void => {
    const idle = Date.now() - lastActivity;
    if (consuming || idle < opts.idleTimeoutMs) {
      timer = setTimeout(check, consuming ? opts.idleTimeoutMs : opts.idleTimeoutMs - idle);
      return;
    }
    timedOut = true;
    controller.abort();
  };
  // One timer per request, not one per chunk: activity only moves a timestamp.
  const arm = (): void => {
    lastActivity = Date.now();
    if (!timer) timer = setTimeout(check, opts.idleTimeoutMs);
  };
  const onAbort = (): void => controller.abort();
  if (call.signal?.aborted) throw new ProviderError('aborted', 'Request cancelled.');
  call.signal?.addEventListener('abort', onAbort, { once: true });
  const assembler = call.newAssembler();

  /** Set once the status line and headers arrived: a failure after that broke a started answer. */
  let answering = false;
  const fail = (err: unknown): Error => {
    const partial = assembler.partial();
    if (err instanceof ProviderError || err instanceof Transient) return err;
    if (err instanceof UnsupportedEncodingError) return new ProviderError('malformed', `Could not read the answer: ${err.message}.`, undefined, partial);
    if (call.signal?.aborted) return new ProviderError('aborted', 'Request cancelled.', undefined, partial);
    if (timedOut) {
      const e = new ProviderError(
        'timeout',
        `The provider sent nothing for ${seconds(opts.idleTimeoutMs)}; gave up waiting (stream_idle_timeout_ms).`,
        undefined,
        partial,
      );
      return new Transient(e);
    }
    if (answering && isDecodeError(err)) {
      return new ProviderError('malformed', `The provider's compressed answer could not be decoded (${errorCode(err) ?? 'error'}: ${err instanceof Error ? err.message : String(err)}).`, undefined, partial);
    }
    // After the answer began, a reset or a broken chunk is a connection lost mid-answer, not one never made.
    if (answering) return new Transient(midAnswerError(err, call.url, partial));
    const error = networkError(err, call.url, partial);
    // A refused connection to this machine means no server is running: retrying only makes the
    // user wait through the backoff for the same answer.
    if (errorCode(err) === 'ECONNREFUSED' && isLoopback(new URL(call.url).hostname)) {
      return new ProviderError('network', `${error.message} Nothing is listening there: is the local model server running?`, undefined, partial);
    }
    return new Transient(error);
  };

  let body: Readable | undefined;
  let decoded: Readable | undefined;
  const maxReply = opts.maxReplyBytes ?? DEFAULT_MAX_REPLY_BYTES;
  try {
    arm();
    let res: Dispatcher.ResponseData;
    try {
      const streamed = typeof call.body === 'string' ? undefined : call.body;
      const sent = request(call.url, {
        method: 'POST',
        headers: streamed ? { ...call.headers, 'content-length': String(streamed.bytes) } : call.headers,
        body: streamed ? Readable.from(streamed.chunks(), { objectMode: false }) : (call.body as string),
        dispatcher: opts.dispatcher,
        signal: controller.signal,
      });
      // In the client's hands: a redraw held back for it may follow once it is written.
      requestDispatched();
      res = await sent;
    } catch (err) {
      throw fail(err);
    }
    body = res.body;
    answering = true;
    const headers = res.headers as HeaderBag;
    try {
      decoded = decodeBody(res.body, contentEncodings(headers));
    } catch (err) {
      throw fail(err);
    }
    if (res.statusCode < 200 || res.statusCode >= 300) {
      const text = await bodyText(decoded);
      const error = httpError(res.statusCode, text, { preset: opts.preset, url: call.url, keySent: opts.keySent, sentBody: sentValue(call.body), secrets: sentSecrets(call.headers) });
      if (isRetryableStatus(res.statusCode, headers)) throw new Transient(error, headers);
      throw error;
    }
    const type = String(headers['content-type'] ?? '');
    const ndjson = call.framing === 'ndjson';
    if (!(ndjson ? type === '' || /ndjson|application\/json/.test(type) : type.includes('text/event-stream'))) {
      const text = await bodyText(decoded);
      const said = messageOf(safeJson(redactKeys(text, sentSecrets(call.headers))));
      const page = said ? '' : htmlPage(text);
      throw new ProviderError(
        said ? 'server' : 'malformed',
        said
          ? `The provider answered with an error: ${said}`
          : `Expected an event stream from ${call.url}, got "${type || 'no content type'}"${page ? `: ${page}` : ''}.`,
        res.statusCode,
      );
    }
    // One event may carry a whole reply's text, JSON-escaped; anything far beyond is a runaway.
    const maxEventChars = Math.min(MAX_EVENT_CHARS, maxReply * 4 + 1024 * 1024);
    const parser = ndjson ? new NdjsonParser({ maxLineChars: maxEventChars }) : new SseParser({ maxEventChars });
    const feed = (msg: SseMessage): readonly StreamEvent[] => {
      try {
        return assembler.feed(msg);
      } catch (err) {
        throw streamFailure(err);
      }
    };
    let replied = 0;
    // While bytes are buffered, `for await` goes on in microtasks and timers never fire: the
    // streamed-text save, a frame, a drained stdout, a signal would all wait for the reply's end.
    let busySince = performance.now();
    try {
      for await (const chunk of decoded) {
        if (performance.now() - busySince > YIELD_MS) {
          await new Promise((resolve) => setImmediate(resolve));
          busySince = performance.now();
        }
        const before = parser.pendingEventChars;
        let progress = false;
        for (const msg of parser.push(chunk as Uint8Array)) {
          if (!isPing(msg)) progress = true;
          for (const ev of feed(msg)) {
            replied += replyBytes(ev);
            if (replied > maxReply) throw tooLarge(maxReply, assembler.partial());
            if (CONTENT_EVENTS.has(ev.type)) delivered.content = true;
            consuming = true;
            yield ev;
            consuming = false;
          }
        }
        // Keep-alive comments and pings alone never reset the idle timer: a stalled server that
        // sends them forever is still stalled.
        if (progress || parser.pendingEventChars > before) arm();
      }
    } catch (err) {
      throw fail(err);
    }
    for (const msg of parser.end()) {
      try {
        yield* assembler.feed(msg);
      } catch (err) {
        // An event cut off by the end of the stream is a truncated answer, not a malformed one.
        if (err instanceof ProviderError && err.kind === 'malformed') break;
        throw streamFailure(err);
      }
    }
    clearTimeout(timer);
    let final: readonly StreamEvent[];
    try {
      final = assembler.finish();
    } catch (err) {
      throw streamFailure(err);
    }
    yield* final;
  } finally {
    clearTimeout(timer);
    call.signal?.removeEventListener('abort', onAbort);
    // A consumer that stops early must not leave the connection streaming in the background.
    // Destroying a body nobody reads any more makes it emit an abort error: nobody is to hear it.
    for (const stream of [body, decoded]) {
      stream?.on('error', () => undefined);
      stream?.destroy();
    }
  }
}


function gaveUp(err: ProviderError, retries: number): ProviderError {
  if (retries === 0) return err;
  const note = ` Gave up after ${retries} ${retries === 1 ? 'retry' : 'retries'} (max_retries).`;
  return new ProviderError(err.kind, err.message + note, err.status, err.partial);
}

function seconds(ms: number): string {
  return ms < 10_000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms / 1000)} s`;
}

/** Errors inside a 200 stream: an overload or a cut-off stream may be retried if nothing was shown yet. */
function streamFailure(err: unknown): Error {
  if (err instanceof ProviderError && (err.kind === 'server' || err.kind === 'rate_limit' || err.kind === 'truncated')) {
    return new Transient(err);
  }
  return err instanceof Error ? err : new Error(String(err));
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined; // not JSON: the caller falls back to the text itself
  }
}
