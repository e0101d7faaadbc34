/**
 * What an MCP server changes is in the turn's checkpoint too: a real session with the reference
 * server-filesystem as a child process (rooted at the project), the fake provider over HTTP; the
 * model writes, overwrites and moves files through the server, and /rewind puts them all back.
 */
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openMcpSession, q, type McpSession } from '../mcp/support/mcp-session.js';

const require = createRequire(import.meta.url);
const FILESYSTEM = require.resolve('@modelcontextprotocol/server-filesystem/dist/index.js');

describe('rewind of an MCP server\'s changes', () => {
  let s: McpSession | undefined;

  afterEach(async () => {
    await s?.close();
    s = undefined;
  });

  it('a file server\'s writes and moves are scanned into the checkpoint and restored', async () => {
    s = await openMcpSession(
      [
        {
          toolCalls: [
            { name: 'mcp__fs__write_file', input: { path: 'notes.txt', content: 'rewritten by the server\n' } },
            { name: 'mcp__fs__write_file', input: { path: 'made-by-mcp.txt', content: 'new\n' } },
            { name: 'mcp__fs__move_file', input: { source: 'old.txt', destination: 'moved.txt' } },
          ],
        },
        { text: 'done' },
      ],
      '',
      // A server of the (trusted) project's own file runs in the project, so "." is the project.
      { trusted: true, projectToml: `[[mcp.servers]]\nname = "fs"\ncommand = ${q(process.execPath)}\nargs = [${q(FILESYSTEM)}, "."]\nallow = ["write_file", "move_file"]\n` },
    );
    const project = s.sandbox.project;
    await writeFile(join(project, 'notes.txt'), 'original\n');
    await writeFile(join(project, 'old.txt'), 'to be moved\n');
    expect((await s.engine.submit('change files through the server')).status).toBe('finished');
    const results = s.toolResults(1);
    expect(results.join('\n')).not.toMatch(/denied|declined|error/i);
    expect(await readFile(join(project, 'notes.txt'), 'utf8')).toBe('rewritten by the server\n');
    expect(existsSync(join(project, 'moved.txt'))).toBe(true);

    const listed = await s.engine.runSlash('/rewind');
    const turn = listed.rewind?.kind === 'list' ? listed.rewind.checkpoints[0] : undefined;
    expect(turn).toMatchObject({ id: 1, files: 4 });
    const done = await s.engine.runSlash('/rewind 1 code confirm');
    expect(done.error, done.output).toBeUndefined();
    expect(await readFile(join(project, 'notes.txt'), 'utf8')).toBe('original\n');
    expect(await readFile(join(project, 'old.txt'), 'utf8')).toBe('to be moved\n');
    expect(existsSync(join(project, 'moved.txt'))).toBe(false);
    expect(existsSync(join(project, 'made-by-mcp.txt'))).toBe(false);
  }, 60_000);
});
