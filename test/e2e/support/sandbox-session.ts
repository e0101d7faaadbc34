/**
 * One-shot runs of the built CLI whose model (the fake provider) asks for a list of bash
 * commands and then answers "done": the tool results it was sent are what the model saw.
 */
import { appendFile } from 'node:fs/promises';
import { startFakeProvider, type FakeProvider } from '../../support/fake-provider.js';
import type { Sandbox } from '../../support/sandbox.js';
import { readRequest } from '../../agent/support/harness.js';
import { makeEnv, run, type Run } from './cli.js';

export type Command = string | { readonly command: string; readonly timeout_ms?: number };

export interface SessionRun {
  readonly run: Run;
  /** One tool result per command, in order. */
  readonly results: readonly string[];
  readonly env: Sandbox;
}

export interface SessionOptions {
  /** Top-level config keys. */
  readonly configToml?: string;
  /** Tables appended to the user config once the paths are known ([[policy.rules]] …). */
  readonly tablesToml?: (env: Sandbox) => string;
  /** Files and folders to create before the run. */
  readonly prepare?: (env: Sandbox) => Promise<void>;
  readonly args?: readonly string[];
  readonly env?: Readonly<Record<string, string | undefined>>;
}

export function sandboxSessions(cli: () => string) {
  const open: { fake?: FakeProvider; env?: Sandbox }[] = [];
  return {
    async run(commands: readonly Command[], opts: SessionOptions = {}): Promise<SessionRun> {
      const fake = await startFakeProvider({
        format: 'anthropic',
        replies: [...commands.map((c) => ({ toolCalls: [{ name: 'bash', input: typeof c === 'string' ? { command: c } : c }] })), { text: 'done' }],
      });
      const env = await makeEnv('anthropic', fake.baseUrl, opts.configToml !== undefined ? { configToml: opts.configToml } : {});
      open.push({ fake, env });
      if (opts.tablesToml) await appendFile(env.configPath, `\n${opts.tablesToml(env)}\n`);
      await opts.prepare?.(env);
      const r = await run(cli(), { ...env, env: { ...env.env, ...opts.env } }, ['-p', 'run the commands', ...(opts.args ?? ['--allow', 'bash'])]);
      const last = fake.requests.at(-1);
      const results = last ? readRequest('anthropic', last).messages.flatMap((m) => m.toolResults.map((t) => t.content)) : [];
      return { run: r, results, env };
    },
    async cleanup(): Promise<void> {
      for (const { fake, env } of open.splice(0)) {
        await fake?.close();
        await env?.cleanup();
      }
    },
  };
}
