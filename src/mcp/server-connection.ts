/**
 * One configured server over the life of a session: started once, its lists read, and after a
 * fault (no start, crash, hang, garbage) marked failed and started again on the next call. A
 * server's error answer is not a fault: the connection stays.
 */
import { join } from 'node:path';
import { SECRET_NAME } from '../config/read-mcp.js';
import type { McpServerConfig } from '../config/types.js';
import { McpClient, type ElicitHandler } from './client.js';
import { createHttpTransport } from './http-transport.js';
import { createOAuth } from './oauth/oauth-client.js';
import { createTokenStore } from './oauth/token-store.js';
import { McpFault, type McpPrompt, type McpResource, type McpTool } from './protocol.js';
import { fillAll, MissingSecretError, scrubbedEnv } from './secret-refs.js';
import { createStdioTransport, spawnStdioServer, type SpawnServer, type StdioSpec } from './stdio-transport.js';
import type { Transport } from './transport.js';
import { ignoreError, noEntries } from '../diagnostics/ignore-error.js';

type Env = Readonly<Record<string, string | undefined>>;

/** A server's start (an npx download, a JVM) may take longer than one call is allowed. */
const START_TIMEOUT_MS = 30_000;

export type ServerStatus = 'idle' | 'starting' | 'ready' | 'failed';

export interface ConnectionOptions {
  readonly env: Env;
  /** stderr logs of stdio servers: <logDir>/<name>.log. */
  readonly logDir: string;
  /** OAuth credentials (0600 files). */
  readonly tokenDir: string;
  readonly defaultTimeoutMs: number;
  readonly openUrl: (server: string, url: string) => Promise<void> | void;
  readonly onListChanged: (server: string) => void;
  /** The server answered and its lists were read (at the start, or after a restart). */
  readonly onReady?: (server: string) => void;
  /** Each secret filled into env or headers, for redaction. */
  readonly onSecret: (value: string) => void;
  /** The stdio spawn; a sandbox wraps it. */
  readonly spawnServer?: SpawnServer;
  readonly onElicit?: ElicitHandler;
  readonly fetch?: typeof fetch;
  readonly log?: (line: string) => void;
}

export class ServerConnection {
  status: ServerStatus = 'idle';
  lastError: string | undefined;
  tools: McpTool[] = [];
  resources: McpResource[] = [];
  prompts: McpPrompt[] = [];
  private client: McpClient | undefined;
  private connecting: Promise<McpClient> | undefined;
  /** The session ended: a start still under way closes what it started. */
  private closed = false;

  constructor(
    readonly config: McpServerConfig,
    private readonly opts: ConnectionOptions,
  ) {}

  get timeoutMs(): number {
    return this.config.timeoutMs ?? this.opts.defaultTimeoutMs;
  }

  get logFile(): string {
    return join(this.opts.logDir, `${this.config.name}.log`);
  }

  get protocol(): string | undefined {
    return this.client?.facts.protocolVersion;
  }

  /** The live client, starting (or restarting) the server when there is none. */
  ensure(): Promise<McpClient> {
    if (this.client && !this.client.broken) return Promise.resolve(this.client);
    this.connecting ??= this.connect().finally(() => {
      this.connecting = undefined;
    });
    return this.connecting;
  }

  /** Env or header values with their references filled; an editor's are the values themselves. */
  private values(table: Readonly<Record<string, string>>): Record<string, string> {
    const c = this.config;
    if (!c.literalValues) return fillAll(table, this.opts.env, c.cwd, this.opts.onSecret);
    for (const [name, value] of Object.entries(table)) if (SECRET_NAME.test(name)) this.opts.onSecret(value);
    return { ...table };
  }

  private transport(): Transport {
    const c = this.config;
    if (c.url !== undefined) {
      const headers = this.values(c.headers);
      const secret = c.oauthClientSecretEnv ? this.opts.env[c.oauthClientSecretEnv] : undefined;
      if (secret) this.opts.onSecret(secret);
      const auth = createOAuth({
        serverUrl: c.url,
        store: createTokenStore(this.opts.tokenDir),
        openUrl: (url) => this.opts.openUrl(c.name, url),
        ...(c.oauthClientId ? { preRegistered: { clientId: c.oauthClientId, ...(secret ? { clientSecret: secret } : {}) } } : {}),
        ...(this.opts.fetch ? { fetch: this.opts.fetch } : {}),
      });
      return createHttpTransport({ url: c.url, headers, auth, ...(this.opts.fetch ? { fetch: this.opts.fetch } : {}) });
    }
    const env = { ...scrubbedEnv(this.opts.env), ...this.values(c.env) };
    const spec: StdioSpec = { name: c.name, command: c.command ?? '', args: c.args, env, cwd: c.cwd, logFile: this.logFile, sandboxed: c.sandbox };
    return createStdioTransport(spec, this.opts.spawnServer ?? spawnStdioServer);
  }

  private async connect(): Promise<McpClient> {
    await this.drop();
    this.status = 'starting';
    try {
      const client = await McpClient.connect({
        transport: this.transport(),
        timeoutMs: this.timeoutMs,
        startTimeoutMs: Math.max(this.timeoutMs, START_TIMEOUT_MS),
        ...(this.opts.onElicit ? { onElicit: this.opts.onElicit } : {}),
        onListChanged: (what) => void this.refresh(what).then(() => this.opts.onListChanged(this.config.name)),
        ...(this.opts.log ? { log: (line: string) => this.opts.log?.(`mcp ${this.config.name}: ${line}`) } : {}),
      });
      if (this.closed) {
        await client.close();
        throw new McpFault('closed', 'the session ended');
      }
      this.client = client;
      const [tools, resources, prompts] = await Promise.all([client.listTools(), client.listResources().catch(noEntries), client.listPrompts().catch(noEntries)]);
      this.tools = tools;
      this.resources = resources;
      this.prompts = prompts;
      this.status = 'ready';
      this.lastError = undefined;
      this.opts.onReady?.(this.config.name);
      return client;
    } catch (error) {
      await this.drop();
      this.status = 'failed';
      this.lastError = describeFault(error);
      throw error instanceof MissingSecretError ? new McpFault('start', error.message) : error;
    }
  }

  private async refresh(what: 'tools' | 'resources' | 'prompts'): Promise<void> {
    const client = this.client;
    if (!client) return;
    try {
      if (what === 'tools') this.tools = await client.listTools();
      else if (what === 'resources') this.resources = await client.listResources();
      else this.prompts = await client.listPrompts();
    } catch {
      // The next reconnect reads the lists again.
    }
  }

  /**
   * Runs one operation on the server. A fault closes the connection (a hung server is killed),
   * so the next call starts it afresh; the error still reaches the caller.
   */
  async run<T>(op: (client: McpClient) => Promise<T>): Promise<T> {
    const client = await this.ensure();
    try {
      return await op(client);
    } catch (error) {
      if (error instanceof McpFault && !(error.kind === 'closed' && error.message === 'interrupted')) {
        this.status = 'failed';
        this.lastError = describeFault(error);
        await this.drop();
      }
      throw error;
    }
  }

  async reconnect(): Promise<void> {
    await this.drop();
    await this.ensure();
  }

  private async drop(): Promise<void> {
    const old = this.client;
    this.client = undefined;
    await old?.close().catch(ignoreError('close the old connection'));
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.drop();
    this.status = 'idle';
  }
}

export function describeFault(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
