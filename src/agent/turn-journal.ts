/**
 * What the engine keeps on disk about the turn that is running, so a kill loses at most a second
 * of it: the unfinished-turn note (src/agent/unfinished-turn.ts) set when the turn starts, the
 * answer text added as it streams and saved within STREAM_SAVE_MS, cleared at every safe point
 * (the history holds the text then) and when the turn ends.
 */
import type { EngineEvent } from './events.js';
import type { SessionData } from './runtime.js';
import { createStreamSaver } from './unfinished-turn.js';

export interface TurnJournal {
  /** The turn starts: the saved session says so from its first save on. */
  begin(): void;
  /** Passes an event on, noting streamed answer text. */
  dispatch(event: EngineEvent): void;
  /** The history holds everything so far (the caller saves right after). */
  settled(): void;
  /** The turn is over, however it ended. */
  end(): void;
}

export function createTurnJournal(
  session: () => SessionData,
  dispatch: (event: EngineEvent) => void,
  save: () => Promise<void>,
  log?: (line: string) => void,
): TurnJournal {
  // A failure here is logged only: the next safe point saves again and reports it.
  const saver = createStreamSaver(() => save().catch((err: unknown) => log?.(`could not save the streamed text: ${String(err)}`)));
  return {
    begin() {
      const s = session();
      s.unfinishedTurn = { startedAt: new Date().toISOString(), streamed: '', afterMessages: s.history.length };
    },
    dispatch(event) {
      const s = session();
      const u = s.unfinishedTurn;
      if (event.type === 'assistant.delta' && u) {
        s.unfinishedTurn = { ...u, streamed: u.streamed + event.text, afterMessages: s.history.length };
        saver.touch();
      }
      dispatch(event);
    },
    settled() {
      saver.cancel();
      const s = session();
      const u = s.unfinishedTurn;
      if (u) s.unfinishedTurn = { ...u, streamed: '', afterMessages: s.history.length };
    },
    end() {
      saver.cancel();
      delete session().unfinishedTurn;
    },
  };
}
