/**
 * The stdio transport: the server is a child process speaking newline-delimited JSON. Its stderr
 * goes to a log file under the data dir, never to the screen (the full-screen view owns it).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, mkdirSync, type WriteStream } from 'node:fs';
import { dirname } from 'node:path';
import { reportIgnored } from '../diagnostics/ignore-error.js';
import { McpFault, parseMessages, type RpcMessage } from './protocol.js';
import type { Transport, TransportEvents } from './transport.js';

export interface StdioSpec {
  /** The server's name in the config (the sandbox's audit lines say "mcp:NAME"). */
  readonly name: string;
  readonly command: string;
  readonly args: readonly string[];
  /** The complete environment of the child (already scrubbed and filled by the caller). */
  readonly env: Readonly<Record<string, string>>;
  readonly cwd: string;
  /** Where the server's stderr is appended. */
  readonly logFile: string;
  /** Whether it starts through the command sandbox (false: a user's server with sandbox = false). */
  readonly sandboxed: boolean;
}

/** Starts a server's process: directly, or through the command sandbox (sandboxed-spawn.ts). */
export type SpawnServer = (spec: StdioSpec) => ChildProcess | Promise<ChildProcess>;

/** One line of a server's stdout may not grow without bound. */
const MAX_LINE_CHARS = 32 * 1024 * 1024;

/**
 * Starts the server process. The one place a stdio server is spawned, so a sandbox can wrap it
 * (src/sandbox/ turns the command into a bwrap or sandbox-exec invocation).
 */
export function spawnStdioServer(spec: StdioSpec): ChildProcess {
  return spawn(spec.command, [...spec.args], {
    cwd: spec.cwd,
    env: { ...spec.env },
    stdio: ['pipe', 'pipe', 'pipe'],
    // Its own process group: closing the session can end the server and whatever it started.
    detached: process.platform !== 'win32',
    windowsHide: true,
  });
}

/**
 * Servers still running, ended when lindwyrm exits however it exits: each runs in a process group
 * of its own, so nothing else would stop it (nor what it started).
 */
const running = new Set<ChildProcess>();
let exitHook = false;

function track(child: ChildProcess): void {
  running.add(child);
  child.once('exit', () => running.delete(child));
  if (exitHook) return;
  exitHook = true;
  process.once('exit', () => {
    for (const c of running) {
      try {
        if (c.pid !== undefined && process.platform !== 'win32') process.kill(-c.pid, 'SIGTERM');
        else c.kill('SIGTERM');
      } catch (error) {
        reportIgnored('stop an MCP server at exit (it is gone already)', error);
      }
    }
  });
}

export function createStdioTransport(spec: StdioSpec, spawnServer: SpawnServer = spawnStdioServer): Transport {
  let child: ChildProcess | undefined;
  let log: WriteStream | undefined;
  let events: TransportEvents | undefined;
  let ended = false;
  let buffer = '';

  const end = (error: Error): void => {
    if (ended) return;
    ended = true;
    events?.onClose(error);
  };

  const onData = (chunk: Buffer): void => {
    buffer += chunk.toString('utf8');
    let newline = buffer.indexOf('\n');
    while (newline !== -1) {
      const line = buffer.slice(0, newline).replace(/\r$/, '');
      buffer = buffer.slice(newline + 1);
      if (line.trim() !== '') deliver(line);
      newline = buffer.indexOf('\n');
    }
    if (buffer.length > MAX_LINE_CHARS) {
      buffer = '';
      end(new McpFault('garbage', 'the server wrote a line over 32 MB without ending it'));
      kill();
    }
  };

  const deliver = (line: string): void => {
    let messages: RpcMessage[];
    try {
      messages = parseMessages(line);
    } catch {
      // Servers that print banners to stdout exist; a stray line is logged, not fatal.
      log?.write(`[lindwyrm] not a JSON-RPC line on stdout: ${line.slice(0, 200)}\n`);
      return;
    }
    for (const m of messages) events?.onMessage(m);
  };

  const kill = (): void => {
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    try {
      if (child.pid !== undefined && process.platform !== 'win32') process.kill(-child.pid, 'SIGTERM');
      else child.kill('SIGTERM');
    } catch {
      child.kill('SIGTERM');
    }
  };

  return {
    kind: 'stdio',
    async start(ev) {
      events = ev;
      mkdirSync(dirname(spec.logFile), { recursive: true, mode: 0o700 });
      log = createWriteStream(spec.logFile, { flags: 'a', mode: 0o600 });
      log.on('error', () => undefined);
      log.write(`[lindwyrm] ${new Date().toISOString()} starting ${spec.command} ${spec.args.join(' ')}\n`);
      let proc: ChildProcess;
      try {
        proc = await spawnServer(spec);
      } catch (error) {
        // The sandbox refused (sandbox = "required" where it cannot start), or could not wrap it.
        const fault = new McpFault('start', `could not start ${spec.command}: ${error instanceof Error ? error.message : String(error)}`);
        end(fault);
        throw fault;
      }
      child = proc;
      track(proc);
      await new Promise<void>((resolve, reject) => {
        proc.once('spawn', () => resolve());
        proc.once('error', (error: NodeJS.ErrnoException) => {
          const why = error.code === 'ENOENT' ? `${spec.command}: command not found` : error.message;
          const fault = new McpFault('start', `could not start ${spec.command}: ${why}`);
          end(fault);
          reject(fault);
        });
      });
      proc.stdout?.on('data', onData);
      proc.stderr?.on('data', (chunk: Buffer) => log?.write(chunk));
      proc.stdin?.on('error', () => undefined);
      proc.once('exit', (code, signal) => {
        log?.write(`[lindwyrm] server exited (${signal ?? `code ${code}`})\n`);
        // Inside the sandbox a server may die of a write outside the project or a blocked host:
        // say where it ran and where its own words are.
        const where = spec.sandboxed ? ` in the command sandbox (its log: ${spec.logFile})` : '';
        end(new McpFault('crash', `the server exited (${signal ?? `code ${code}`})${where}`));
      });
    },
    async send(message) {
      if (ended || !child?.stdin?.writable) throw new McpFault('closed', 'the server is not running');
      const stdin = child.stdin;
      await new Promise<void>((resolve, reject) => {
        stdin.write(`${JSON.stringify(message)}\n`, (error) => (error ? reject(new McpFault('crash', `writing to the server failed: ${error.message}`)) : resolve()));
      });
    },
    async close() {
      const proc = child;
      end(new McpFault('closed', 'the connection was closed'));
      if (proc && proc.exitCode === null && proc.signalCode === null) {
        proc.stdin?.end();
        const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
        kill();
        const timer = setTimeout(() => {
          try {
            if (proc.pid !== undefined && process.platform !== 'win32') process.kill(-proc.pid, 'SIGKILL');
            else proc.kill('SIGKILL');
          } catch {
            // already gone
          }
        }, 2000);
        await exited;
        clearTimeout(timer);
      }
      await new Promise<void>((resolve) => (log ? log.end(() => resolve()) : resolve()));
    },
  };
}
