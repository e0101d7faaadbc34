/**
 * A stdio MCP server started through the command sandbox, like a bash command: a server is a
 * program running with the user's rights, and a trusted project's server is the project's code.
 * Inside, it writes only to the project and the sandbox's temp dir, cannot see masked paths
 * (credentials, lindwyrm's own data, read-denied files) and reaches only `sandbox_network` hosts.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { accessSync, constants, existsSync, statSync } from 'node:fs';
import { delimiter, isAbsolute, join, resolve } from 'node:path';
import { reportIgnored } from '../diagnostics/ignore-error.js';
import type { CommandSandbox } from '../sandbox/types.js';
import { spawnStdioServer, type StdioSpec } from './stdio-transport.js';

export function sandboxedSpawn(sandbox: CommandSandbox): (spec: StdioSpec) => Promise<ChildProcess> {
  return async (spec) => {
    // A user's own server marked sandbox = false runs as it would without lindwyrm.
    if (!spec.sandboxed) return spawnStdioServer(spec);
    // Inside, a missing program is only bwrap's exit status 1: find it first, to say what is wrong.
    const found = findProgram(spec.command, spec.cwd, spec.env['PATH']);
    if (found === undefined) throw new Error(`${spec.command}: command not found`);
    await sandbox.ready();
    // The program and the files its arguments name (a script) must stay readable inside.
    const readable = [found, ...spec.args.filter((a) => isAbsolute(a) && existsSync(a))];
    const wrapped = await sandbox.wrap({ argv: [spec.command, ...spec.args], cwd: spec.cwd, env: { ...spec.env }, tool: `mcp:${spec.name}`, readable });
    const [program, ...args] = wrapped.argv;
    if (program === undefined) throw new Error('the sandbox produced no command');
    const child = spawn(program, args, {
      cwd: wrapped.cwd,
      env: wrapped.env,
      stdio: ['pipe', 'pipe', 'pipe'],
      // Its own process group, as unsandboxed: closing the session ends the server and its children.
      detached: process.platform !== 'win32',
      windowsHide: true,
    });
    const cleanup = (): void => void wrapped.cleanup().catch((error: unknown) => reportIgnored(`clean up the sandbox of MCP server ${spec.name}`, error));
    child.once('exit', cleanup);
    child.once('error', cleanup);
    return child;
  };
}

/** The executable file `command` names, found as a shell would look for it. */
function findProgram(command: string, cwd: string, path: string | undefined): string | undefined {
  const candidates = command.includes('/') ? [isAbsolute(command) ? command : resolve(cwd, command)] : (path ?? '').split(delimiter).filter(Boolean).map((dir) => join(dir, command));
  return candidates.find((file) => {
    try {
      accessSync(file, constants.X_OK);
      return statSync(file).isFile();
    } catch {
      return false;
    }
  });
}
