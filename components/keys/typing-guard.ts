/**
 * Keeps an approval from being answered by keys meant for the input. While a turn runs the user
 * may type ahead; if the modal opens mid-word, the next "y", "n", "a" or "q" of that word would
 * answer a question they have not seen (an "a" in "any ideas" would allow every write for the
 * session). So a modal that opens while keys are coming is not armed until the typing pauses:
 * until then keys go where they would have gone without it (the input keeps the text).
 */
import { useRef } from 'react';
import type { KeyLayer } from './use-key-router.js';

/** A pause this long between keys means the user is no longer typing. */
export const TYPING_PAUSE_MS = 600;

export interface TypingGuard {
  /** First layer: notes when each key arrives; consumes nothing. */
  readonly clock: KeyLayer;
  /** The modal's layer, passing keys through until it is armed. */
  guard(layer: KeyLayer, id: string | undefined): KeyLayer;
}

export function useTypingGuard(now: () => number = Date.now): TypingGuard {
  const lastKeyAt = useRef(Number.NEGATIVE_INFINITY);
  const gap = useRef(Number.POSITIVE_INFINITY);
  const armed = useRef<{ id: string; armed: boolean } | null>(null);

  const clock: KeyLayer = {
    name: 'typing-clock',
    active: true,
    handle(cmd) {
      const t = now();
      gap.current = t - lastKeyAt.current;
      // Enter ends the typing: a modal that opens after a prompt was sent is armed at once.
      lastKeyAt.current = cmd.name === 'submit' ? Number.NEGATIVE_INFINITY : t;
      return false;
    },
  };

  const guard = (layer: KeyLayer, id: string | undefined): KeyLayer => {
    // Armed at once unless a key came in just before it opened.
    if (id !== undefined && armed.current?.id !== id) armed.current = { id, armed: now() - lastKeyAt.current >= TYPING_PAUSE_MS };
    return {
      name: layer.name,
      active: layer.active,
      handle(cmd) {
        const state = armed.current;
        if (state !== null && !state.armed) {
          if (gap.current < TYPING_PAUSE_MS) return false;
          state.armed = true;
        }
        const handled = layer.handle(cmd);
        // A key the modal took (an answer) is not typing: the next modal is armed at once.
        if (handled) lastKeyAt.current = Number.NEGATIVE_INFINITY;
        return handled;
      },
    };
  };
  return { clock, guard };
}
