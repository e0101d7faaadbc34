import type { Engine } from '../src/agent/state.js';
import { keepStreamPieces } from '../src/agent/reducer.js';
import { afterRequestLeaves, requestPending } from '../src/io/request-gate.js';

/**
 * The engine as the view subscribes to it, with notifications paced to at most one per `minMs`.
 * The store already coalesces to ~33 ms; a frame of a full 120x40 screen costs Ink several
 * milliseconds of layout and string work, so while an answer streams the view renders at a steady
 * pace instead of at whatever rate the store can go. Keys still render at once (local state).
 */
export function paceEngine(engine: Engine, minMs: number): Engine {
  // The view lays a streaming answer out from its pieces, never reading the whole text per frame.
  keepStreamPieces(true);
  const listeners = new Set<() => void>();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let last = -Infinity;
  let unsubscribe: (() => void) | undefined;
  const fire = (): void => {
    // A frame due while a prompt's request is on its way is drawn after it (src/io/request-gate.ts).
    if (requestPending()) {
      afterRequestLeaves(fire);
      return;
    }
    timer = undefined;
    last = performance.now();
    for (const listener of [...listeners]) listener();
  };
  const onChange = (): void => {
    if (timer !== undefined) return;
    const wait = last + minMs - performance.now();
    if (wait <= 0) fire();
    else timer = setTimeout(fire, wait);
  };
  return {
    subscribe(listener) {
      listeners.add(listener);
      unsubscribe ??= engine.subscribe(onChange);
      return () => {
        listeners.delete(listener);
        if (listeners.size === 0 && unsubscribe) {
          unsubscribe();
          unsubscribe = undefined;
          if (timer !== undefined) clearTimeout(timer);
          timer = undefined;
        }
      };
    },
    getSnapshot: () => engine.getSnapshot(),
    submit: (text, extra) => engine.submit(text, extra),
    interrupt: (reason) => engine.interrupt(reason),
    answer: (id, decision, note) => engine.answer(id, decision, note),
    answerQuestion: (id, value) => engine.answerQuestion?.(id, value),
    mentionResources: () => engine.mentionResources?.() ?? [],
    runSlash: (command) => engine.runSlash(command),
    dispose: () => engine.dispose(),
  };
}
