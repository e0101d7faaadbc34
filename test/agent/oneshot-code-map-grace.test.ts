/**
 * One-shot gives an index still building a few seconds after the answer to write its cache
 * (test/e2e/oneshot-code-map.test.ts runs that through the built CLI), but not after an interrupt:
 * the user asked to stop, so the run ends at once. The real session wiring and code map, with a
 * plugin that never finishes indexing its file until the test opens its gate.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { assembleSession } from '../../src/agent/assemble-session.js';
import { realSessionDeps } from '../../src/agent/start-session.js';
import { loadConfig } from '../../src/config/load-config.js';
import { runOneShotWith } from '../../src/headless/oneshot-run.js';
import { startFakeProvider, type FakeProvider } from '../support/fake-provider.js';
import { writeGatedPlugin } from '../support/gated-plugin.js';
import { cliOptions, makeSandbox, type Sandbox } from './support/harness.js';
import { memoryIo } from './support/memory-io.js';

let fake: FakeProvider | undefined;
let sandbox: Sandbox | undefined;
let gate: string | undefined;
afterEach(async () => {
  // Lets the plugin finish, so nothing keeps polling after the test.
  if (gate) await writeFile(gate, '');
  await fake?.close();
  await sandbox?.cleanup();
  fake = sandbox = gate = undefined;
});

describe('one-shot and an index still building', () => {
  it('does not wait for the index after an interrupt', async () => {
    const io = memoryIo();
    // The interrupt arrives while the request is in flight; the reply would take far longer.
    fake = await startFakeProvider({ format: 'anthropic', replies: () => (io.interrupt(), { text: 'late', delayMs: 30_000 }) });
    sandbox = await makeSandbox('anthropic', fake.baseUrl);
    const gated = await writeGatedPlugin(sandbox.root);
    gate = gated.gate;
    await writeFile(join(sandbox.project, 'slow.gated'), 'x\n');
    const loaded = await loadConfig({ cwd: sandbox.project, env: sandbox.env });
    const config = { ...loaded, codeMap: { enabled: true }, plugins: [gated.plugin] };
    const options = cliOptions(config.projectRoot, { prompt: 'do the task', verbose: true });
    const status = await runOneShotWith(
      options,
      (hooks) =>
        assembleSession(options, config, {
          ...realSessionDeps(hooks),
          codeMapWaitMs: 0,
          env: sandbox!.env,
          clientOptions: { retryBaseMs: 1, maxRetries: 0 },
        }),
      io.io,
    );
    expect(status).toBe(130);
    expect(io.stderr()).not.toContain('code map: ready');
    expect(io.stderr()).not.toContain('code map: still indexing');
  });
});
