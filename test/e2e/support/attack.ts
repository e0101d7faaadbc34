/**
 * One attack through the built CLI: a fake provider scripts the model's tool calls, the CLI runs
 * in a temp project with a temp HOME, and the test reads back three things — the file system,
 * what reached the provider (every request body), and what the user saw (stdout, stderr).
 */
import { afterEach } from 'vitest';
import { startFakeProvider, type FakeProvider, type ScriptedReply } from '../../support/fake-provider.js';
import { makeSandbox, type Sandbox } from '../../support/sandbox.js';
import { readRequest, type WireTurn } from '../../agent/support/harness.js';
import { run as runCli, start as startCli, type Run, type Started } from './cli.js';

export interface AttackSetup {
  readonly replies: ScriptedReply[];
  readonly configToml?: string;
  readonly presetToml?: string;
  /** Prepares files before the CLI starts (the sandbox exists by then). */
  readonly prepare?: (env: Sandbox) => Promise<void> | void;
}

export interface Attack {
  readonly env: Sandbox;
  readonly fake: FakeProvider;
  /** Everything the provider received, as one string: a secret must not be in it. */
  sent(): string;
  /** The neutral view of request `i`. */
  request(i: number): WireTurn;
  /** Every tool result content the provider received in request `i`, in order. */
  results(i: number): string[];
  run(args: readonly string[]): Promise<Run>;
  start(args: readonly string[]): Started;
}

/** Registers cleanup; returns the function that sets up one attack. */
export function useAttacks(cli: () => string): (setup: AttackSetup) => Promise<Attack> {
  const open: Array<{ fake: FakeProvider; env: Sandbox }> = [];
  afterEach(async () => {
    for (const { fake, env } of open.splice(0)) {
      await fake.close();
      await env.cleanup();
    }
  });
  return async (setup) => {
    const fake = await startFakeProvider({ format: 'anthropic', replies: setup.replies });
    const env = await makeSandbox({
      format: 'anthropic',
      baseUrl: fake.baseUrl,
      configToml: `max_retries = 0\n${setup.configToml ?? ''}`,
      ...(setup.presetToml !== undefined ? { presetToml: setup.presetToml } : {}),
    });
    open.push({ fake, env });
    await setup.prepare?.(env);
    const request = (i: number): WireTurn => {
      const req = fake.requests[i];
      if (req === undefined) throw new Error(`no request ${i}: the provider got ${fake.requests.length}`);
      return readRequest('anthropic', req);
    };
    return {
      env,
      fake,
      sent: () => fake.requests.map((r) => r.raw).join('\n'),
      request,
      results: (i) => request(i).messages.flatMap((m) => m.toolResults.map((r) => r.content)),
      run: (args) => runCli(cli(), env, args),
      start: (args) => startCli(cli(), env, args),
    };
  };
}
