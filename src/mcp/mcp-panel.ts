/** The /mcp panel and the MCP lines of /context: per server, status, tools and their token cost. */
import { formatCount } from '../context/format-count.js';
import { escapeForDisplay } from '../policy/escape.js';
import type { McpManager } from './mcp-manager.js';
import type { McpToolSet } from './tool-set.js';

export function mcpContextLines(manager: McpManager, set: McpToolSet): string[] {
  const lines = [
    set.deferred
      ? `MCP: ${formatCount(set.residentTokens)} tokens resident (schemas of ${formatCount(set.schemaTokens)} tokens over the budget of ${formatCount(set.budget)}: searched on demand)`
      : `MCP: ${formatCount(set.schemaTokens)} tokens of tool schemas (budget ${formatCount(set.budget)})`,
  ];
  for (const s of manager.summaries()) {
    const cost = set.perServer.get(s.name) ?? 0;
    lines.push(`  ${s.name}: ${s.status}, ${s.tools} tools, ${formatCount(cost)} tokens${set.deferred ? ' (deferred)' : ''}`);
  }
  return lines;
}

export function formatMcpPanel(manager: McpManager, set: McpToolSet): string[] {
  if (manager.size === 0) return ['No MCP servers configured. Add [[mcp.servers]] entries to your config (see examples/lindwyrm.example.toml).'];
  const lines: string[] = [];
  for (const s of manager.summaries()) {
    const cost = set.perServer.get(s.name) ?? 0;
    const proto = s.protocol ? ` · protocol ${s.protocol}` : '';
    lines.push(`${s.name} (${s.transport}) — ${s.status}${proto}`);
    lines.push(`  ${s.tools} tools · ${formatCount(cost)} tokens${set.deferred ? ' (deferred behind mcp_search_tools)' : ''} · ${s.resources} resources · ${s.prompts} prompts`);
    if (s.error) lines.push(`  last error: ${escapeForDisplay(s.error)}`);
    if (s.logFile) lines.push(`  stderr log: ${s.logFile}`);
  }
  const pending = manager.pendingChanges();
  if (pending.length) lines.push(`Changed since the session started (applied at the next summary, /compact, /clear or /model): ${pending.join(', ')}`);
  lines.push(...mcpContextLines(manager, set).slice(0, 1));
  lines.push('/mcp reconnect NAME restarts a server.');
  return lines;
}
