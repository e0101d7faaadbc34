/**
 * Leaving offers `lwyrm --resume ID` only for a session the engine saves: the view reads
 * SessionState.saved, not the shape of the id (a --no-save run of a resumed session keeps its id).
 */
import { EventEmitter } from 'node:events';
import { expect, it } from 'vitest';
import { runTui } from '../../components/run-tui.js';
import { FakeEngine, initialState } from '../components/fake-engine.js';

/** Enough of a TTY stdin for Ink. */
class FakeStdin extends EventEmitter {
  readonly isTTY = true;
  private pending: string[] = [];
  type(data: string): void {
    this.pending.push(data);
    this.emit('readable');
  }
  read(): string | null {
    return this.pending.shift() ?? null;
  }
  setRawMode(): this {
    return this;
  }
  setEncoding(): this {
    return this;
  }
  resume(): this {
    return this;
  }
  pause(): this {
    return this;
  }
  ref(): this {
    return this;
  }
  unref(): this {
    return this;
  }
}

class FakeTerminal extends EventEmitter {
  readonly columns = 80;
  readonly rows = 24;
  text = '';
  write(data: string): boolean {
    this.text += data;
    this.emit('written');
    return true;
  }
  until(check: () => boolean): Promise<void> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`timed out; screen so far:\n${this.text.slice(-2000)}`)), 5000);
      const onWrite = (): void => {
        if (!check()) return;
        clearTimeout(timer);
        this.off('written', onWrite);
        resolve();
      };
      this.on('written', onWrite);
      onWrite();
    });
  }
}

async function farewellFor(saved: boolean | undefined, sessionId: string): Promise<string> {
  const engine = new FakeEngine(initialState({ sessionId, ...(saved !== undefined ? { saved } : {}) }));
  engine.emit({ type: 'turn.start', blockId: 'u1', text: 'hello' });
  engine.emit({ type: 'assistant.delta', blockId: 'a1', text: 'Hi there.' });
  engine.emit({ type: 'turn.end', blockId: 'e1', status: 'finished' });
  const terminal = new FakeTerminal();
  const stdin = new FakeStdin();
  const farewells: string[] = [];
  const done = runTui(engine, { output: terminal, stdin: stdin as unknown as NodeJS.ReadStream, farewell: (t) => farewells.push(t) });
  await terminal.until(() => terminal.text.includes('Hi there.'));
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
