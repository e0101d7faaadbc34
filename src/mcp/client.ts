/**
 * One connection to one MCP server, revision negotiated: the stateless 2026-07-28 revision
 * (`server/discover`, per-request _meta) when the server speaks it, else the initialize handshake
 * of 2025-11-25, answered by servers back to 2024-11-05.
 */
import { applyElicitationDefaults } from './elicitation.js';
import type { HttpTransport } from './http-transport.js';
import {
  CLIENT_INFO,
  isRecord,
  McpFault,
  readCallResult,
  readPrompts,
  readResources,
  readTools,
  RpcError,
  STATEFUL_VERSION,
  STATEFUL_VERSIONS,
  STATELESS_VERSION,
  type McpCallResult,
  type McpPrompt,
  type McpResource,
  type McpTool,
} from './protocol.js';
import { RpcPeer } from './rpc-peer.js';
import type { Transport } from './transport.js';

export type ElicitAnswer = { action: 'accept'; content: Record<string, unknown> } | { action: 'decline' | 'cancel' };
export type ElicitHandler = (params: Record<string, unknown>) => Promise<ElicitAnswer>;

export interface ClientOptions {
  readonly transport: Transport;
  /** Per-call timeout (a hung server fails the call, not the session). */
  readonly timeoutMs: number;
  /** For the handshake and the lists, which a server still starting (npx) may take longer over; default timeoutMs. */
  readonly startTimeoutMs?: number;
  /** Offered to the server only when given: without it the client declares no elicitation. */
  readonly onElicit?: ElicitHandler;
  /** tools, resources or prompts list changed on the server. */
  readonly onListChanged?: (what: 'tools' | 'resources' | 'prompts') => void;
  readonly log?: (line: string) => void;
}

export interface ServerFacts {
  readonly protocolVersion: string;
  readonly stateless: boolean;
  readonly serverInfo?: { name?: string; version?: string };
  readonly capabilities: Record<string, unknown>;
  readonly instructions?: string;
}

const MAX_PAGES = 50;

export class McpClient {
  private constructor(
    private readonly peer: RpcPeer,
    private readonly opts: ClientOptions,
    readonly facts: ServerFacts,
  ) {}

  static async connect(opts: ClientOptions): Promise<McpClient> {
    const peer = new RpcPeer(opts.transport);
    const capabilities: Record<string, unknown> = opts.onElicit ? { elicitation: { form: {} } } : {};
    peer.onStray = (text) => opts.log?.(text);
    peer.onNotification = (n) => {
      const m = /^notifications\/(tools|resources|prompts)\/list_changed$/.exec(n.method);
      if (m) opts.onListChanged?.(m[1] as 'tools' | 'resources' | 'prompts');
    };
    peer.handle('ping', async () => ({}));
    if (opts.onElicit) {
      const elicit = opts.onElicit;
      peer.handle('elicitation/create', async (params) => {
        const answer = await elicit(params);
        if (answer.action !== 'accept') return { action: answer.action };
        const schema = isRecord(params['requestedSchema']) ? params['requestedSchema'] : {};
        return { action: 'accept', content: applyElicitationDefaults(schema, answer.content) };
      });
    }
    await peer.start();
    try {
      const facts = (await tryStateless(peer, opts, capabilities)) ?? (await initialize(peer, opts, capabilities));
      return new McpClient(peer, opts, facts);
    } catch (error) {
      await peer.close();
      throw error;
    }
  }

  /** The transport died (crash, closed stream): the caller reconnects on the next call. */
  get broken(): boolean {
    return this.peer.closed !== undefined;
  }

  private call(method: string, params: Record<string, unknown>, signal?: AbortSignal, timeoutMs = this.opts.timeoutMs): Promise<Record<string, unknown>> {
    return this.peer.request(method, params, { timeoutMs, ...(signal ? { signal } : {}) });
  }

  private async paged<T>(method: string, read: (r: Record<string, unknown>) => T[]): Promise<T[]> {
    const out: T[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < MAX_PAGES; page++) {
      const result = await this.call(method, cursor ? { cursor } : {}, undefined, this.opts.startTimeoutMs ?? this.opts.timeoutMs);
      out.push(...read(result));
      cursor = typeof result['nextCursor'] === 'string' && result['nextCursor'] !== '' ? result['nextCursor'] : undefined;
      if (!cursor) break;
    }
    return out;
  }

  listTools(): Promise<McpTool[]> {
    return this.facts.capabilities['tools'] === undefined ? Promise.resolve([]) : this.paged('tools/list', readTools);
  }
  listResources(): Promise<McpResource[]> {
    return this.facts.capabilities['resources'] === undefined ? Promise.resolve([]) : this.paged('resources/list', readResources);
  }
  listPrompts(): Promise<McpPrompt[]> {
    return this.facts.capabilities['prompts'] === undefined ? Promise.resolve([]) : this.paged('prompts/list', readPrompts);
  }

