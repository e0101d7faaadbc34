/** read_resource {server, uri}: the contents of one resource an MCP server offers. */
import { arg } from '../tools/args.js';
import { defineTool } from '../tools/define-tool.js';
import { failure, success } from '../tools/results.js';
import type { ToolDefinition } from '../tools/types.js';
import { faultResult } from './call-result.js';
import type { McpManager } from './mcp-manager.js';

export function readResourceTool(manager: McpManager): ToolDefinition {
  return defineTool({
    name: 'read_resource',
    description: 'Read a resource from an MCP server by its URI (as listed by the server, or mentioned as @server:uri).',
    args: {
      server: arg.string("The MCP server's name.", { nonEmpty: true, trim: true }),
      uri: arg.string('The resource URI.', { nonEmpty: true, trim: true }),
    },
    // A read changes nothing on the server: it runs without asking, like read_file inside the
    // project, and is audited like every tool that reaches outside.
    kind: 'other',
    changes: false,
    bulk: true,
    title: (input) => (typeof input['server'] === 'string' && typeof input['uri'] === 'string' ? `${input['server']}:${input['uri']}` : undefined),
    subject: ({ server, uri }) => `${server}:${uri}`,
    async run({ server, uri }, ctx) {
      const conn = manager.connection(server);
      if (!conn) {
        const names = manager.summaries().map((s) => s.name).join(', ') || 'none';
        return failure(`read_resource: no MCP server "${server}" (servers: ${names}).`, `unknown server ${server}`, 'not_found');
      }
      if (ctx.audit) ctx.audit.target = `${server}:${uri}`;
      try {
        const contents = await conn.run((client) => client.readResource(uri, ctx.signal));
        const parts = contents.map((c) =>
          typeof c['text'] === 'string'
            ? c['text']
            : `[binary ${String(c['mimeType'] ?? 'data')} ${typeof c['blob'] === 'string' ? `${Math.floor((c['blob'].length * 3) / 4)} bytes` : ''}]`,
        );
        const text = parts.join('\n') || '(empty resource)';
        return success(text, `${server}:${uri.slice(0, 60)} (${text.length} chars)`);
      } catch (error) {
        return faultResult(`read_resource ${server}:${uri}`, server, error);
      }
    },
  });
}
