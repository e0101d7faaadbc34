/**
 * What the engine keeps on disk about the turn that is running, so a kill loses at most a second
 * of it: the unfinished-turn note (src/agent/unfinished-turn.ts) set when the turn starts, and the
 * answer text as it streams, appended to the turn's file (src/sessions/streamed-file.ts) within
 * STREAM_SAVE_MS; a safe point (the history holds the text then) starts the file afresh, and the
 * turn's end removes it.
 */
import type { EngineEvent } from './events.js';
import type { SessionData } from './runtime.js';
import { UnsavedText } from './unsaved-text.js';
import { createStreamSaver, type UnfinishedTurn } from './unfinished-turn.js';

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
  /** Saves the whole session (small: the history only appends). */
  save: () => Promise<void>,
  /** Appends streamed text to the turn's file (no turn: removes it). */
  saveStreamed: (turn: UnfinishedTurn | undefined, text: string | readonly string[]) => Promise<void>,
  log?: (line: string) => void,
): TurnJournal {
  // Only the text since the last save is held: the whole answer is the model client's to keep,
  // and each save appends just the new part (the note's `streamed` stays '' in the index). Held
  // as the client's own chunks where it can be (unsaved-text.ts).
  let unsaved = new UnsavedText();
  // The first save of the text after a safe point saves the session too: the index must name the
  // history the text follows (a context reclaim may have rewritten it since).
  let indexed = false;
  const saver = createStreamSaver(async () => {
    // In chunks, never joined: a second of a fast reply is megabytes.
    const text = unsaved.take();
    // The note as the text was taken: a safe point meanwhile starts another file.
    const turn = session().unfinishedTurn;
    if (!turn) return;
    try {
      if (!indexed) await save();
      indexed = true;
      await saveStreamed(turn, text);
    } catch (err) {
      // Kept for the next try, so the saved text has no hole; the next safe point reports it.
      unsaved.putBack(text);
      log?.(`could not save the streamed text: ${String(err)}`);
    }
  });
  return {
    begin() {
      const s = session();
      unsaved = new UnsavedText();
      indexed = false;
      s.unfinishedTurn = { startedAt: new Date().toISOString(), streamed: '', afterMessages: s.history.length };
    },
    dispatch(event) {
      const s = session();
      const u = s.unfinishedTurn;
      if (event.type === 'assistant.delta' && u) {
        if (u.afterMessages !== s.history.length) s.unfinishedTurn = { ...u, afterMessages: s.history.length };
        unsaved.add(event.text, event.sealed);
        saver.touch();
      }
      dispatch(event);
    },
    settled() {
      saver.cancel();
      unsaved = new UnsavedText();
      indexed = false;
      const s = session();
      const u = s.unfinishedTurn;
      if (u) s.unfinishedTurn = { ...u, streamed: '', afterMessages: s.history.length };
    },
    end() {
      saver.cancel();
      unsaved = new UnsavedText();
      delete session().unfinishedTurn;
      void saveStreamed(undefined, '').catch((err: unknown) => log?.(`could not remove the streamed text: ${String(err)}`));
    },
  };
}
