/** The one place the view gets hold of the engine. Components reach it only through hooks. */
import { createContext, useContext, type ReactNode } from 'react';
import type { Engine } from '../src/agent/state.js';

const EngineContext = createContext<Engine | null>(null);

export function EngineProvider({ engine, children }: { readonly engine: Engine; readonly children: ReactNode }) {
  return <EngineContext.Provider value={engine}>{children}</EngineContext.Provider>;
}

export function useEngine(): Engine {
  const engine = useContext(EngineContext);
  if (engine === null) throw new Error('useEngine() outside <EngineProvider>');
  return engine;
}
