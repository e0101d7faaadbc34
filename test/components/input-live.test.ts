/**
 * The engine starts once the view's input reads keys (components/terminal/input-live.ts): after
 * Ink's first stdin listener and the keys already waiting, or after the cap where none comes.
 */
import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { whenInputLive } from '../../components/terminal/input-live.js';

const turns = (n: number): Promise<void> => (n === 0 ? Promise.resolve() : new Promise((r) => setImmediate(() => void turns(n - 1).then(r))));

describe('input live', () => {
  it('fires after a readable listener arrives and the event loop has gone round, not before', async () => {
    const stdin = new EventEmitter();
    let live = 0;
    whenInputLive(stdin, () => (live += 1), 10_000);
    await turns(3);
    expect(live).toBe(0);
    stdin.on('readable', () => undefined);
    expect(live).toBe(0);
    await turns(3);
    expect(live).toBe(1);
    // Once only, whatever else listens later.
    stdin.on('data', () => undefined);
    await turns(3);
    expect(live).toBe(1);
  });

  it('fires after the cap when the input never reads', async () => {
    const stdin = new EventEmitter();
    let live = 0;
    whenInputLive(stdin, () => (live += 1), 20);
    await new Promise((r) => setTimeout(r, 60));
    expect(live).toBe(1);
    expect(stdin.listenerCount('newListener')).toBe(0);
  });
});
