/**
 * The MCP servers an editor passes in session/new and session/load, in the shape of lindwyrm's
 * own `[[mcp.servers]]` entries (name, command, args, env, url, headers).
 *
 * Seam for the MCP client (issue 21, src/mcp/): it is not in this build yet, so the servers are
 * checked and named in a notice, not started. When it lands, pass `entries` to it when the
 * session is assembled, beside config.mcp.servers. They come from the editor's settings, which
 * the user wrote, so they are trusted as user-level servers are — never as a project's.
 */
import { RPC, RpcError } from './json-rpc.js';

export interface McpServerEntry {
  readonly name: string;
  readonly command?: string;
  readonly args?: readonly string[];
  readonly env?: Readonly<Record<string, string>>;
  readonly url?: string;
  readonly headers?: Readonly<Record<string, string>>;
}

/** Whether this build can start MCP servers; initialize advertises http/sse support from it. */
export const MCP_CLIENT_AVAILABLE = false;

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
      if (typeof s['url'] !== 'string') throw new RpcError(RPC.invalidParams, `mcpServers "${name}": an ${s['type']} server needs a url`);
      return { name, url: s['url'], headers: pairs(s['headers'], 'headers', name) };
    }
    if (typeof s['command'] !== 'string' || !s['command']) throw new RpcError(RPC.invalidParams, `mcpServers "${name}": a stdio server needs a command`);
    const args = Array.isArray(s['args']) ? s['args'].map(String) : [];
    return { name, command: s['command'], args, env: pairs(s['env'], 'env', name) };
  });
}

/** What the session tells the user about servers it could not start. */
export function mcpNotice(entries: readonly McpServerEntry[]): string | undefined {
  if (entries.length === 0 || MCP_CLIENT_AVAILABLE) return undefined;
  return `The editor passed MCP servers (${entries.map((e) => e.name).join(', ')}); this build of lindwyrm has no MCP client yet, so they were not started.`;
}
