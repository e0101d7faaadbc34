/**
 * The full screen knows the slash commands only from the engine's list (SessionState.commands):
 * help, Tab completion and the hints under the input all follow it, so a command the engine
 * registers at runtime shows up like a built-in one.
 */
import { describe, expect, it } from 'vitest';
import { BUILTIN_SLASH_INFO } from '../../src/slash/builtin-info.js';
import type { SlashCommandInfo } from '../../src/slash/types.js';
import { FakeEngine, initialState } from './fake-engine.js';
import { KEYS, renderApp, settle } from './render-app.js';

const review: SlashCommandInfo = { name: '/review', args: '[file]', help: 'ask the model to review a file', source: 'custom' };

describe('slash commands from the engine', () => {
  it('help, completion and the hint include a command registered at runtime', async () => {
    const engine = new FakeEngine(initialState({ commands: BUILTIN_SLASH_INFO }));
    const r = renderApp({ engine, rows: 40, columns: 100 });
    await r.type('/rev');
    expect(r.frame()).not.toContain('/review');
    engine.emit({ type: 'commands', commands: [...BUILTIN_SLASH_INFO, review] });
    await settle();
    expect(r.frame()).toContain('/review [file] — ask the model to review a file');
    await r.type(KEYS.tab);
    expect(r.frame()).toMatch(/^› \/review *$/m);
    await r.type('\x15', '/help', KEYS.enter);
    expect(r.frame()).toContain('/review [file]');
    expect(r.frame()).toContain('(custom)');
    expect(engine.slashes).toEqual([]);
  });

  it('shows the arguments of the command being typed, and Tab completes its choices', async () => {
    const r = renderApp({ engine: new FakeEngine(initialState({ commands: BUILTIN_SLASH_INFO })) });
    await r.type('/thinking ');
    expect(r.frame()).toContain('/thinking [on|off] — turn streamed reasoning on or off');
    // Two choices fit: Tab cycles through them (on, then off), the candidates listed under the input.
    await r.type('o', KEYS.tab);
    expect(r.frame()).toMatch(/^› \/thinking on *$/m);
    expect(r.frame()).toContain('Tab: [on]  off');
    await r.type(KEYS.tab);
    expect(r.frame()).toMatch(/^› \/thinking off *$/m);
    await r.type(KEYS.enter);
    expect(r.engine.slashes).toEqual(['/thinking off']);
  });

  it('sends a command that expands to a prompt as the user’s prompt, queued while a turn runs', async () => {
    const engine = new FakeEngine(initialState({ commands: [...BUILTIN_SLASH_INFO, review] }));
    engine.slashReply = (cmd) => ({ kind: 'prompt', prompt: `Review ${cmd.slice('/review '.length)} for bugs.` });
    const r = renderApp({ engine });
    await r.type('/review a.ts', KEYS.enter);
    await settle();
    expect(engine.submitted).toEqual(['Review a.ts for bugs.']);
    // The fake turn is still running: the next one waits for it.
    await r.type('/review b.ts', KEYS.enter);
    await settle();
    expect(engine.submitted).toEqual(['Review a.ts for bugs.']);
    expect(r.frame()).toContain('queued (sent when this turn ends): Review b.ts for bugs.');
    engine.emit({ type: 'turn.end', blockId: 'e1', status: 'finished' });
    await settle();
    expect(engine.submitted).toEqual(['Review a.ts for bugs.', 'Review b.ts for bugs.']);
  });
});
