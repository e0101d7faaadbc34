/**
 * The first frame does not wait for the session: runTui, given an engine that is still starting,
 * draws the header and the input at once, keeps what is typed meanwhile, and hands it to the
 * engine when it arrives. A start that fails leaves the screen and rejects with the same error.
 */
import { describe, expect, it } from 'vitest';
import { runTui } from '../../components/run-tui.js';
import type { Engine } from '../../src/agent/state.js';
import { FakeEngine, initialState } from '../components/fake-engine.js';
import { FakeStdin, FakeTerminal } from '../support/fake-tty.js';

function deferred<T>(): { promise: Promise<T>; resolve: (v: T) => void; reject: (e: unknown) => void } {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

const LEAVE_ALT_SCREEN = '\x1b[?1049l';

function start(pending: Promise<Engine>) {
  const terminal = new FakeTerminal(100, 30);
  const stdin = new FakeStdin();
  const farewells: string[] = [];
  const screen = { rows: (): readonly string[] => [] };
  const done = runTui(pending, {
    onFrameWriter: (writer) => (screen.rows = () => writer.shown),
    output: terminal,
    stdin: stdin as unknown as NodeJS.ReadStream,
    farewell: (text) => farewells.push(text),
    startingState: initialState({ sessionId: '', preset: { name: 'early', format: 'openai', model: 'm-from-config' } }),
  });
  return { terminal, stdin, farewells, done, screen };
}

describe('first frame before the session has started', () => {
  it('shows the header and input at once, and sends what was typed once the engine arrives', async () => {
    const session = deferred<Engine>();
    let settled = false;
    void session.promise.then(() => (settled = true));
    const { terminal, stdin, done, screen } = start(session.promise);

    await terminal.until('the header from the config', () => terminal.text.includes('early (openai, m-from-config)'));
    expect(settled).toBe(false);
    // Nothing is running yet that Ctrl+C could stop: the status line says so.
    expect(terminal.text).toContain('starting…');
    expect(terminal.text).not.toContain('working');

    stdin.type('hello');
    await terminal.until('the typed text', () => terminal.text.includes('hello'));
    stdin.type('\r');

    const engine = new FakeEngine(initialState({ preset: { name: 'late', format: 'anthropic', model: 'm-from-session' } }));
    session.resolve(engine);
    await terminal.until('the session header', () => terminal.text.includes('late (anthropic, m-from-session)'));
    expect(screen.rows().join('\n')).not.toContain('starting…');
    await terminal.until('the prompt sent', () => engine.submitted.length > 0);
    expect(engine.submitted).toEqual(['hello']);

    stdin.type('\x03');
    stdin.type('\x03');
    await expect(done).resolves.toBe(0);
    expect(engine.disposed).toBe(1);
    expect(terminal.text).toContain(LEAVE_ALT_SCREEN);
  });

  it('leaves the screen and rejects with the start-up error, saying nothing else', async () => {
    const session = deferred<Engine>();
    const { terminal, farewells, done } = start(session.promise);
    await terminal.until('the header from the config', () => terminal.text.includes('early (openai, m-from-config)'));

    const error = Object.assign(new Error('session 1234 is open in another lwyrm (pid 42)'), { exitCode: 1 });
    session.reject(error);
    await expect(done).rejects.toBe(error);
    expect(terminal.text).toContain(LEAVE_ALT_SCREEN);
    expect(farewells.join('')).toBe('');
  });
});
