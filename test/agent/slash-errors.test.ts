/** Slash commands say when they failed, so the view can show it as an error; --no-save is visible in the state. */
import { afterEach, expect, it } from 'vitest';
import { startFakeProvider, type FakeProvider } from '../support/fake-provider.js';
import type { LindwyrmEngine } from '../../src/agent/engine.js';
import { makeSandbox, noteTool, startEngine, type Sandbox } from './support/harness.js';

let fake: FakeProvider | undefined;
let sandbox: Sandbox | undefined;
let engines: LindwyrmEngine[] = [];

afterEach(async () => {
  for (const e of engines) await e.dispose();
  engines = [];
  await fake?.close();
  await sandbox?.cleanup();
  fake = undefined;
  sandbox = undefined;
});

async function engineFor(cli = {}): Promise<LindwyrmEngine> {
  fake ??= await startFakeProvider({ format: 'anthropic', replies: [{ text: 'ok' }] });
  sandbox ??= await makeSandbox('anthropic', fake.baseUrl);
  const e = await startEngine(sandbox, [noteTool], cli);
  engines.push(e);
  return e;
}

it('marks unknown commands, bad arguments and unknown presets as errors, and nothing that worked', async () => {
  const engine = await engineFor();
  for (const cmd of ['/nope', '/think loud', '/thinking maybe', '/perm src write=maybe', '/perm', '/model nosuch', '/sessions resume', '/sessions resume zzzz9999']) {
    const result = await engine.runSlash(cmd);
    expect(result.output, cmd).toBeTruthy();
    expect(result.error, cmd).toBe(true);
  }
  for (const cmd of ['/markdown', '/think high', '/thinking on', '/policy', '/presets', '/model', '/sessions']) {
    expect((await engine.runSlash(cmd)).error, cmd).toBeUndefined();
  }
});

it('publishes whether the session is saved: not with --no-save, also after /clear', async () => {
  const saving = await engineFor();
  expect(saving.getSnapshot().saved).toBe(true);
  const unsaved = await engineFor({ save: false });
  expect(unsaved.getSnapshot().saved).toBe(false);
  await unsaved.runSlash('/clear');
  expect(unsaved.getSnapshot().saved).toBe(false);
});
