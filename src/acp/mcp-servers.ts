/**
 * The MCP servers an editor passes in session/new and session/load, as lindwyrm's own
 * `[[mcp.servers]]` entries: they start with the session beside the configured ones, through the
 * same MCP client (src/mcp/). They come from the editor's settings, which the user wrote, so they
 * are trusted as the user's own servers are — never as a project's: their readOnlyHint is
 * believed, every other tool asks (default confirm), and they start in an untrusted project too.
 */
import type { Config, McpServerConfig } from '../config/types.js';
import { RPC, RpcError } from './json-rpc.js';

export interface McpServerEntry {
  readonly name: string;
  /** stdio, streamable HTTP, or the old HTTP+SSE transport (which lindwyrm does not speak). */
  readonly transport: 'stdio' | 'http' | 'sse';
  readonly command?: string;
  readonly args?: readonly string[];
  readonly env?: Readonly<Record<string, string>>;
  readonly url?: string;
  readonly headers?: Readonly<Record<string, string>>;
}

/** Whether this build can start MCP servers; initialize advertises http support from it. */
export const MCP_CLIENT_AVAILABLE = true;

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

function pairs(list: unknown, what: string, server: string): Record<string, string> {
  if (list === undefined || list === null) return {};
  if (!Array.isArray(list)) throw new RpcError(RPC.invalidParams, `mcpServers "${server}": ${what} must be an array of {name, value}`);
  const out: Record<string, string> = {};
  for (const item of list) {
    if (!isObject(item) || typeof item['name'] !== 'string' || typeof item['value'] !== 'string') {
      throw new RpcError(RPC.invalidParams, `mcpServers "${server}": every ${what} entry needs a string name and value`);
    }
    out[item['name']] = item['value'];
  }
  return out;
}

export function mcpEntriesFromClient(servers: unknown): McpServerEntry[] {
  if (servers === undefined || servers === null) return [];
  if (!Array.isArray(servers)) throw new RpcError(RPC.invalidParams, 'mcpServers must be an array');
  return servers.map((s, i): McpServerEntry => {
    if (!isObject(s) || typeof s['name'] !== 'string' || !s['name']) throw new RpcError(RPC.invalidParams, `mcpServers[${i}] needs a name`);
    const name = s['name'];
    if (s['type'] === 'http' || s['type'] === 'sse') {
      if (typeof s['url'] !== 'string' || !/^https?:\/\/[^/]/.test(s['url'])) {
        throw new RpcError(RPC.invalidParams, `mcpServers "${name}": an ${s['type']} server needs an http:// or https:// url`);
      }
      return { name, transport: s['type'], url: s['url'], headers: pairs(s['headers'], 'headers', name) };
    }
    if (typeof s['command'] !== 'string' || !s['command']) throw new RpcError(RPC.invalidParams, `mcpServers "${name}": a stdio server needs a command`);
    const args = Array.isArray(s['args']) ? s['args'].map(String) : [];
    return { name, transport: 'stdio', command: s['command'], args, env: pairs(s['env'], 'env', name) };
  });
}

/**
 * A server name as lindwyrm's config requires it (tool names are mcp__SERVER__TOOL, prompts
 * /SERVER:PROMPT): an editor's "GitHub MCP" becomes GitHub-MCP.
 */
function configName(name: string, taken: ReadonlySet<string>): string {
  const base = name.replace(/[^A-Za-z0-9_-]+/g, '-').replace(/_{2,}/g, '_').replace(/^[-_]+|[-_]+$/g, '') || 'server';
  let out = base;
  for (let n = 2; taken.has(out); n++) out = `${base}-${n}`;
  return out;
}

/**
 * The config the session starts with: the editor's servers after the configured ones, as the
 * user's own. One with the name of a configured server is left out (the config's, with its
 * allow and deny rules, is used); an HTTP+SSE one is named, not started.
 */
export function withEditorServers(config: Config, entries: readonly McpServerEntry[]): { config: Config; notices: string[] } {
  if (entries.length === 0) return { config, notices: [] };
  const configured = config.mcpServers ?? [];
  const taken = new Set(configured.map((s) => s.name));
  const notices: string[] = [];
  const added: McpServerConfig[] = [];
  for (const e of entries) {
    if (e.transport === 'sse') {
      notices.push(`The editor's MCP server "${e.name}" uses the old HTTP+SSE transport, which lindwyrm does not speak; it was not started (use its streamable HTTP URL).`);
      continue;
    }
    if (configured.some((s) => s.name === e.name)) {
      notices.push(`The editor's MCP server "${e.name}" is also in your lindwyrm config; the config's entry is used.`);
      continue;
    }
    const name = configName(e.name, taken);
    taken.add(name);
    added.push({
      name,
      origin: 'user',
      // The editor's servers run in the sandbox like the config's (sandbox = false is a config choice).
      sandbox: true,
      ...(e.command !== undefined ? { command: e.command } : {}),
      args: e.args ?? [],
      env: e.env ?? {},
      ...(e.url !== undefined ? { url: e.url } : {}),
      headers: e.headers ?? {},
      allow: [],
      deny: [],
      enabled: true,
      cwd: config.projectRoot,
      literalValues: true,
    });
  }
  return { config: { ...config, mcpServers: [...configured, ...added] }, notices };
}
