/**
 * Leaving offers `lwyrm --resume ID` only for a session the engine saves: the view reads
 * SessionState.saved, not the shape of the id (a --no-save run of a resumed session keeps its id).
 */
import { expect, it } from 'vitest';
import { runTui } from '../../components/run-tui.js';
import { FakeEngine, initialState } from '../components/fake-engine.js';
import { FakeStdin, FakeTerminal } from '../support/fake-tty.js';

async function farewellFor(saved: boolean | undefined, sessionId: string): Promise<string> {
  const engine = new FakeEngine(initialState({ sessionId, ...(saved !== undefined ? { saved } : {}) }));
  engine.emit({ type: 'turn.start', blockId: 'u1', text: 'hello' });
  engine.emit({ type: 'assistant.delta', blockId: 'a1', text: 'Hi there.' });
  engine.emit({ type: 'turn.end', blockId: 'e1', status: 'finished' });
  const terminal = new FakeTerminal();
  const stdin = new FakeStdin();
  const farewells: string[] = [];
  const done = runTui(engine, { output: terminal, stdin: stdin as unknown as NodeJS.ReadStream, farewell: (t) => farewells.push(t) });
  await terminal.until('the answer', () => terminal.text.includes('Hi there.'));
  stdin.type('\x03');
  stdin.type('\x03');
  await expect(done).resolves.toBe(0);
  return farewells.join('');
}

it('a session the engine does not save gets no resume command, whatever its id looks like', async () => {
  const unsaved = await farewellFor(false, '4b50278bc3fb');
  expect(unsaved).toContain('Hi there.');
  expect(unsaved).not.toContain('--resume');
  expect(await farewellFor(true, '4b50278bc3fb')).toContain('lwyrm --resume 4b50278bc3fb');
});
