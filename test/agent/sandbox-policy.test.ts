/** /policy shows the sandbox's state, whichever it is: on (with what it allows), off, unavailable (with the fix). */
import { afterEach, describe, expect, it } from 'vitest';
import type { LindwyrmEngine } from '../../src/agent/engine.js';
import { startFakeProvider, type FakeProvider } from '../support/fake-provider.js';
import { sandboxSkipReason } from '../support/sandbox-host.js';
import { makeSandbox, startEngine, type Sandbox } from './support/harness.js';

let fake: FakeProvider | undefined;
let sandbox: Sandbox | undefined;
let engine: LindwyrmEngine | undefined;
afterEach(async () => {
  await engine?.dispose();
  await fake?.close();
  await sandbox?.cleanup();
  engine = undefined;
});

async function policyWith(toml: string, env: Record<string, string> = {}): Promise<string> {
  fake = await startFakeProvider({ format: 'anthropic', replies: [] });
  sandbox = await makeSandbox('anthropic', fake.baseUrl, toml);
  Object.assign(sandbox.env, env);
  engine = await startEngine(sandbox, []);
  return (await engine.runSlash('/policy')).output ?? '';
}

const skip = await sandboxSkipReason();

describe('/policy and the sandbox', () => {
  it.skipIf(skip !== undefined)('on: the program, what is writable, the network allowlist, the process limit, bash_in_sandbox', async () => {
    const out = await policyWith('sandbox_network = ["registry.npmjs.org"]\nsandbox_writable = ["/opt/none"]\n');
    expect(out).toMatch(/^sandbox: on \(bubblewrap [\d.]+/m);
    expect(out).toContain('sandbox writes: the project, /tmp (private to this session), /opt/none');
    expect(out).toContain('sandbox network: only registry.npmjs.org');
    expect(out).toMatch(/sandbox processes: own PID namespace; at most \d+ at once/);
    expect(out).toContain('bash_in_sandbox = "confirm"');
  });

  it('off: says commands run with all your permissions', async () => {
    expect(await policyWith('sandbox = "off"\n')).toContain('sandbox: off (sandbox = "off")');
  });

  it('unavailable: the cause and the fix, and whether commands are refused', async () => {
    const out = await policyWith('sandbox = "required"\n', { PATH: '/nonexistent' });
    expect(out).toContain('sandbox: unavailable, commands are refused (sandbox = "required")');
    expect(out).toMatch(/sandbox fix: install it/);
  });
});
