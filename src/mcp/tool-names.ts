/** How an MCP tool is named and described to the model. */
import { createHash } from 'node:crypto';
import type { JsonSchemaObject } from '../providers/types.js';
import type { FrozenTool } from './mcp-manager.js';
import { isRecord } from './protocol.js';

/** Provider tool names: [A-Za-z0-9_-], at most 64 characters. */
export function exposedName(server: string, tool: string): string {
  const name = `mcp__${server}__${tool}`.replace(/[^A-Za-z0-9_-]/g, '_');
  if (name.length <= 64) return name;
  const hash = createHash('sha256').update(`${server}\u0000${tool}`).digest('hex').slice(0, 8);
  return `${name.slice(0, 55)}_${hash}`;
}

/** The schema as providers accept it: an object schema, even when a server's is loose. */
export function objectSchema(schema: Record<string, unknown>): JsonSchemaObject {
  const properties = isRecord(schema['properties']) ? schema['properties'] : {};
  const out: Record<string, unknown> = { ...schema, type: 'object', properties };
  return out as unknown as JsonSchemaObject;
}

export function describeFor(t: FrozenTool): string {
  const text = (t.tool.description ?? t.tool.title ?? '').trim();
  return `[${t.server} MCP server] ${text || t.tool.name}`;
}
