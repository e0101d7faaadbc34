/**
 * All of a session's MCP servers. Their tools are read when the session starts and frozen: the
 * prompt prefix stays byte-identical, so the provider's cache keeps hitting. A server whose list
 * changes (a notification, a reconnect) is picked up at the next prefix rewrite, with a notice.
 */
import type { McpServerConfig } from '../config/types.js';
import type { McpPrompt, McpResource, McpTool } from './protocol.js';
import { ServerConnection, type ConnectionOptions, type ServerStatus } from './server-connection.js';

export interface FrozenTool {
  readonly server: string;
  readonly tool: McpTool;
  /** Only a server the user configured has its annotations believed. */
  readonly trusted: boolean;
}

export interface ServerSummary {
  readonly name: string;
  readonly transport: 'stdio' | 'http';
  readonly status: ServerStatus;
  readonly error?: string;
  readonly protocol?: string;
  readonly tools: number;
  readonly resources: number;
  readonly prompts: number;
  readonly logFile?: string;
}

/** A resource as `@` completion offers it: `@server:uri`. */
export interface ResourceEntry {
  readonly server: string;
  readonly uri: string;
  readonly name: string;
  readonly description?: string;
  readonly mimeType?: string;
}

export class McpManager {
  private readonly connections = new Map<string, ServerConnection>();
  private frozen: readonly FrozenTool[] = [];
  private changed = new Set<string>();
  private readonly listeners = new Set<(server: string) => void>();
  /** [a]lways answers: full tool names run without asking for the rest of the session. */
  readonly grants = new Set<string>();

  constructor(servers: readonly McpServerConfig[], opts: Omit<ConnectionOptions, 'onListChanged' | 'onReady'> & { onListChanged?: (server: string) => void }) {
    const changedOn = (name: string): void => {
      if (this.differsFromFrozen(name)) this.changed.add(name);
      for (const listener of [...this.listeners]) listener(name);
    };
    for (const config of servers) {
      this.connections.set(
        config.name,
        new ServerConnection(config, {
          ...opts,
          onListChanged: (name) => {
            changedOn(name);
            opts.onListChanged?.(name);
          },
          // A server that came up late (or again, after a fault) may bring other lists.
          onReady: changedOn,
        }),
      );
    }
  }

  /** Called whenever a server is ready or one of its lists changed (its prompts, for the slash commands). */
  onChange(listener: (server: string) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private differsFromFrozen(name: string): boolean {
    const key = (tools: readonly McpTool[]): string => JSON.stringify([...tools].sort((a, b) => cmp(a.name, b.name)));
    const frozen = this.frozen.filter((t) => t.server === name).map((t) => t.tool);
    return key(frozen) !== key(this.connections.get(name)?.tools ?? []);
  }

  get size(): number {
    return this.connections.size;
  }

  connection(name: string): ServerConnection | undefined {
    return this.connections.get(name);
  }

  /** Starts every server at once; one that fails is reported, the others go on. */
  async start(timeoutMs: number): Promise<string[]> {
    const problems: string[] = [];
    await Promise.all(
      [...this.connections.values()].map(async (c) => {
        let timer: NodeJS.Timeout | undefined;
        const limit = new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error(`did not answer within ${Math.round(timeoutMs / 1000)} s`)), timeoutMs);
        });
        try {
          await Promise.race([c.ensure(), limit]);
        } catch (error) {
          if (c.status !== 'ready') {
            c.status = 'failed';
            c.lastError ??= error instanceof Error ? error.message : String(error);
            problems.push(`MCP server ${c.config.name} is unavailable: ${c.lastError} (it is tried again when one of its tools is called; /mcp reconnect ${c.config.name})`);
          }
        } finally {
          clearTimeout(timer);
        }
      }),
    );
    this.freeze();
    return problems;
  }

  /** The tools as the prompt carries them: sorted by server, then tool name. */
  tools(): readonly FrozenTool[] {
    return this.frozen;
  }

  private current(): FrozenTool[] {
    const out: FrozenTool[] = [];
    for (const c of this.connections.values()) {
      for (const tool of c.tools) out.push({ server: c.config.name, tool, trusted: c.config.origin === 'user' });
    }
    return out.sort((a, b) => (a.server === b.server ? cmp(a.tool.name, b.tool.name) : cmp(a.server, b.server)));
  }

  private freeze(): void {
    this.frozen = Object.freeze(this.current());
    this.changed.clear();
  }

  /**
   * At a prefix rewrite: the lists as they are now. Returns a notice when they differ from the
   * frozen ones (undefined when nothing changed, so the prompt stays the same).
   */
  refreeze(): string | undefined {
    const before = new Map(this.frozen.map((t) => [`${t.server}\u0000${t.tool.name}`, JSON.stringify(t.tool)]));
    const now = this.current();
    const after = new Map(now.map((t) => [`${t.server}\u0000${t.tool.name}`, JSON.stringify(t.tool)]));
    const perServer = new Map<string, { added: number; removed: number; changed: number }>();
    const bump = (key: string, field: 'added' | 'removed' | 'changed'): void => {
      const server = key.split('\u0000')[0] ?? '';
      const entry = perServer.get(server) ?? { added: 0, removed: 0, changed: 0 };
      entry[field]++;
      perServer.set(server, entry);
    };
    for (const [k, v] of after) if (!before.has(k)) bump(k, 'added');
    else if (before.get(k) !== v) bump(k, 'changed');
    for (const k of before.keys()) if (!after.has(k)) bump(k, 'removed');
    this.changed.clear();
    if (perServer.size === 0) return undefined;
    this.frozen = Object.freeze(now);
    const parts = [...perServer].map(([s, d]) => `${s} (${[d.added ? `+${d.added}` : '', d.removed ? `−${d.removed}` : '', d.changed ? `${d.changed} changed` : ''].filter(Boolean).join(' ')})`);
    return `MCP tool lists changed and now apply: ${parts.join(', ')}.`;
  }

  /** Servers that announced a change not yet in the prompt. */
  pendingChanges(): readonly string[] {
    return [...this.changed];
  }

  summaries(): ServerSummary[] {
    return [...this.connections.values()].map((c) => ({
      name: c.config.name,
      transport: c.config.url !== undefined ? 'http' : 'stdio',
      status: c.status,
      ...(c.lastError ? { error: c.lastError } : {}),
      ...(c.protocol ? { protocol: c.protocol } : {}),
      tools: this.frozen.filter((t) => t.server === c.config.name).length,
      resources: c.resources.length,
      prompts: c.prompts.length,
      ...(c.config.url === undefined ? { logFile: c.logFile } : {}),
    }));
  }

  /** Every resource the servers listed, for `@` completion and the read_resource tool. */
  resources(): ResourceEntry[] {
    const out: ResourceEntry[] = [];
    for (const c of this.connections.values()) {
      for (const r of c.resources as McpResource[]) {
        out.push({ server: c.config.name, uri: r.uri, name: r.title ?? r.name, ...(r.description ? { description: r.description } : {}), ...(r.mimeType ? { mimeType: r.mimeType } : {}) });
      }
    }
    return out;
  }

  prompts(): { server: string; prompt: McpPrompt }[] {
    return [...this.connections.values()].flatMap((c) => c.prompts.map((prompt) => ({ server: c.config.name, prompt })));
  }

  async reconnect(name: string): Promise<void> {
    const c = this.connections.get(name);
    if (!c) throw new Error(`no MCP server named ${name} (${[...this.connections.keys()].join(', ') || 'none configured'})`);
    await c.reconnect();
  }

  async close(): Promise<void> {
    await Promise.all([...this.connections.values()].map((c) => c.close()));
  }
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
