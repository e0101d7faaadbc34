/**
 * The MCP tools a session offers: one `mcp__SERVER__TOOL` per frozen server tool, and
 * `read_resource`. When all of their schemas together cost more than the budget (default 2% of
 * the window), they are withheld: two small tools take their place — search the servers' tools
 * by words, describe one — and the model calls a found tool by its name, which still works.
 */
import { estimateTools } from '../context/estimate-tokens.js';
import type { ToolSchema } from '../providers/types.js';
import { defineTool } from '../tools/define-tool.js';
import { failure } from '../tools/results.js';
import type { ToolDefinition } from '../tools/types.js';
import { faultResult, toToolResult } from './call-result.js';
import type { FrozenTool, McpManager } from './mcp-manager.js';
import { believedReadOnly, decideMcp, gateMcp } from './mcp-policy.js';
import { readResourceTool } from './read-resource-tool.js';
import { searchTools } from './search-tools.js';
import { describeFor, exposedName, objectSchema } from './tool-names.js';

export interface McpToolSet {
  readonly tools: readonly ToolDefinition[];
  /** True when the schemas were over budget and only the search tools are offered. */
  readonly deferred: boolean;
  /** Estimated tokens of all MCP schemas, and of what is resident in the prompt. */
  readonly schemaTokens: number;
  readonly residentTokens: number;
  readonly perServer: ReadonlyMap<string, number>;
  readonly budget: number;
}

/**
 * One server tool as a lindwyrm tool. Its kind is 'other' (audited, not path-gated): the MCP gate
 * is its policy hook. It may change things unless its readOnlyHint is believed, so --read-only
 * withholds it and a read-only session's gate refuses it.
 */
function definitionFor(manager: McpManager, t: FrozenTool, hidden: boolean): ToolDefinition {
  const full = exposedName(t.server, t.tool.name);
  const conn = manager.connection(t.server);
  return defineTool({
    name: full,
    description: describeFor(t),
    inputSchema: objectSchema(t.tool.inputSchema),
    kind: 'other',
    changes: !believedReadOnly(t.trusted, t.tool),
    // Large results go to disk behind a stub, like any bulk tool's.
    bulk: true,
    hidden,
    // The call's detail in the transcript: its first text argument (a query, a path, a title).
    title: (input) => Object.values(input).find((v): v is string => typeof v === 'string' && v.trim() !== ''),
    async run(args, ctx) {
      if (!conn) return failure(`No MCP server ${t.server} in this session.`, `no server ${t.server}`, 'unavailable');
      const decision = decideMcp(conn.config, t.tool, full, ctx.readOnly);
      const stop = await gateMcp(ctx, { full, server: t.server, tool: t.tool.name, decision, args, grants: manager.grants });
      if (stop) return stop;
      try {
        const result = await conn.run((client) => client.callTool(t.tool.name, args, ctx.signal));
        return toToolResult(full, result, ctx.vision, ctx.onOutput);
      } catch (error) {
        return faultResult(full, t.server, error);
      }
    },
  });
}

export function buildMcpToolSet(manager: McpManager, opts: { window: number; budget?: number }): McpToolSet {
  const frozen = manager.tools();
  const budget = opts.budget ?? Math.floor(opts.window * 0.02);
  const perServer = new Map<string, number>();
  const all = frozen.map((t) => {
    const def = definitionFor(manager, t, false);
    const schema: ToolSchema = { name: def.name, description: def.description, inputSchema: def.inputSchema };
    perServer.set(t.server, (perServer.get(t.server) ?? 0) + estimateTools([schema]));
    return def;
  });
  // Offered whenever there are servers: one that lists no resources at the start may later.
  const extras: ToolDefinition[] = manager.size > 0 ? [readResourceTool(manager)] : [];
  const schemaTokens = [...perServer.values()].reduce((a, b) => a + b, 0);
  const resident = (defs: readonly ToolDefinition[]): number => estimateTools(defs.filter((d) => !d.hidden).map((d) => ({ name: d.name, description: d.description, inputSchema: d.inputSchema })));
  if (schemaTokens <= budget) {
    const tools = [...all, ...extras];
    return { tools, deferred: false, schemaTokens, residentTokens: resident(tools), perServer, budget };
  }
  const tools = [...searchTools(frozen), ...extras, ...frozen.map((t) => definitionFor(manager, t, true))];
  return { tools, deferred: true, schemaTokens, residentTokens: resident(tools), perServer, budget };
}
