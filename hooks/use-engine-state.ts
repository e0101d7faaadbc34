import { useCallback, useSyncExternalStore } from 'react';
import type { SessionState } from '../src/agent/state.js';
import { useEngine } from './engine-context.js';

/**
 * Subscribes to one slice of the session state. The selector must return a value that already
 * exists in the snapshot (s => s.blocks), never a new object, or every notify re-renders.
 */
export function useEngineState<T>(select: (state: SessionState) => T): T {
  const engine = useEngine();
  const getSnapshot = useCallback(() => select(engine.getSnapshot()), [engine, select]);
  return useSyncExternalStore(engine.subscribe, getSnapshot, getSnapshot);
}
