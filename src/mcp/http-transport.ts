/**
 * Streamable HTTP: every message is a POST; the answer is JSON or an SSE stream. A stream that
 * ends before the answer came is resumed with GET + Last-Event-ID after the server's `retry:`.
 * 401/403 go to the auth provider (OAuth), which may fix the credentials once per call.
 */
import { SseParser } from '../providers/sse-reader.js';
import { isRequest, McpFault, parseMessages, type RpcId, type RpcMessage } from './protocol.js';
import type { Transport, TransportEvents } from './transport.js';
import { ignoreError } from '../diagnostics/ignore-error.js';

/** A wait cut short by closing: it just ends early. */
const endedEarly = (): undefined => undefined;

export interface AuthChallenge {
  readonly status: number;
  /** The WWW-Authenticate header, when the server sent one. */
  readonly wwwAuthenticate?: string;
}

/** What the transport asks of OAuth: a header for each request, and a fix after a challenge. */
export interface HttpAuth {
  authorization(): Promise<string | undefined>;
  /** True when new credentials were obtained and the request should be sent again. */
  challenge(challenge: AuthChallenge): Promise<boolean>;
}

export interface HttpSpec {
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly auth?: HttpAuth;
  /** Tests and the conformance adapter pass their own; default the global fetch. */
  readonly fetch?: typeof fetch;
}

export interface HttpTransport extends Transport {
  /** After negotiation: the revision for the MCP-Protocol-Version header, and whether sessionless. */
  setProtocol(version: string, stateless: boolean): void;
  /**
   * Opens the session's standalone GET stream, where a stateful server sends requests and
   * notifications not tied to a call (elicitation, list changes). Servers without one say 405.
   */
  listen(): void;
  readonly sessionId: string | undefined;
}

const MAX_RESUMES = 5;
const DEFAULT_RETRY_MS = 1000;
/** A challenge is retried this often per message; a server that keeps refusing is not looped on. */
const MAX_AUTH_RETRIES = 2;

function nameFor(message: RpcMessage): string | undefined {
  if (!('method' in message) || !message.params) return undefined;
  const p = message.params;
  if (message.method === 'tools/call' || message.method === 'prompts/get') return typeof p['name'] === 'string' ? p['name'] : undefined;
  if (message.method === 'resources/read') return typeof p['uri'] === 'string' ? p['uri'] : undefined;
  return undefined;
}

