/**
 * The two tools that stand in for MCP schemas over budget: `mcp_search_tools` finds tools by
 * words in their names and descriptions, `mcp_describe_tool` gives one tool's full schema. Their
 * text depends only on the frozen list, so the prompt stays byte-stable.
 */
import { arg, optional } from '../tools/args.js';
import { defineTool } from '../tools/define-tool.js';
import { failure, success } from '../tools/results.js';
import type { ToolDefinition } from '../tools/types.js';
import type { FrozenTool } from './mcp-manager.js';
import { describeFor, exposedName } from './tool-names.js';

const words = (text: string): string[] => text.toLowerCase().split(/[^a-z0-9]+/).filter((w) => w.length > 1);

function score(t: FrozenTool, query: string[]): number {
  const name = words(`${t.tool.name} ${t.tool.title ?? ''}`);
  const desc = words(t.tool.description ?? '');
  let s = 0;
  for (const q of query) {
    if (name.some((w) => w === q)) s += 5;
    else if (name.some((w) => w.startsWith(q) || q.startsWith(w))) s += 3;
    if (desc.includes(q)) s += 1;
    else if (desc.some((w) => w.startsWith(q))) s += 0.5;
  }
  return s;
}

function oneLine(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

export function searchTools(frozen: readonly FrozenTool[]): ToolDefinition[] {
  const counts = new Map<string, number>();
  for (const t of frozen) counts.set(t.server, (counts.get(t.server) ?? 0) + 1);
  const servers = [...counts].map(([s, n]) => `${s} (${n})`).join(', ');
  const byName = new Map(frozen.map((t) => [exposedName(t.server, t.tool.name), t]));
  const search = defineTool({
    name: 'mcp_search_tools',
    description:
      `Search the tools of the connected MCP servers (${servers}) by words; their schemas are not loaded to save context. ` +
      "Returns matching tool names with one-line descriptions. Then call mcp_describe_tool for a tool's arguments, and call the tool by its name.",
    args: {
      query: arg.string('Words describing what you want to do, e.g. "create issue".'),
      server: optional(arg.string("Only this server's tools.")),
    },
    kind: 'none',
    title: (input) => (typeof input['query'] === 'string' ? input['query'] : undefined),
    async run({ query: text, server }) {
      const query = words(text);
      if (query.length === 0) return failure('mcp_search_tools: give query, a few words.', 'bad arguments', 'invalid_args');
      const ranked = frozen
        .filter((t) => server === undefined || t.server === server)
        .map((t) => ({ t, s: score(t, query) }))
        .filter((r) => r.s > 0)
        .sort((x, y) => y.s - x.s)
        .slice(0, 15);
      if (ranked.length === 0) return success(`No MCP tool matches "${query.join(' ')}". Servers: ${servers}.`, 'no match');
      const lines = ranked.map(({ t }) => `${exposedName(t.server, t.tool.name)} — ${oneLine(t.tool.description ?? t.tool.title ?? '', 120)}`);
      return success(`${lines.join('\n')}\n(mcp_describe_tool gives a tool's arguments; then call it by name.)`, `${ranked.length} tools`);
    },
  });
  const describe = defineTool({
    name: 'mcp_describe_tool',
    description: 'The full description and JSON schema of one MCP tool found with mcp_search_tools. Call the tool itself by that name afterwards.',
    args: { name: arg.string('The tool name, e.g. mcp__github__create_issue.', { trim: true }) },
    kind: 'none',
    async run({ name }) {
      const t = byName.get(name);
      if (!t) return failure(`No MCP tool named "${name}". Find names with mcp_search_tools.`, `unknown tool ${name.slice(0, 60)}`, 'not_found');
      const readOnly = t.tool.annotations?.readOnlyHint === true ? '\nread-only (the server says)' : '';
      return success(`${name}\n${describeFor(t)}${readOnly}\ninput schema:\n${JSON.stringify(t.tool.inputSchema, null, 1)}`, name);
    },
  });
  return [search, describe];
}
