/**
 * `lwyrm -p … | head`: the reader closes the pipe while the answer streams. The built CLI must stop
 * the turn quietly (exit 141, as a shell reports SIGPIPE), not die on an unhandled EPIPE with a
 * stack trace. Run `npm run build` first.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startFakeProvider, type FakeFormat, type FakeProvider } from '../support/fake-provider.js';
import type { Sandbox } from '../support/sandbox.js';
import { makeEnv, start, useBuild } from './support/cli.js';

vi.setConfig({ testTimeout: 60_000 });

const cli = useBuild();

describe.each<FakeFormat>(['anthropic', 'openai'])('stdout closed mid-answer over %s', (format) => {
  let fake: FakeProvider | undefined;
  let e: Sandbox | undefined;

  afterEach(async () => {
    await fake?.close();
    await e?.cleanup();
    fake = e = undefined;
  });

  it('stops quietly with status 141', async () => {
    fake = await startFakeProvider({ format, replies: [{ text: 'a line of the answer\n'.repeat(400), chunkDelayMs: 2 }] });
    e = await makeEnv(format, fake.baseUrl);
    const p = start(cli(), e, ['-p', 'write a lot', '--no-save']);
    p.child.stdout!.once('data', () => p.child.stdout!.destroy());
    const result = await p.done;
    expect(result.stderr).not.toMatch(/Unhandled|EPIPE|at .*\.js:\d+/);
    expect(result.status, result.stderr).toBe(141);
  });
});
