/**
 * Our JSON-RPC client over any transport: numbered requests with a per-call timeout, answers to
 * the server's own requests (ping, elicitation), and every pending call failed at once when the
 * transport dies, so a crashed server never leaves a tool call waiting.
 */
import {
  isNotification,
  isRequest,
  McpFault,
  RpcError,
  type RpcId,
  type RpcMessage,
  type RpcNotification,
  type RpcRequest,
} from './protocol.js';
import type { Transport } from './transport.js';
import { ignoreError } from '../diagnostics/ignore-error.js';

export type RequestHandler = (params: Record<string, unknown>) => Promise<Record<string, unknown>>;

export interface CallOptions {
  readonly timeoutMs?: number;
  readonly signal?: AbortSignal;
  /** Extra params fields merged last (the stateless revision's _meta). */
  readonly meta?: Record<string, unknown>;
}

interface Pending {
  settle(result: Record<string, unknown>): void;
  fail(error: Error): void;
}

export class RpcPeer {
  private nextId = 1;
  private readonly pending = new Map<RpcId, Pending>();
  private readonly handlers = new Map<string, RequestHandler>();
  private closedWith: Error | undefined;
  /** Notifications from the server (list_changed, logging, progress). */
  onNotification: (n: RpcNotification) => void = () => undefined;
  /** Requests with no handler and transport faults that had no call to fail (for the log). */
  onStray: (text: string) => void = () => undefined;
  /** Adds fields to every request's params (the stateless _meta). */
  decorate: (method: string, params: Record<string, unknown>) => Record<string, unknown> = (_m, p) => p;

  constructor(private readonly transport: Transport) {}

  async start(): Promise<void> {
    await this.transport.start({
      onMessage: (m) => this.receive(m),
      onClose: (error) => this.closeAll(error),
    });
  }

  handle(method: string, handler: RequestHandler): void {
    this.handlers.set(method, handler);
  }

  get closed(): Error | undefined {
    return this.closedWith;
  }

  async request(method: string, params: Record<string, unknown> = {}, opts: CallOptions = {}): Promise<Record<string, unknown>> {
    if (this.closedWith) throw this.closedWith;
    const id = this.nextId++;
    const message: RpcRequest = { jsonrpc: '2.0', id, method, params: this.decorate(method, params) };
    return new Promise<Record<string, unknown>>((resolve, reject) => {
      let timer: NodeJS.Timeout | undefined;
      const done = (): void => {
        this.pending.delete(id);
        if (timer) clearTimeout(timer);
        opts.signal?.removeEventListener('abort', onAbort);
      };
      const cancel = (reason: string): void => {
        // The server may still be working: tell it to stop (a courtesy; errors are ignored).
        void this.notify('notifications/cancelled', { requestId: id, reason }).catch(ignoreError('tell the server a request was cancelled'));
      };
      const onAbort = (): void => {
        done();
        cancel('interrupted by the user');
        reject(new McpFault('closed', 'interrupted'));
      };
      this.pending.set(id, {
        settle: (result) => {
          done();
          resolve(result);
        },
        fail: (error) => {
          done();
          reject(error);
        },
      });
      if (opts.timeoutMs !== undefined && opts.timeoutMs > 0) {
        timer = setTimeout(() => {
          done();
          cancel('timed out');
          reject(new McpFault('timeout', `no answer to ${method} within ${Math.round(opts.timeoutMs! / 1000)} s`));
        }, opts.timeoutMs);
      }
      if (opts.signal?.aborted) return onAbort();
      opts.signal?.addEventListener('abort', onAbort, { once: true });
      this.transport.send(message, opts.signal ? { signal: opts.signal } : {}).catch((error: unknown) => {
        const entry = this.pending.get(id);
        entry?.fail(error instanceof Error ? error : new McpFault('closed', String(error)));
      });
    });
  }

  async notify(method: string, params?: Record<string, unknown>): Promise<void> {
    if (this.closedWith) return;
    const message: RpcNotification = { jsonrpc: '2.0', method, ...(params ? { params } : {}) };
    await this.transport.send(message);
  }

  async close(): Promise<void> {
    this.closeAll(new McpFault('closed', 'the connection was closed'));
    await this.transport.close().catch(ignoreError('close the connection to the server'));
  }

  private closeAll(error: Error): void {
    if (!this.closedWith) this.closedWith = error;
    for (const entry of [...this.pending.values()]) entry.fail(error);
  }

  private receive(message: RpcMessage): void {
    if (isRequest(message)) {
      void this.answer(message);
      return;
    }
    if (isNotification(message)) {
      this.onNotification(message);
      return;
    }
    const response = message as { id: RpcId | null; result?: Record<string, unknown>; error?: { code: number; message: string; data?: unknown } };
    const entry = response.id === null ? undefined : this.pending.get(response.id);
    if (!entry) {
      this.onStray(`an answer to no pending request (id ${String(response.id)})`);
      return;
    }
    if (response.error) entry.fail(new RpcError(response.error.code, response.error.message, response.error.data));
    else entry.settle(response.result ?? {});
  }

  private async answer(request: RpcRequest): Promise<void> {
    const handler = this.handlers.get(request.method);
    let reply: RpcMessage;
    if (!handler) {
      this.onStray(`the server asked for ${request.method}, which lindwyrm does not offer`);
      reply = { jsonrpc: '2.0', id: request.id, error: { code: -32601, message: `Method not found: ${request.method}` } };
    } else {
      try {
        reply = { jsonrpc: '2.0', id: request.id, result: await handler(request.params ?? {}) };
      } catch (error) {
        reply = { jsonrpc: '2.0', id: request.id, error: { code: -32603, message: error instanceof Error ? error.message : String(error) } };
      }
    }
    await this.transport.send(reply).catch(ignoreError("answer the server's request"));
  }
}