export function createHttpTransport(spec: HttpSpec): HttpTransport {
  const doFetch = spec.fetch ?? fetch;
  let events: TransportEvents | undefined;
  let sessionId: string | undefined;
  let version: string | undefined;
  let stateless = false;
  let closed = false;

  const baseHeaders = async (): Promise<Record<string, string>> => {
    const h: Record<string, string> = { ...spec.headers };
    if (version) h['MCP-Protocol-Version'] = version;
    if (sessionId && !stateless) h['Mcp-Session-Id'] = sessionId;
    const auth = await spec.auth?.authorization();
    if (auth) h['Authorization'] = auth;
    return h;
  };

  /** Reads one response body; true when the answer to `waitFor` was among its messages. */
  const readBody = async (res: Response, waitFor: RpcId | undefined, sse: SseParser | undefined): Promise<boolean> => {
    let answered = false;
    const deliver = (text: string): void => {
      for (const m of parseMessages(text)) {
        if (waitFor !== undefined && 'id' in m && m.id === waitFor && !('method' in m)) answered = true;
        events?.onMessage(m);
      }
    };
    const type = res.headers.get('content-type') ?? '';
    if (!sse) {
      const text = await res.text();
      if (text.trim() !== '') deliver(text);
      return answered;
    }
    if (!type.includes('text/event-stream')) throw new McpFault('garbage', `expected an event stream, got ${type || 'no content type'}`);
    if (!res.body) return answered;
    try {
      for await (const chunk of res.body as AsyncIterable<Uint8Array>) {
        for (const event of sse.push(chunk)) if (event.data.trim() !== '') deliver(event.data);
        // The answer is all a POST stream owes us; later events would only keep the call open.
        if (answered && waitFor !== undefined) break;
      }
      for (const event of sse.end()) if (event.data.trim() !== '') deliver(event.data);
    } catch (error) {
      if (error instanceof McpFault) throw error;
      // A dropped connection is like a graceful close: resumable when the server gave event ids.
    }
    return answered;
  };

  const post = async (message: RpcMessage, signal: AbortSignal | undefined): Promise<void> => {
    const waitFor = isRequest(message) ? message.id : undefined;
    for (let attempt = 0; ; attempt++) {
      const headers = await baseHeaders();
      headers['Content-Type'] = 'application/json';
      headers['Accept'] = 'application/json, text/event-stream';
      if (stateless && 'method' in message) {
        headers['Mcp-Method'] = message.method;
        const name = nameFor(message);
        if (name !== undefined) headers['Mcp-Name'] = name;
      }
      let res: Response;
      try {
        res = await doFetch(spec.url, { method: 'POST', headers, body: JSON.stringify(message), ...(signal ? { signal } : {}) });
      } catch (error) {
        if (signal?.aborted) throw new McpFault('closed', 'interrupted');
        throw new McpFault('http', `could not reach ${spec.url}: ${error instanceof Error ? (error.cause instanceof Error ? error.cause.message : error.message) : String(error)}`);
      }
      const fresh = res.headers.get('mcp-session-id');
      if (fresh && !stateless) sessionId = fresh;
      if ((res.status === 401 || res.status === 403) && spec.auth && attempt < MAX_AUTH_RETRIES) {
        const www = res.headers.get('www-authenticate') ?? undefined;
        await res.body?.cancel().catch(ignoreError('cancel a response body nobody reads'));
        if (await spec.auth.challenge({ status: res.status, ...(www ? { wwwAuthenticate: www } : {}) })) continue;
        throw new McpFault('auth', `${spec.url} refused the credentials (HTTP ${res.status})`);
      }
      if (res.status === 202 || res.status === 204) {
        await res.body?.cancel().catch(ignoreError('cancel a response body nobody reads'));
        if (waitFor !== undefined) throw new McpFault('garbage', 'the server accepted a request without answering it');
        return;
      }
      const type = res.headers.get('content-type') ?? '';
      if (!res.ok) {
        // A JSON-RPC error in the body (an unsupported revision, a bad request) is the real answer.
        if (type.includes('application/json')) {
          const text = await res.text();
          try {
            for (const m of parseMessages(text)) events?.onMessage({ ...m, ...('error' in m && m.id === null && waitFor !== undefined ? { id: waitFor } : {}) } as RpcMessage);
            return;
          } catch {
            throw new McpFault('http', `HTTP ${res.status} from ${spec.url}: ${text.slice(0, 200)}`);
          }
        }
        await res.body?.cancel().catch(ignoreError('cancel a response body nobody reads'));
        if (res.status === 404 && sessionId && !stateless) {
          sessionId = undefined;
          throw new McpFault('closed', 'the server ended the session (HTTP 404)');
        }
        if (res.status === 401 || res.status === 403) throw new McpFault('auth', `${spec.url} needs authorization (HTTP ${res.status})`);
        throw new McpFault('http', `HTTP ${res.status} from ${spec.url}`);
      }
      const sse = type.includes('text/event-stream') ? new SseParser() : undefined;
      if (waitFor === undefined && !sse) {
        // Whatever a server sends back for a notification or a reply (some send `{result:{}}`) is not ours to read.
        await res.body?.cancel().catch(ignoreError('cancel a response body nobody reads'));
        return;
      }
      if (!sse && !type.includes('application/json')) {
        await res.body?.cancel().catch(ignoreError('cancel a response body nobody reads'));
        throw new McpFault('garbage', `an answer of type ${type || 'unknown'} from ${spec.url}`);
      }
      let answered = await readBody(res, waitFor, sse);
      if (!sse || waitFor === undefined) {
        if (!answered && waitFor !== undefined) throw new McpFault('garbage', 'the server answered with JSON that is not the reply to the request');
        return;
      }
      // The stream ended without the answer: resume it from the last event id (SEP-1699).
      for (let resume = 0; !answered && resume < MAX_RESUMES; resume++) {
        if (!sse.lastEventId) break;
        await sleep(sse.retryMs ?? DEFAULT_RETRY_MS, signal);
        answered = await resumeStream(sse, waitFor, signal);
      }
      if (!answered) throw new McpFault('crash', 'the server closed the stream before answering');
      return;
    }
  };

  const resumeStream = async (sse: SseParser, waitFor: RpcId, signal: AbortSignal | undefined): Promise<boolean> => {
    const headers = await baseHeaders();
    headers['Accept'] = 'text/event-stream';
    headers['Last-Event-ID'] = sse.lastEventId;
    let res: Response;
    try {
      res = await doFetch(spec.url, { method: 'GET', headers, ...(signal ? { signal } : {}) });
    } catch {
      return false;
    }
    if (!res.ok) {
      await res.body?.cancel().catch(ignoreError('cancel a response body nobody reads'));
      return false;
    }
    return readBody(res, waitFor, sse);
  };

  let listening = false;
  const listen = async (): Promise<void> => {
    const sse = new SseParser();
    let failures = 0;
    while (!closed && failures < MAX_RESUMES) {
      const headers = await baseHeaders();
      headers['Accept'] = 'text/event-stream';
      if (sse.lastEventId) headers['Last-Event-ID'] = sse.lastEventId;
      let res: Response;
      try {
        res = await doFetch(spec.url, { method: 'GET', headers, signal: listenAbort.signal });
      } catch {
        if (closed) return;
        failures++;
        await sleep(sse.retryMs ?? DEFAULT_RETRY_MS, listenAbort.signal).catch(endedEarly);
        continue;
      }
      if (!res.ok || !(res.headers.get('content-type') ?? '').includes('text/event-stream')) {
        await res.body?.cancel().catch(ignoreError('cancel a response body nobody reads'));
        return;
      }
      failures = 0;
      try {
        await readBody(res, undefined, sse);
      } catch {
        failures++;
      }
      if (closed) return;
      await sleep(sse.retryMs ?? DEFAULT_RETRY_MS, listenAbort.signal).catch(endedEarly);
      failures++;
    }
  };
  const listenAbort = new AbortController();

  return {
    kind: 'http',
    listen() {
      if (listening || stateless || !sessionId) return;
      listening = true;
      void listen().catch(ignoreError("keep the server's event stream open"));
    },
    get sessionId() {
      return sessionId;
    },
    setProtocol(v, sessionless) {
      version = v;
      stateless = sessionless;
    },
    async start(ev) {
      events = ev;
    },
    async send(message, opts) {
      if (closed) throw new McpFault('closed', 'the connection was closed');
      await post(message, opts?.signal);
    },
    async close() {
      if (closed) return;
      closed = true;
      listenAbort.abort();
      events?.onClose(new McpFault('closed', 'the connection was closed'));
      if (sessionId && !stateless) {
        // Ending the session is a courtesy to the server: never wait long for it.
        const headers = await baseHeaders().catch(() => ({}));
        await doFetch(spec.url, { method: 'DELETE', headers, signal: AbortSignal.timeout(2000) })
          .then((r) => r.body?.cancel())
          .catch(ignoreError('end the session on the server'));
      }
    },
  };
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new McpFault('closed', 'interrupted'));
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(timer);
      reject(new McpFault('closed', 'interrupted'));
    }, { once: true });
  });
}
