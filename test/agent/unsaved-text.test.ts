/**
 * The turn journal's unsaved text holds the client's chunks instead of its deltas when they match,
 * and whatever the client says, what it hands to the saves is exactly the deltas, in order.
 */
import { describe, expect, it } from 'vitest';
import { TextBuffer } from '../../src/providers/text-buffer.js';
import { UnsavedText } from '../../src/agent/unsaved-text.js';

/** Feeds `deltas` as a client would (sealed chunks from a TextBuffer), saving after every `saveEvery`. */
function run(deltas: readonly string[], saveEvery: number, seal: (i: number, sealed: string | undefined) => string | undefined = (_, s) => s) {
  const client = new TextBuffer();
  const unsaved = new UnsavedText();
  const saved: string[] = [];
  deltas.forEach((d, i) => {
    unsaved.add(d, seal(i, client.append(d)));
    if ((i + 1) % saveEvery === 0) saved.push(...unsaved.take());
  });
  saved.push(...unsaved.take());
  return { saved, client };
}

const deltas = Array.from({ length: 3000 }, (_, i) => `delta ${i} 🐉 — ${'x'.repeat(i % 50)}\n`);

describe('UnsavedText', () => {
  it('hands the saves exactly the deltas, holding the client\'s own chunks between saves', () => {
    for (const every of [1, 7, 333, 5000]) {
      const { saved, client } = run(deltas, every);
      expect(saved.join('')).toBe(deltas.join(''));
      if (every === 5000) {
        // Nothing saved in between: every full chunk is the very string the client keeps.
        const chunks = (client as unknown as { chunks: string[] }).chunks;
        expect(saved.slice(0, chunks.length)).toEqual(chunks);
        expect(saved.slice(0, chunks.length).every((s, i) => s === chunks[i])).toBe(true);
      }
    }
  });

  it('falls back to its own joins when the chunks are not the deltas it holds', () => {
    // Chunks from another source now and then, and none at all for a while.
    const wrong = run(deltas, 50, (i, s) => (i % 5 === 0 ? `other ${i}` : i > 1000 && i < 2000 ? undefined : s));
    expect(wrong.saved.join('')).toBe(deltas.join(''));
  });

  it('a failed save is put back in front of what came since', () => {
    const unsaved = new UnsavedText();
    unsaved.add('one ');
    const failed = unsaved.take();
    unsaved.add('two ');
    unsaved.putBack(failed);
    unsaved.add('three');
    expect(unsaved.take().join('')).toBe('one two three');
  });
});
