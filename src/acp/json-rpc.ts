/**
 * JSON-RPC 2.0 over newline-delimited JSON, both ways: the editor's requests and notifications
 * come in, the agent's go out, and the answers to each side's requests are matched by id. A line
 * that is not a message gets an error response (id null) and the connection keeps going: one bad
 * line from a client must not end the session.
 */
import { createInterface } from 'node:readline';
import { jsonLine } from '../headless/json-line.js';

/** The standard codes, and ACP's own. */
export const RPC = {
  parseError: -32700,
  invalidRequest: -32600,
  methodNotFound: -32601,
  invalidParams: -32602,
  internalError: -32603,
  /** ACP: authentication (here: an API key) is missing. */
  authRequired: -32000,
  /** ACP: no such session (or resource). */
  notFound: -32002,
} as const;

export class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
  }
}

type Params = Record<string, unknown>;
type Id = string | number;

export interface RpcConnection {
  onRequest(method: string, handler: (params: Params) => Promise<unknown>): void;
  onNotification(method: string, handler: (params: Params) => void): void;
  /** Calls the peer; rejects with an RpcError when it answers with an error. */
  request(method: string, params: unknown): Promise<unknown>;
  notify(method: string, params: unknown): void;
  /** Settles when the input ends. */
  readonly closed: Promise<void>;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export function createConnection(io: {
  input: NodeJS.ReadableStream;
  write: (line: string) => void;
  log?: (line: string) => void;
}): RpcConnection {
  const requests = new Map<string, (params: Params) => Promise<unknown>>();
  const notifications = new Map<string, (params: Params) => void>();
  const pending = new Map<Id, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  let nextId = 0;
  let ended = false;

  const send = (message: Record<string, unknown>): void => {
    if (ended) return;
    // Every line break inside strings is escaped: a message is always one line.
    io.write(jsonLine({ jsonrpc: '2.0', ...message }));
  };
  const fail = (id: Id | null, code: number, message: string, data?: unknown): void =>
    send({ id, error: { code, message, ...(data !== undefined ? { data } : {}) } });

  const handleRequest = (id: Id, method: string, params: Params): void => {
    const handler = requests.get(method);
    if (!handler) return fail(id, RPC.methodNotFound, `Method not found: ${method}`);
    handler(params).then(
      (result) => send({ id, result: result ?? null }),
      (err: unknown) => {
        if (err instanceof RpcError) return fail(id, err.code, err.message, err.data);
        const message = err instanceof Error ? err.message : String(err);
        io.log?.(`acp: ${method} failed: ${message}`);
        fail(id, RPC.internalError, message);
      },
    );
  };

  const handleResponse = (message: Record<string, unknown>): void => {
    const id = message['id'] as Id;
    const waiter = pending.get(id);
    if (!waiter) return io.log?.(`acp: a response to no request (id ${JSON.stringify(id)})`);
    pending.delete(id);
    const error = message['error'];
    if (isObject(error)) waiter.reject(new RpcError(Number(error['code'] ?? RPC.internalError), String(error['message'] ?? 'error'), error['data']));
    else waiter.resolve(message['result']);
  };

  const handleLine = (line: string): void => {
    if (!line.trim()) return;
    let message: unknown;
    try {
      message = JSON.parse(line);
    } catch (err) {
      return fail(null, RPC.parseError, `Parse error: ${err instanceof Error ? err.message : String(err)}`);
    }
    if (!isObject(message) || message['jsonrpc'] !== '2.0') {
      return fail(isObject(message) && isId(message['id']) ? message['id'] : null, RPC.invalidRequest, 'Invalid request: expected one JSON-RPC 2.0 object per line (batches are not used)');
    }
    const { id, method } = message;
    const params = message['params'] ?? {};
    if (typeof method === 'string') {
      if (!isObject(params)) {
        if (isId(id)) fail(id, RPC.invalidParams, `Invalid params for ${method}: expected an object`);
        return;
      }
      if (id === undefined) {
        const handler = notifications.get(method);
        if (!handler) return io.log?.(`acp: ignored notification ${method}`);
        try {
          handler(params);
        } catch (err) {
          io.log?.(`acp: ${method} failed: ${err instanceof Error ? err.message : String(err)}`);
        }
        return;
      }
      if (!isId(id)) return fail(null, RPC.invalidRequest, 'Invalid request: id must be a string or a number');
      return handleRequest(id, method, params);
    }
    if (isId(id) && ('result' in message || 'error' in message)) return handleResponse(message);
    fail(isId(id) ? id : null, RPC.invalidRequest, 'Invalid request: no method');
  };

  const rl = createInterface({ input: io.input, crlfDelay: Infinity, terminal: false });
  rl.on('line', handleLine);
  // A destroyed stdin (a signal) closes the stream without an end.
  io.input.on('close', () => rl.close());
  const closed = new Promise<void>((resolve) =>
    rl.on('close', () => {
      ended = true;
      for (const waiter of pending.values()) waiter.reject(new RpcError(RPC.internalError, 'The client closed the connection.'));
      pending.clear();
      resolve();
    }),
  );

  return {
    onRequest: (method, handler) => void requests.set(method, handler),
    onNotification: (method, handler) => void notifications.set(method, handler),
    request(method, params) {
      if (ended) return Promise.reject(new RpcError(RPC.internalError, 'The client closed the connection.'));
      const id = ++nextId;
      return new Promise((resolve, reject) => {
        pending.set(id, { resolve, reject });
        send({ id, method, params });
      });
    },
    notify: (method, params) => send({ method, params }),
    closed,
  };
}

function isId(v: unknown): v is Id {
  return typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v));
}
