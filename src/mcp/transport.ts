/** What the JSON-RPC layer needs from a transport: send messages, hear messages, hear the end. */
import type { RpcMessage } from './protocol.js';

export interface TransportEvents {
  /** A message from the server (a response, a request to us, a notification). */
  onMessage(message: RpcMessage): void;
  /** The transport is gone for good (process exit, stream closed); every pending call fails. */
  onClose(error: Error): void;
}

export interface Transport {
  start(events: TransportEvents): Promise<void>;
  /**
   * Sends one message. For HTTP the promise settles once the POST's answer has been read (the
   * answers arrive through onMessage first); for stdio once the line is written.
   */
  send(message: RpcMessage, opts?: { signal?: AbortSignal }): Promise<void>;
  close(): Promise<void>;
  /** Stateful HTTP keeps a session id; stateless sessions and stdio have none. */
  readonly kind: 'stdio' | 'http';
}
