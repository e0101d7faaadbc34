/**
 * What a session gets from MCP: the servers, started together as the session starts; the tools
 * for a given window (byte-stable for the same frozen lists); and, at a prefix rewrite, the lists
 * that changed since (src/agent/session.ts rebuilds the tools then). The slash commands are in
 * mcp-commands.ts.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import type { Config } from '../config/types.js';
import { ignoreError, reportIgnored } from '../diagnostics/ignore-error.js';
import type { ToolDefinition } from '../tools/types.js';
import { McpManager, type ResourceEntry, type ServerSummary } from './mcp-manager.js';
import type { ConnectionOptions } from './server-connection.js';
import { buildMcpToolSet, type McpToolSet } from './tool-set.js';

type Env = Readonly<Record<string, string | undefined>>;

/** What the rest of the program may read of the session's MCP servers (stream-json's init, `@` completion). */
export interface McpView {
  servers(): readonly ServerSummary[];
  /** Every resource the servers listed, for `@server:uri` completion. */
  resources(): readonly ResourceEntry[];
}

export interface SessionMcp extends McpView {
  readonly manager: McpManager;
  /** Settles when every server answered, failed or ran out of its start time. */
  readonly ready: Promise<void>;
  /** The MCP tools and their token figures for a window; the same object while the lists stay frozen. */
  toolSet(window: number): McpToolSet;
  tools(window: number): readonly ToolDefinition[];
  /**
   * At a prefix rewrite: takes in the lists that changed since they were frozen. Returns the
   * notice to show when they did (the tools must be rebuilt), undefined when nothing changed.
   */
  refreeze(): string | undefined;
  close(): Promise<void>;
}

export interface McpOptions {
  /** How long the session waits for a server to start before going on without it. */
  readonly startupTimeoutMs?: number;
  /** A call's time limit, for servers without their own timeout_ms. */
  readonly callTimeoutMs?: number;
  /** The stdio spawn (default spawnStdioServer): a sandbox wraps it. */
  readonly spawnServer?: ConnectionOptions['spawnServer'];
}

export interface OpenMcpOptions extends McpOptions {
  readonly config: Config;
  readonly env: Env;
  readonly dataDir: string;
  /** One line for the user (a startup notice, then the transcript). */
  readonly notify: (text: string) => void;
  readonly onSecret: (value: string) => void;
  readonly log?: (line: string) => void;
}

const STARTUP_MS = 30_000;
const CALL_MS = 120_000;

/** The browser, when there is one; the URL is always shown too (a remote shell has none). */
function openBrowser(url: string, env: Env, log?: (line: string) => void): void {
  const command = env['BROWSER'] || (process.platform === 'darwin' ? 'open' : process.platform === 'win32' ? 'explorer' : 'xdg-open');
  try {
    const child = spawn(command, [url], { detached: true, stdio: 'ignore' });
    child.on('error', ignoreError('open a browser for the authorization URL (it is printed too)', log));
    child.unref();
  } catch (error) {
    reportIgnored('open a browser for the authorization URL (it is printed too)', error, log);
  }
}

/** Starts the configured servers (none: undefined); the session waits for `ready` before its first prompt. */
export function startSessionMcp(opts: OpenMcpOptions): SessionMcp | undefined {
  const servers = opts.config.mcpServers ?? [];
  if (servers.length === 0) return undefined;
  const manager = new McpManager(servers, {
    env: opts.env,
    logDir: join(opts.dataDir, 'mcp-logs'),
    tokenDir: join(opts.dataDir, 'mcp-auth'),
    defaultTimeoutMs: opts.callTimeoutMs ?? CALL_MS,
    openUrl: (server, url) => {
      opts.notify(`MCP server ${server} needs authorization: open ${url}`);
      openBrowser(url, opts.env, opts.log);
    },
    onListChanged: (server) => opts.log?.(`mcp ${server}: list changed (applies at the next prefix rewrite)`),
    onSecret: opts.onSecret,
    ...(opts.spawnServer ? { spawnServer: opts.spawnServer } : {}),
    ...(opts.log ? { log: opts.log } : {}),
  });
  const ready = manager.start(opts.startupTimeoutMs ?? STARTUP_MS).then((problems) => problems.forEach(opts.notify));
  const sets = new Map<number, McpToolSet>();
  const toolSet = (window: number): McpToolSet => {
    let set = sets.get(window);
    if (!set) {
      set = buildMcpToolSet(manager, { window, ...(opts.config.mcpSchemaBudget !== undefined ? { budget: opts.config.mcpSchemaBudget } : {}) });
      sets.set(window, set);
    }
    return set;
  };
  return {
    manager,
    ready,
    servers: () => manager.summaries(),
    resources: () => manager.resources(),
    toolSet,
    tools: (window) => toolSet(window).tools,
    refreeze() {
      const note = manager.refreeze();
      if (note) sets.clear();
      return note;
    },
    async close() {
      await manager.close();
    },
  };
}
