/**
 * What a session gets from MCP: the manager with its servers started, the tool set for a given
 * window (byte-stable for the same frozen lists), and the slash commands /mcp and /SERVER:PROMPT.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import type { Config } from '../config/types.js';
import { McpManager } from './mcp-manager.js';
import { formatMcpPanel, mcpContextLines } from './mcp-panel.js';
import { expandPrompt } from './prompt-command.js';
import type { StdioSpec } from './stdio-transport.js';
import { buildMcpToolSet, type McpToolSet } from './tool-set.js';

type Env = Readonly<Record<string, string | undefined>>;

export interface SessionMcp {
  readonly manager: McpManager;
  toolSet(window: number): McpToolSet;
  /** At a prefix rewrite: a notice when the lists changed (the caller rebuilds the tools). */
  refreeze(): string | undefined;
  panel(window: number): string[];
  contextLines(window: number): string[];
  expandPrompt(command: string): Promise<string>;
  close(): Promise<void>;
}

export interface OpenMcpOptions {
  readonly config: Config;
  readonly env: Env;
  readonly dataDir: string;
  /** One line for the user (a startup notice, then the transcript). */
  readonly notify: (text: string) => void;
  readonly onSecret: (value: string) => void;
  readonly log?: (line: string) => void;
  readonly startupTimeoutMs?: number;
  readonly callTimeoutMs?: number;
  readonly spawnServer?: (spec: StdioSpec) => ChildProcess;
}

const STARTUP_MS = 30_000;
const CALL_MS = 120_000;

/** The browser, when there is one; the URL is always shown too (a remote shell has none). */
function openBrowser(url: string, env: Env): void {
  const command = env['BROWSER'] || (process.platform === 'darwin' ? 'open' : process.platform === 'win32' ? 'explorer' : 'xdg-open');
  try {
    const child = spawn(command, [url], { detached: true, stdio: 'ignore' });
    child.on('error', () => undefined);
    child.unref();
  } catch {
    // the printed URL is enough
  }
}

export async function openSessionMcp(opts: OpenMcpOptions): Promise<SessionMcp | undefined> {
  const servers = opts.config.mcpServers ?? [];
  if (servers.length === 0) return undefined;
  const manager = new McpManager(servers, {
    env: opts.env,
    logDir: join(opts.dataDir, 'mcp-logs'),
    tokenDir: join(opts.dataDir, 'mcp-auth'),
    defaultTimeoutMs: opts.callTimeoutMs ?? CALL_MS,
    openUrl: (server, url) => {
      opts.notify(`MCP server ${server} needs authorization: open ${url}`);
      openBrowser(url, opts.env);
    },
    onListChanged: (server) => opts.log?.(`mcp ${server}: list changed (applies at the next prefix rewrite)`),
    onSecret: opts.onSecret,
    ...(opts.spawnServer ? { spawnServer: opts.spawnServer } : {}),
    ...(opts.log ? { log: opts.log } : {}),
  });
  for (const problem of await manager.start(opts.startupTimeoutMs ?? STARTUP_MS)) opts.notify(problem);
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
    toolSet,
    refreeze() {
      const note = manager.refreeze();
      if (note) sets.clear();
      return note;
    },
    panel: (window) => formatMcpPanel(manager, toolSet(window)),
    contextLines: (window) => mcpContextLines(manager, toolSet(window)),
    expandPrompt: (command) => expandPrompt(manager, command),
    close: () => manager.close(),
  };
}