  async callTool(name: string, args: Record<string, unknown>, signal?: AbortSignal): Promise<McpCallResult> {
    return readCallResult(await this.call('tools/call', { name, arguments: args }, signal));
  }

  async readResource(uri: string, signal?: AbortSignal): Promise<Record<string, unknown>[]> {
    const result = await this.call('resources/read', { uri }, signal);
    return Array.isArray(result['contents']) ? result['contents'].filter(isRecord) : [];
  }

  async getPrompt(name: string, args: Record<string, string>): Promise<{ description?: string; messages: Record<string, unknown>[] }> {
    const result = await this.call('prompts/get', { name, arguments: args });
    const messages = Array.isArray(result['messages']) ? result['messages'].filter(isRecord) : [];
    return { ...(typeof result['description'] === 'string' ? { description: result['description'] } : {}), messages };
  }

  close(): Promise<void> {
    return this.peer.close();
  }
}

function metaFor(capabilities: Record<string, unknown>): Record<string, unknown> {
  return {
    'io.modelcontextprotocol/protocolVersion': STATELESS_VERSION,
    'io.modelcontextprotocol/clientInfo': CLIENT_INFO,
    'io.modelcontextprotocol/clientCapabilities': capabilities,
  };
}

/** The stateless revision first; undefined (fall back to initialize) when the server does not speak it. */
async function tryStateless(peer: RpcPeer, opts: ClientOptions, capabilities: Record<string, unknown>): Promise<ServerFacts | undefined> {
  const http = opts.transport.kind === 'http' ? (opts.transport as HttpTransport) : undefined;
  http?.setProtocol(STATELESS_VERSION, true);
  const meta = metaFor(capabilities);
  peer.decorate = (_method, params) => ({ ...params, _meta: { ...meta, ...(isRecord(params['_meta']) ? params['_meta'] : {}) } });
  let result: Record<string, unknown> | undefined;
  try {
    result = await peer.request('server/discover', {}, { timeoutMs: opts.startTimeoutMs ?? opts.timeoutMs });
  } catch (error) {
    // A refusal (method not found, unsupported revision, no session, a 4xx) means an older server.
    if (!(error instanceof RpcError) && !(error instanceof McpFault && (error.kind === 'http' || error.kind === 'garbage'))) throw error;
    opts.log?.(`server/discover refused (${error.message}); using the initialize handshake`);
  }
  const supported = Array.isArray(result?.['supportedVersions']) ? result['supportedVersions'] : [];
  if (result && supported.includes(STATELESS_VERSION)) {
    const m = isRecord(result['_meta']) ? result['_meta'] : {};
    const info = m['io.modelcontextprotocol/serverInfo'] ?? result['serverInfo'];
    return {
      protocolVersion: STATELESS_VERSION,
      stateless: true,
      ...(isRecord(info) ? { serverInfo: info as ServerFacts['serverInfo'] } : {}),
      capabilities: isRecord(result['capabilities']) ? result['capabilities'] : {},
      ...(typeof result['instructions'] === 'string' ? { instructions: result['instructions'] } : {}),
    };
  }
  peer.decorate = (_m, p) => p;
  return undefined;
}

async function initialize(peer: RpcPeer, opts: ClientOptions, capabilities: Record<string, unknown>): Promise<ServerFacts> {
  const http = opts.transport.kind === 'http' ? (opts.transport as HttpTransport) : undefined;
  http?.setProtocol('', false);
  const result = await peer.request('initialize', { protocolVersion: STATEFUL_VERSION, capabilities, clientInfo: CLIENT_INFO }, { timeoutMs: opts.startTimeoutMs ?? opts.timeoutMs });
  const version = result['protocolVersion'];
  if (typeof version !== 'string' || !STATEFUL_VERSIONS.includes(version)) {
    throw new McpFault('garbage', `the server speaks protocol ${String(version)}, which lindwyrm does not (it speaks ${[STATELESS_VERSION, ...STATEFUL_VERSIONS].join(', ')})`);
  }
  http?.setProtocol(version, false);
  await peer.notify('notifications/initialized');
  http?.listen();
  return {
    protocolVersion: version,
    stateless: false,
    ...(isRecord(result['serverInfo']) ? { serverInfo: result['serverInfo'] as ServerFacts['serverInfo'] } : {}),
    capabilities: isRecord(result['capabilities']) ? result['capabilities'] : {},
    ...(typeof result['instructions'] === 'string' ? { instructions: result['instructions'] } : {}),
  };
}
