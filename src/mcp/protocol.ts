/**
 * The MCP wire as plain data: JSON-RPC messages, the protocol revisions we speak, and the shapes
 * of the results we read. Everything a server sends is unknown until parsed here.
 */

/** The stateless revision: no initialize, no session; every request carries its own _meta. */
export const STATELESS_VERSION = '2026-07-28';
/** The newest revision with the initialize handshake and Mcp-Session-Id. */
export const STATEFUL_VERSION = '2025-11-25';
/** Revisions an initialize answer may name; older servers still work. */
export const STATEFUL_VERSIONS: readonly string[] = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'];

export const CLIENT_INFO = { name: 'lindwyrm', version: '0.1.0' } as const;

export type RpcId = string | number;

export interface RpcRequest {
  readonly jsonrpc: '2.0';
  readonly id: RpcId;
  readonly method: string;
  readonly params?: Record<string, unknown>;
}
export interface RpcNotification {
  readonly jsonrpc: '2.0';
  readonly method: string;
  readonly params?: Record<string, unknown>;
}
export interface RpcErrorBody {
  readonly code: number;
  readonly message: string;
  readonly data?: unknown;
}
export interface RpcResponse {
  readonly jsonrpc: '2.0';
  readonly id: RpcId | null;
  readonly result?: Record<string, unknown>;
  readonly error?: RpcErrorBody;
}
export type RpcMessage = RpcRequest | RpcNotification | RpcResponse;

/** A JSON-RPC error the server answered with (the call reached it and was refused). */
export class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
    this.name = 'RpcError';
  }
}

/** The server misbehaved or went away: garbage, a crash, a timeout, a refused connection. */
export class McpFault extends Error {
  constructor(
    readonly kind: 'start' | 'crash' | 'timeout' | 'garbage' | 'http' | 'auth' | 'closed',
    message: string,
  ) {
    super(message);
    this.name = 'McpFault';
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** One decoded JSON value checked against the three message shapes; anything else is garbage. */
export function toMessage(value: unknown): RpcMessage {
  if (!isRecord(value) || value['jsonrpc'] !== '2.0') throw new McpFault('garbage', 'not a JSON-RPC 2.0 message');
  const id = value['id'];
  const idOk = typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id));
  if (typeof value['method'] === 'string') {
    if (value['params'] !== undefined && !isRecord(value['params'])) throw new McpFault('garbage', 'params is not an object');
    return value as unknown as RpcRequest | RpcNotification;
  }
  if (!idOk && id !== null) throw new McpFault('garbage', 'a response without a valid id');
  if (isRecord(value['error'])) {
    const err = value['error'];
    if (typeof err['code'] !== 'number' || typeof err['message'] !== 'string') throw new McpFault('garbage', 'a malformed error object');
    return value as unknown as RpcResponse;
  }
  if (!isRecord(value['result'])) throw new McpFault('garbage', 'a response with neither result nor error');
  return value as unknown as RpcResponse;
}

/** A line or body of text: one message or a batch of them. */
export function parseMessages(text: string): RpcMessage[] {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new McpFault('garbage', `not JSON: ${text.slice(0, 60)}`);
  }
  return Array.isArray(value) ? value.map(toMessage) : [toMessage(value)];
}

export function isRequest(m: RpcMessage): m is RpcRequest {
  return 'method' in m && 'id' in m && m.id !== undefined;
}
export function isNotification(m: RpcMessage): m is RpcNotification {
  return 'method' in m && !('id' in m && m.id !== undefined);
}
export function isResponse(m: RpcMessage): m is RpcResponse {
  return !('method' in m);
}

// The result shapes we read. Unknown fields are kept; missing ones are filled where harmless.

export interface McpToolAnnotations {
  readonly readOnlyHint?: boolean;
  readonly destructiveHint?: boolean;
  readonly title?: string;
}
export interface McpTool {
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly inputSchema: Record<string, unknown>;
  readonly annotations?: McpToolAnnotations;
}
export interface McpResource {
  readonly uri: string;
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly mimeType?: string;
}
export interface McpPromptArgument {
  readonly name: string;
  readonly description?: string;
  readonly required?: boolean;
}
export interface McpPrompt {
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly arguments?: readonly McpPromptArgument[];
}
export type McpContent =
  | { readonly type: 'text'; readonly text: string }
  | { readonly type: 'image' | 'audio'; readonly data: string; readonly mimeType: string }
  | { readonly type: 'resource'; readonly resource: { uri: string; mimeType?: string; text?: string; blob?: string } }
  | { readonly type: 'resource_link'; readonly uri: string; readonly name?: string; readonly mimeType?: string };

export interface McpCallResult {
  readonly content: readonly McpContent[];
  readonly structuredContent?: unknown;
  readonly isError?: boolean;
}

const NAME = /^[A-Za-z0-9_.\-/]{1,128}$/;

export function readTools(result: Record<string, unknown>): McpTool[] {
  const list = Array.isArray(result['tools']) ? result['tools'] : [];
  return list.flatMap((t: unknown): McpTool[] => {
    if (!isRecord(t) || typeof t['name'] !== 'string' || !NAME.test(t['name'])) return [];
    const schema = isRecord(t['inputSchema']) ? t['inputSchema'] : { type: 'object' };
    const ann = isRecord(t['annotations']) ? t['annotations'] : undefined;
    return [{
      name: t['name'],
      ...(typeof t['title'] === 'string' ? { title: t['title'] } : {}),
      ...(typeof t['description'] === 'string' ? { description: t['description'] } : {}),
      inputSchema: schema,
      ...(ann ? { annotations: ann as McpToolAnnotations } : {}),
    }];
  });
}

export function readResources(result: Record<string, unknown>): McpResource[] {
  const list = Array.isArray(result['resources']) ? result['resources'] : [];
  return list.flatMap((r: unknown): McpResource[] =>
    isRecord(r) && typeof r['uri'] === 'string'
      ? [{
          uri: r['uri'],
          name: typeof r['name'] === 'string' ? r['name'] : r['uri'],
          ...(typeof r['title'] === 'string' ? { title: r['title'] } : {}),
          ...(typeof r['description'] === 'string' ? { description: r['description'] } : {}),
          ...(typeof r['mimeType'] === 'string' ? { mimeType: r['mimeType'] } : {}),
        }]
      : [],
  );
}

export function readPrompts(result: Record<string, unknown>): McpPrompt[] {
  const list = Array.isArray(result['prompts']) ? result['prompts'] : [];
  return list.flatMap((p: unknown): McpPrompt[] => {
    if (!isRecord(p) || typeof p['name'] !== 'string' || !NAME.test(p['name'])) return [];
    const args = Array.isArray(p['arguments']) ? p['arguments'].filter((a): a is McpPromptArgument => isRecord(a) && typeof a['name'] === 'string') : [];
    return [{
      name: p['name'],
      ...(typeof p['title'] === 'string' ? { title: p['title'] } : {}),
      ...(typeof p['description'] === 'string' ? { description: p['description'] } : {}),
      ...(args.length ? { arguments: args } : {}),
    }];
  });
}

export function readCallResult(result: Record<string, unknown>): McpCallResult {
  const content = Array.isArray(result['content']) ? result['content'].filter((c): c is McpContent => isRecord(c) && typeof c['type'] === 'string') : [];
  return {
    content,
    ...(result['structuredContent'] !== undefined ? { structuredContent: result['structuredContent'] } : {}),
    ...(result['isError'] === true ? { isError: true } : {}),
  };
}

export { isRecord };
