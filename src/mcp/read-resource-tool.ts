/** read_resource {server, uri}: the contents of one resource an MCP server offers. */
import type { ToolDefinition } from '../tools/types.js';
import { faultResult } from './call-result.js';
import type { McpManager } from './mcp-manager.js';
import { isRecord } from './protocol.js';

export function readResourceTool(manager: McpManager): ToolDefinition {
  return {
    name: 'read_resource',
    description: 'Read a resource from an MCP server by its URI (as listed by the server, or mentioned as @server:uri).',
    inputSchema: {
      type: 'object',
      properties: {
        server: { type: 'string', description: 'The MCP server\'s name.' },
        uri: { type: 'string', description: 'The resource URI.' },
      },
      required: ['server', 'uri'],
      additionalProperties: false,
    },
    kind: 'mcp',
    bulk: true,
    async run(args, ctx) {
      const a = isRecord(args) ? args : {};
      const server = typeof a['server'] === 'string' ? a['server'] : '';
      const uri = typeof a['uri'] === 'string' ? a['uri'] : '';
      const conn = manager.connection(server);
      if (!conn) {
        const names = manager.summaries().map((s) => s.name).join(', ') || 'none';
        return { ok: false, content: `read_resource: no MCP server "${server}" (servers: ${names}).`, summary: 'unknown server' };
      }
      if (!uri) return { ok: false, content: 'read_resource: give uri.', summary: 'bad arguments' };
      // A read changes nothing on the server: it runs without asking, like read_file.
      try {
        const contents = await conn.run((client) => client.readResource(uri, ctx.signal));
        const parts = contents.map((c) =>
          typeof c['text'] === 'string'
            ? c['text']
            : `[binary ${String(c['mimeType'] ?? 'data')} ${typeof c['blob'] === 'string' ? `${Math.floor((c['blob'].length * 3) / 4)} bytes` : ''}]`,
        );
        const text = parts.join('\n') || '(empty resource)';
        return { ok: true, content: text, summary: `${server}:${uri.slice(0, 60)} (${text.length} chars)` };
      } catch (error) {
        return faultResult(`read_resource ${server}:${uri}`, server, error);
      }
    },
  };
}
