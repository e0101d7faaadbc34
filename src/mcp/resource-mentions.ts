/**
 * `@` completion for MCP resources: the composer calls this with what follows the `@` and shows
 * `@server:uri` entries (engine.mcp is the view it reads). Pure over the servers' lists.
 */
import type { ResourceEntry } from './mcp-manager.js';
import type { McpView } from './session-mcp.js';

export interface ResourceMention {
  /** What the composer inserts: `@server:uri`. */
  readonly text: string;
  readonly label: string;
  readonly entry: ResourceEntry;
}

export function resourceMentions(mcp: McpView | undefined, typed: string, limit = 20): ResourceMention[] {
  if (!mcp) return [];
  const q = typed.replace(/^@/, '').toLowerCase();
  const out: ResourceMention[] = [];
  for (const entry of mcp.resources()) {
    const text = `@${entry.server}:${entry.uri}`;
    const hay = `${entry.server}:${entry.uri} ${entry.name}`.toLowerCase();
    if (q && !hay.includes(q)) continue;
    out.push({ text, label: `${entry.name} (${entry.server})`, entry });
    if (out.length >= limit) break;
  }
  return out;
}

/** `@server:uri` mentions in a prompt, for the engine to read before the turn (or the model to read_resource). */
export function findResourceMentions(text: string): { server: string; uri: string }[] {
  const out: { server: string; uri: string }[] = [];
  for (const m of text.matchAll(/(?:^|\s)@([A-Za-z0-9][A-Za-z0-9_-]*):(\S+)/g)) out.push({ server: m[1] ?? '', uri: m[2] ?? '' });
  return out;
}
