/**
 * The engine's store: folds events with the reducer, publishes immutable snapshots, and coalesces
 * notifications so streaming tokens cause at most one notify per frame (~33 ms). Block ends,
 * approval requests and turn ends are delivered at once.
 */
import { FLUSH_AT_ONCE, type EngineEvent } from './events.js';
import { reduce } from './reducer.js';
import { afterRequestLeaves } from '../io/request-gate.js';
import type { EngineStore, SessionState } from './state.js';

/** Ink renders at 30 fps; notifying faster than that only burns CPU. */
export const FRAME_MS = 33;

export interface EventStore extends EngineStore {
  dispatch(event: EngineEvent): void;
  /** Raw events as they happen, unthrottled (one-shot output, logs, tests). */
  onEvent(listener: (event: EngineEvent) => void): () => void;
  /** The newest state, whether or not it has been published yet. */
  current(): SessionState;
  /** Publish now if anything is pending. */
  flush(): void;
  /**
   * Subscribers hear of changes only once the prompt's request has left (src/io/request-gate.ts):
   * the request is written first, the redraw after. Snapshots stay current meanwhile; only the
   * notifications wait.
   */
  holdNotifications(): void;
}

export function createEventStore(initial: SessionState, frameMs: number = FRAME_MS): EventStore {
  let state = initial;
  let published = initial;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const listeners = new Set<() => void>();
  const eventListeners = new Set<(event: EngineEvent) => void>();

  let held = false;
  let heard = initial;
  const notify = (): void => {
    if (held || heard === published) return;
    heard = published;
    for (const listener of [...listeners]) listener();
  };
  const flush = (): void => {
    if (timer !== undefined) {
      clearTimeout(timer);
      timer = undefined;
    }
    published = state;
    notify();
  };

  return {
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    getSnapshot: () => published,
    current: () => state,
    onEvent(listener) {
      eventListeners.add(listener);
      return () => eventListeners.delete(listener);
    },
    dispatch(event) {
      state = reduce(state, event);
      for (const listener of [...eventListeners]) listener(event);
      if (FLUSH_AT_ONCE.has(event.type)) {
        flush();
      } else if (timer === undefined && published !== state) {
        timer = setTimeout(flush, frameMs);
        // A pending frame must not keep a finished one-shot process alive.
        timer.unref?.();
      }
    },
    flush,
    holdNotifications() {
      if (held) return;
      held = true;
      afterRequestLeaves(() => {
        held = false;
        notify();
      });
    },
  };
}
