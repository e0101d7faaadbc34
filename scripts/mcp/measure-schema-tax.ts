/**
 * Prints what MCP tool schemas cost in every request, with and without the search tools: a
 * 50-tool stdio server (the test fixture, GitHub-style schemas) at a 200K and a 1M window.
 * Usage: node --import tsx scripts/mcp/measure-schema-tax.ts
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { McpManager } from '../../src/mcp/mcp-manager.js';
import { buildMcpToolSet } from '../../src/mcp/tool-set.js';

const dir = mkdtempSync(join(tmpdir(), 'lwyrm-schema-tax-'));
const fixture = new URL('../../test/mcp/fixtures/flaky-server.mjs', import.meta.url).pathname;
const manager = new McpManager(
  [{ name: 'github', origin: 'user', command: process.execPath, args: [fixture], env: { MANY_TOOLS: '42' }, headers: {}, allow: [], deny: [], enabled: true, cwd: dir, sandbox: false }],
  { env: process.env, logDir: join(dir, 'logs'), tokenDir: join(dir, 'auth'), defaultTimeoutMs: 10_000, openUrl: () => undefined, onSecret: () => undefined },
);
await manager.start(15_000);
for (const window of [200_000, 1_000_000]) {
  const set = buildMcpToolSet(manager, { window });
  process.stdout.write(
    `window ${window}: ${manager.tools().length} tools, schemas ${set.schemaTokens} tokens, budget ${set.budget}, ` +
      `${set.deferred ? 'deferred' : 'inline'}: ${set.residentTokens} tokens resident\n`,
  );
}
await manager.close();
rmSync(dir, { recursive: true, force: true });
