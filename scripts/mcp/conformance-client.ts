/**
 * The client the MCP conformance suite launches: `conformance-client.ts URL`, scenario name in
 * MCP_CONFORMANCE_SCENARIO. It points lindwyrm's own MCP client (src/mcp/) at the scenario's
 * server: connect (revision negotiated), list the tools, call each one, and exit 0 only if all
 * of that worked. The browser step of OAuth is a plain GET of the authorization URL whose
 * redirect is followed to lindwyrm's loopback listener, as a browser would.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { McpClient } from '../../src/mcp/client.js';
import { createHttpTransport } from '../../src/mcp/http-transport.js';
import { createOAuth } from '../../src/mcp/oauth/oauth-client.js';
import { createTokenStore } from '../../src/mcp/oauth/token-store.js';

const url = process.argv[2];
if (!url) {
  process.stderr.write('usage: conformance-client.ts SERVER_URL\n');
  process.exit(2);
}
const scenario = process.env['MCP_CONFORMANCE_SCENARIO'] ?? '';
const context = JSON.parse(process.env['MCP_CONFORMANCE_CONTEXT'] ?? '{}') as Record<string, unknown>;
const dir = mkdtempSync(join(tmpdir(), 'lwyrm-conformance-'));

/** A browser: follows the authorization server's redirect to the loopback address. */
async function browse(authorizationUrl: string): Promise<void> {
  const res = await fetch(authorizationUrl, { redirect: 'manual' });
  const location = res.headers.get('location');
  if (!location) throw new Error(`no redirect from ${authorizationUrl} (HTTP ${res.status})`);
  await (await fetch(location)).text();
}

function exampleArgs(schema: Record<string, unknown>): Record<string, unknown> {
  const props = (schema['properties'] ?? {}) as Record<string, { type?: string; default?: unknown }>;
  const out: Record<string, unknown> = {};
  for (const [k, p] of Object.entries(props)) {
    out[k] = p.default ?? (p.type === 'number' || p.type === 'integer' ? 1 : p.type === 'boolean' ? true : p.type === 'string' ? 'x' : {});
  }
  return out;
}

async function main(): Promise<void> {
  const auth = createOAuth({
    serverUrl: url!,
    store: createTokenStore(join(dir, 'tokens')),
    openUrl: browse,
    ...(typeof context['client_id'] === 'string'
      ? { preRegistered: { clientId: context['client_id'], ...(typeof context['client_secret'] === 'string' ? { clientSecret: context['client_secret'] } : {}) } }
      : {}),
    clientMetadataUrl: 'https://conformance-test.local/client-metadata.json',
    browserTimeoutMs: 20_000,
  });
  const client = await McpClient.connect({
    transport: createHttpTransport({ url: url!, headers: {}, auth }),
    timeoutMs: 20_000,
    // The suite's elicitation scenario: accept, leaving every field to the server's defaults.
    onElicit: async () => ({ action: 'accept', content: {} }),
    log: (line) => process.stderr.write(`${line}\n`),
  });
  const tools = await client.listTools();
  for (const tool of tools) {
    const result = await client.callTool(tool.name, exampleArgs(tool.inputSchema));
    process.stdout.write(`${tool.name}: ${JSON.stringify(result.content).slice(0, 200)}\n`);
  }
  await client.close();
}

main().then(
  () => {
    rmSync(dir, { recursive: true, force: true });
    process.stdout.write(`${scenario}: done\n`);
  },
  (error: unknown) => {
    rmSync(dir, { recursive: true, force: true });
    process.stderr.write(`${scenario}: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
