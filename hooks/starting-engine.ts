import type { Engine, SessionState, SlashResult, TurnOutcome } from '../src/agent/state.js';

/**
 * An engine that is still starting, so the first frame need not wait for it. Until `pending`
 * settles, the view renders `placeholder` (cheap to build from the config: preset, root, policy);
 * it is marked busy, so text typed meanwhile waits in the input like text typed during a turn.
 * Once the real engine is there, every call goes to it and subscribers are told to re-read.
 * If it fails, `failed` settles with the error: the caller leaves the screen and reports it.
 */
export interface StartingEngine extends Engine {
  /** Resolves with the start-up error if the engine never comes; never rejects. */
  readonly failed: Promise<unknown>;
}

/** What a starting engine shows: the placeholder, busy (so typed text waits) and marked starting. */
export function startingSnapshot(placeholder: SessionState): SessionState {
  return { ...placeholder, busy: true, starting: true };
}

export function startingEngine(placeholder: SessionState, pending: Promise<Engine>): StartingEngine {
  let real: Engine | undefined;
  const listeners = new Set<() => void>();
  const unsubscribes = new Map<() => void, () => void>();
  const notify = (): void => {
    for (const listener of [...listeners]) listener();
  };
  let reportFailure: (error: unknown) => void = () => undefined;
  const failed = new Promise<unknown>((resolve) => {
    reportFailure = resolve;
  });
  // One settled promise that never rejects: callers that wait on it after a failure stay waiting,
  // because the screen is about to close anyway.
  const ready = pending.then(
    (engine) => {
      real = engine;
      for (const listener of listeners) unsubscribes.set(listener, engine.subscribe(listener));
      notify();
      return engine;
    },
    (error: unknown) => {
      reportFailure(error);
      return new Promise<Engine>(() => undefined);
    },
  );
  const starting = startingSnapshot(placeholder);

  return {
    failed,
    subscribe(listener) {
      listeners.add(listener);
      if (real) unsubscribes.set(listener, real.subscribe(listener));
      return () => {
        listeners.delete(listener);
        unsubscribes.get(listener)?.();
        unsubscribes.delete(listener);
      };
    },
    getSnapshot: () => (real ? real.getSnapshot() : starting),
    // Straight to the real engine once it is there: an await here would let a redraw in before the request.
    submit: (text, extra): Promise<TurnOutcome> => (real ? real.submit(text, extra) : ready.then((engine) => engine.submit(text, extra))),
    // Nothing runs before the engine exists, so there is nothing to stop or answer.
    interrupt: (reason) => real?.interrupt(reason),
    answer: (id, decision, note) => real?.answer(id, decision, note),
    answerQuestion: (id, value) => real?.answerQuestion?.(id, value),
    mentionResources: () => real?.mentionResources?.() ?? [],
    runSlash: async (command): Promise<SlashResult> => (await ready).runSlash(command),
    async dispose() {
      // Leaving while it starts: let it finish starting, then close it properly (locks, files).
      const engine = await Promise.race([ready, failed.then(() => undefined)]);
      await engine?.dispose();
    },
  };
}
