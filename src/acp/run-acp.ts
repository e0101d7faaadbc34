/**
 * The entry point of `lwyrm acp`: stdin and stdout are the protocol, so stdout is claimed first
 * (a stray write from anything else goes to stderr), and the run lasts as long as the client
 * keeps stdin open. Signals end it the way a closed stdin does: sessions saved, commands stopped.
 */
import type { CliOptions } from '../cli/options.js';
import { claimStdout } from '../headless/protocol-stdout.js';
import { serveAgent } from './agent.js';
import { createConnection } from './json-rpc.js';

export async function runAcp(base: CliOptions, opts: { version: string; env: Readonly<Record<string, string | undefined>> }): Promise<number> {
  const stdout = claimStdout();
  const log = base.verbose ? (line: string) => void process.stderr.write(`[lwyrm] ${line}\n`) : undefined;
  // Loaded before the first line is read: every request finds its handler.
  const { startSession } = await import('../agent/start-session.js');
  const conn = createConnection({ input: process.stdin, write: (line) => void stdout.write(line), ...(log ? { log } : {}) });
  const agent = serveAgent(conn, { base, env: opts.env, version: opts.version, startSession, ...(log ? { log } : {}) });
  let signalled: number | undefined;
  const stop = (status: number) => () => {
    signalled ??= status;
    process.stdin.destroy();
  };
  const handlers = [
    ['SIGINT', stop(130)],
    ['SIGTERM', stop(143)],
    ['SIGHUP', stop(129)],
  ] as const;
  for (const [signal, handler] of handlers) process.on(signal, handler);
  try {
    await conn.closed;
    await agent.dispose();
  } finally {
    for (const [signal, handler] of handlers) process.off(signal, handler);
  }
  return signalled ?? 0;
}
