import { useSyncExternalStore } from 'react';
import { highlighterEpoch, onHighlighterChange } from '../components/highlight/highlighter.js';

/** Re-renders when a language's highlighter has loaded, so code laid out plain gets its colours. */
export function useHighlighterEpoch(): number {
  return useSyncExternalStore(onHighlighterChange, highlighterEpoch, highlighterEpoch);
}
