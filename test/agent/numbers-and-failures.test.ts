/**
 * Through a real session (fake provider over HTTP, real session store): the meter's figure after
 * /clear and after resuming from /sessions is the one /context gives; a prompt whose request
 * failed is not merged into the next; an interrupt with a reason says it; a saved session that
 * still carries an unfinished turn is resumed with a notice and the text that had streamed.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { LindwyrmEngine } from '../../src/agent/engine.js';
import { createSessionStore } from '../../src/sessions/session-store.js';
import { PROMPT_TAKEN_BACK } from '../../src/agent/turn-loop.js';
import { startFakeProvider, type FakeProvider, type ScriptedReply } from '../support/fake-provider.js';
import { makeSandbox, noteTool, readRequest, startEngine, waitTool, type Sandbox } from './support/harness.js';

let fake: FakeProvider | undefined;
let sandbox: Sandbox | undefined;
let engines: LindwyrmEngine[] = [];

afterEach(async () => {
  for (const e of engines) await e.dispose();
  engines = [];
  await fake?.close();
  await sandbox?.cleanup();
  fake = sandbox = undefined;
});

async function open(replies: ScriptedReply[]): Promise<void> {
  fake = await startFakeProvider({ format: 'anthropic', replies });
  sandbox = await makeSandbox('anthropic', fake.baseUrl, 'max_retries = 0\n');
}

async function engine(cli = {}): Promise<LindwyrmEngine> {
  const e = await startEngine(sandbox!, [noteTool, waitTool], cli);
  engines.push(e);
  return e;
}

/** The figure /context prints on its first line. */
async function contextTokens(e: LindwyrmEngine): Promise<number> {
  const out = (await e.runSlash('/context')).output ?? '';
  return Number(/\(([\d,]+) tokens/.exec(out)![1]!.replaceAll(',', ''));
}

describe('numbers that agree', () => {
  it('the meter equals /context at the start, after /clear and after resuming from /sessions', async () => {
    await open([{ text: 'First answer, with some words in it.' }]);
    const e = await engine({ oneShot: false });
    expect(e.getSnapshot().context.usedTokens).toBe(await contextTokens(e));
    expect(e.getSnapshot().context.usedTokens).toBeGreaterThan(0);
    await e.submit('a question about prices');
    const id = e.runtime.session.id;
    expect(e.getSnapshot().context.usedTokens).toBe(await contextTokens(e));

    await e.runSlash('/clear');
    e.store.flush();
    const cleared = e.getSnapshot().context.usedTokens;
    // The system prompt and tools are still sent: not 0, and what /context says.
    expect(cleared).toBeGreaterThan(0);
    expect(cleared).toBe(await contextTokens(e));

    await e.runSlash(`/sessions resume ${id}`);
    e.store.flush();
    const resumed = e.getSnapshot().context.usedTokens;
    expect(resumed).toBe(await contextTokens(e));
    expect(resumed).toBeGreaterThan(cleared);
  });
});

describe('a failed request', () => {
  it('takes its prompt back, so the next one is sent alone', async () => {
    await open([{ fault: { kind: 'status', status: 401, body: { error: { type: 'authentication_error', message: 'bad key' } } } }, { text: 'Hello.' }]);
    const e = await engine();
    const failed = await e.submit('first prompt');
    expect(failed.status).toBe('error');
    expect(e.runtime.session.history).toEqual([]);
    expect(e.store.current().blocks.some((b) => b.kind === 'notice' && b.text === PROMPT_TAKEN_BACK)).toBe(true);
    // The transcript still shows what was typed.
    expect(e.store.current().blocks.some((b) => b.kind === 'user' && b.text === 'first prompt')).toBe(true);
    await e.submit('second prompt');
    const sent = readRequest('anthropic', fake!.requests[1]!);
    expect(sent.messages.map((m) => m.text)).toEqual(['second prompt']);
  });

  it('keeps the prompt when part of the turn was done (tool results follow it)', async () => {
    await open([{ toolCalls: [{ name: 'note', input: { text: 'x' } }] }, { fault: { kind: 'status', status: 500, headers: { 'x-should-retry': 'false' } } }, { text: 'ok' }]);
    const e = await engine();
    expect((await e.submit('do a step')).status).toBe('error');
    await e.submit('go on');
    const sent = readRequest('anthropic', fake!.requests[2]!);
    expect(sent.messages[0]!.text).toBe('do a step');
  });
});

describe('interrupt with a reason', () => {
  it('ends the turn with the reason instead of "by the user"', async () => {
    await open([{ toolCalls: [{ name: 'wait_for_abort', input: {} }] }]);
    const e = await engine();
    const turn = e.submit('wait');
    await new Promise<void>((resolve) => {
      const off = e.store.onEvent((ev) => {
        if (ev.type === 'tool.output') {
          off();
          resolve();
        }
      });
    });
    e.interrupt('Stopped by SIGTERM.');
    const outcome = await turn;
    expect(outcome).toMatchObject({ status: 'interrupted', detail: 'Stopped by SIGTERM.' });
  });
});

/** What a process killed mid-stream leaves: the prompt saved, the note with the streamed text. Returns its id. */
async function savedUnfinished(): Promise<string> {
  const store = createSessionStore({ dir: `${sandbox!.root}/data/lindwyrm/sessions`, projectRoot: sandbox!.project });
  const id = store.newId();
  const now = new Date().toISOString();
  await store.save({
    formatVersion: 1,
    id,
    projectRoot: sandbox!.project,
    preset: 'fake',
    model: 'fake-model',
    createdAt: now,
    updatedAt: now,
    firstPrompt: 'write a poem',
    turns: 0,
    messages: [{ role: 'user', content: [{ type: 'text', text: 'write a poem' }] }],
    usage: { input: 0, cacheRead: 0, cacheWrite: 0, output: 0 },
    cost: null,
    offloadRefs: [],
    unfinishedTurn: { startedAt: now, streamed: 'Roses are red,\nviolets are', afterMessages: 1 },
  });
  await store.close();
  return id;
}

function recovered(e: LindwyrmEngine): void {
  const blocks = e.store.current().blocks;
  const notice = blocks.findIndex((b) => b.kind === 'notice' && /ended in the middle of a turn/.test(b.text));
  expect(notice).toBeGreaterThanOrEqual(0);
  expect(blocks[notice + 1]).toMatchObject({ kind: 'assistant', text: 'Roses are red,\nviolets are' });
}

describe('an unfinished turn in a saved session', () => {
  it('is resumed with a notice and the text that had streamed, and the next prompt is not merged', async () => {
    await open([{ text: 'Carrying on.' }]);
    await savedUnfinished();
    const e = await engine({ continueLast: true });
    recovered(e);
    await e.submit('finish it');
    const sent = readRequest('anthropic', fake!.requests[0]!);
    expect(sent.messages.map((m) => [m.role, m.text])).toEqual([
      ['user', 'write a poem'],
      ['assistant', 'Roses are red,\nviolets are'],
      ['user', 'finish it'],
    ]);
  });

  it('is recovered the same from /sessions, and saved so at once: the note is gone from the file', async () => {
    await open([]);
    const id = await savedUnfinished();
    const store = createSessionStore({ dir: `${sandbox!.root}/data/lindwyrm/sessions`, projectRoot: sandbox!.project });
    expect((await store.load(id)).unfinishedTurn).toMatchObject({ streamed: 'Roses are red,\nviolets are' });
    const e = await engine();
    await e.runSlash(`/sessions resume ${id}`);
    recovered(e);
    const saved = await store.load(id);
    await store.close();
    expect(saved.unfinishedTurn).toBeUndefined();
    expect(saved.messages.map((m) => m.role)).toEqual(['user', 'assistant']);
  });
});
