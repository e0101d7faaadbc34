/**
 * The built CLI killed with SIGKILL in the middle of a turn (no handler runs, nothing is flushed):
 * `-c -p` resumes to a valid history that the fake provider records, with nothing of the earlier
 * turns lost, the text that had streamed kept and said so. Run `npm run build` first (CI does).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startFakeProvider, type FakeFormat, type FakeProvider, type ScriptedReply } from '../support/fake-provider.js';
import type { Sandbox } from '../support/sandbox.js';
import { assertValidHistory, readRequest } from '../agent/support/harness.js';
import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { fileAppears, makeEnv, run, start, useBuild, waitFor } from './support/cli.js';

/** Polls (the session file is written by another process; there is no event to wait on). */
async function until(check: () => boolean | Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * The streamed text the running turn has saved, once it has saved some: the index names the turn,
 * and the text is appended to <id>.streamed beside it (a header line, then JSON string pieces).
 */
async function savedStream(root: string): Promise<string> {
  const dir = join(root, 'data', 'lindwyrm', 'sessions');
  let found = '';
  await until(async () => {
    for (const name of await readdir(dir, { recursive: true }).catch(() => [] as string[])) {
      if (!String(name).endsWith('.meta.json')) continue;
      const meta = JSON.parse(await readFile(join(dir, String(name)), 'utf8').catch(() => '{}')) as { record?: { unfinishedTurn?: { streamed?: string } } };
      if (!meta.record?.unfinishedTurn) continue;
      const file = join(dir, String(name).replace(/\.meta\.json$/, '.streamed'));
      const lines = (await readFile(file, 'utf8').catch(() => '')).split('\n').slice(1).filter(Boolean);
      const streamed = (meta.record.unfinishedTurn.streamed ?? '') + lines.map((l) => pieceOf(l)).join('');
      if (streamed.includes('token')) found = streamed;
    }
    return found !== '';
  });
  return found;
}

/** One piece of <id>.streamed; a line still being written counts as nothing yet. */
function pieceOf(line: string): string {
  try {
    return JSON.parse(line) as string;
  } catch {
    return '';
  }
}

// Three CLI runs a test: generous on a loaded 2-core machine.
vi.setConfig({ testTimeout: 60_000 });

const cli = useBuild();

describe.each<FakeFormat>(['anthropic', 'openai'])('lwyrm killed with SIGKILL over %s', (format) => {
  let fake: FakeProvider | undefined;
  let e: Sandbox | undefined;
  let sleeper: number | undefined;

  afterEach(async () => {
    if (sleeper) {
      try {
        process.kill(sleeper, 'SIGKILL');
      } catch {
        // Already gone.
      }
    }
    await fake?.close();
    await e?.cleanup();
    fake = e = sleeper = undefined;
  });

  async function setup(replies: ScriptedReply[]): Promise<Sandbox> {
    fake = await startFakeProvider({ format, replies });
    e = await makeEnv(format, fake.baseUrl);
    return e;
  }

  const request = (i: number) => readRequest(format, fake!.requests[i]!);

  it('while a tool runs: the reply that asked for it is kept and the call comes back as interrupted', async () => {
    const env = await setup([
      { text: 'Looked.', toolCalls: [{ name: 'read_file', input: { path: 'prices.py' } }] },
      { text: 'It sums prices.' },
      // The shell writes its pid, then becomes the sleep: the tool is running from then on.
      { toolCalls: [{ name: 'bash', input: { command: 'echo $$ > sleeper.pid; exec sleep 30' } }] },
      { text: 'Carrying on.' },
    ]);
    expect((await run(cli(), env, ['-p', 'what does prices.py do?'])).status).toBe(0);

    const p = start(cli(), env, ['-c', '-p', 'wait a while', '--allow', 'bash']);
    sleeper = Number(await fileAppears(env.project, 'sleeper.pid'));
    p.child.kill('SIGKILL');
    expect((await p.done).signal).toBe('SIGKILL');

    const next = await run(cli(), env, ['-c', '-p', 'carry on']);
    expect(next.stderr).not.toMatch(/No saved session/);
    expect(next.status).toBe(0);
    expect(next.stdout).toBe('Carrying on.\n');
    const req = request(3);
    assertValidHistory(req);
    expect(req.messages.map((m) => m.role)).toEqual(
      format === 'anthropic'
        ? ['user', 'assistant', 'user', 'assistant', 'user', 'assistant', 'user']
        : ['user', 'assistant', 'tool', 'assistant', 'user', 'assistant', 'tool', 'user'],
    );
    // The first turn in full, the killed turn's prompt and call, its result marked interrupted.
    expect(req.messages[0]!.text).toBe('what does prices.py do?');
    expect(JSON.stringify(req.messages)).toContain('It sums prices.');
    expect(JSON.stringify(req.messages)).toContain('wait a while');
    const results = req.messages.flatMap((m) => m.toolResults.map((r) => r.content));
    expect(results[0]).toContain('result = result + item["price"]');
    expect(results[1]).toMatch(/interrupted/i);
    expect(req.messages.at(-1)!.text).toBe('carry on');
  });

  it('while the model streams: -c shows that the run died mid-turn, with the text that had streamed', async () => {
    const env = await setup([
      { text: 'First answer.' },
      { text: 'token '.repeat(4000), chunkDelayMs: 5 },
      { text: 'Shorter.' },
    ]);
    expect((await run(cli(), env, ['-p', 'say hello'])).status).toBe(0);

    const p = start(cli(), env, ['-c', '-p', 'talk a lot']);
    await waitFor(p.stdout, /token/, p.child);
    // Saved as it streams, within a second: the kill comes once the session file has some of it.
    const streamed = await savedStream(env.root);
    p.child.kill('SIGKILL');
    expect((await p.done).signal).toBe('SIGKILL');
    expect(streamed).toMatch(/^(token )+/);

    const next = await run(cli(), env, ['-c', '-p', 'shorter please']);
    expect(next.status).toBe(0);
    expect(next.stdout).toBe('Shorter.\n');
    expect(next.stderr).toMatch(/The previous run ended in the middle of a turn/);
    const req = request(2);
    assertValidHistory(req);
    // The killed turn's prompt, what had streamed as the reply, then the new prompt on its own.
    expect(req.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant', 'user']);
    expect(req.messages[0]!.text).toBe('say hello');
    expect(req.messages[1]!.text).toBe('First answer.');
    expect(req.messages[2]!.text).toBe('talk a lot');
    expect(req.messages[3]!.text.startsWith(streamed)).toBe(true);
    expect(req.messages[3]!.text.length).toBeGreaterThanOrEqual(streamed.length);
    expect(req.messages[4]!.text).toBe('shorter please');
  });

  it('killed before any text arrived: the prompt gets a placeholder reply, not the next prompt merged into it', async () => {
    const env = await setup([{ text: 'First answer.' }, { text: 'late', delayMs: 20_000 }, { text: 'Here.' }]);
    expect((await run(cli(), env, ['-p', 'say hello'])).status).toBe(0);
    const p = start(cli(), env, ['-c', '-p', 'take your time']);
    // The request is out (the fake provider has it) but nothing has streamed.
    await until(() => fake!.requests.length === 2);
    p.child.kill('SIGKILL');
    await p.done;
    const next = await run(cli(), env, ['-c', '-p', 'are you there?']);
    expect(next.status).toBe(0);
    const req = request(2);
    assertValidHistory(req);
    expect(req.messages.map((m) => m.text)).toEqual(['say hello', 'First answer.', 'take your time', '(the previous run ended before a reply arrived)', 'are you there?']);
  });
});
