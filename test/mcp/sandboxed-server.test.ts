/**
 * stdio MCP servers start through the command sandbox, like bash: the reference filesystem
 * server, allowed the whole home folder, still cannot read a masked credential folder nor write
 * outside the project — and a user's own server with sandbox = false can, as it would without
 * lindwyrm. A project's server cannot opt out.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { sandboxSkipReason } from '../support/sandbox-host.js';
import { openMcpSession, q, type McpSession } from './support/mcp-session.js';

vi.setConfig({ testTimeout: 60_000 });

const require = createRequire(import.meta.url);
const FILESYSTEM = require.resolve('@modelcontextprotocol/server-filesystem/dist/index.js');
const SECRET = 'ssh-key-material-7c41';
const skip = await sandboxSkipReason();

/** A filesystem server allowed `dir` (the sandbox's HOME), plus extra keys. */
const filesystem = (dir: string, extra = ''): string => `[[mcp.servers]]
name = "fs"
command = ${q(process.execPath)}
args = [${q(FILESYSTEM)}, ${q(dir)}]
allow = ["*"]
${extra}
`;

describe.skipIf(skip !== undefined)('MCP stdio servers in the command sandbox', () => {
  let s: McpSession | undefined;
  afterEach(async () => {
    await s?.close();
    s = undefined;
  });

  /** A session whose fake model reads ~/.ssh/id_ed25519 and writes ~/outside.txt through the server. */
  async function run(extra: string): Promise<{ read: string; write: string; home: string }> {
    let home = '';
    s = await openMcpSession(
      [
        {
          // Relative paths: the server resolves them against the folder it was allowed (HOME).
          toolCalls: [
            { name: 'mcp__fs__read_text_file', input: { path: '.ssh/id_ed25519' } },
            { name: 'mcp__fs__write_file', input: { path: 'outside.txt', content: 'escaped' } },
          ],
        },
        { text: 'done' },
      ],
      async (sandbox) => {
        home = sandbox.env['HOME'] ?? '';
        await mkdir(join(home, '.ssh'), { recursive: true });
        await writeFile(join(home, '.ssh', 'id_ed25519'), SECRET);
        return filesystem(home, extra);
      },
    );
    await s.engine.submit('read the key and write outside');
    const [read = '', write = ''] = s.toolResults(1);
    return { read, write, home };
  }

  it('cannot read a masked credential folder nor write outside the project', async () => {
    const { read, write, home } = await run('');
    expect(read).not.toContain(SECRET);
    expect(read).toMatch(/ENOENT|no such file|denied|not allowed/i);
    expect(write).toMatch(/EROFS|read-only|denied|EACCES/i);
    await expect(readFile(join(home, 'outside.txt'), 'utf8')).rejects.toThrow(/ENOENT/);
  });

  it("a user's server with sandbox = false runs as it would without lindwyrm", async () => {
    const { read, home } = await run('sandbox = false');
    expect(read).toContain(SECRET);
    expect(await readFile(join(home, 'outside.txt'), 'utf8')).toBe('escaped');
  });
});

describe('a project cannot take its server out of the sandbox', () => {
  it('warns and keeps sandbox on', async () => {
    const { loadConfig } = await import('../../src/config/load-config.js');
    const { makeSandbox } = await import('../agent/support/harness.js');
    const sandbox = await makeSandbox('anthropic', 'http://127.0.0.1:9', '');
    try {
      await writeFile(join(sandbox.project, '.lindwyrm.toml'), filesystem(dirname(sandbox.project), 'sandbox = false'));
      const base = await readFile(sandbox.configPath, 'utf8');
      await writeFile(sandbox.configPath, `trusted_projects = [${q(sandbox.project)}]\n${base}`);
      const config = await loadConfig({ cwd: sandbox.project, env: sandbox.env });
      const server = config.mcpServers?.find((m) => m.name === 'fs');
      expect(server?.origin).toBe('project');
      expect(server?.sandbox).toBe(true);
      expect(config.warnings.join('\n')).toMatch(/MCP server "fs": sandbox = false is honoured only in your user config/);
    } finally {
      await sandbox.cleanup();
    }
  });
});
