/**
 * A turn the process did not live to finish (a crash, SIGKILL, the machine going down). While a
 * turn runs the saved session carries a note of it, with the answer text streamed since the last
 * safe point, saved at most STREAM_SAVE_MS after it arrived. A resume that finds the note shows
 * that the run ended mid-turn, keeps what had streamed (the user saw it, and the model can go on
 * from it), and answers the prompt the reply never came for, so the next prompt is not merged
 * into it.
 */
import type { Message } from '../providers/types.js';
import type { SessionData } from './runtime.js';
import { blocksFromHistory } from './history-blocks.js';
import { repairHistory } from './history.js';
import type { TranscriptBlock } from './state.js';

/** How long streamed text may wait before it is saved: at most this much of an answer is lost to a kill. */
export const STREAM_SAVE_MS = 1_000;

export interface UnfinishedTurn {
  /** ISO time the turn started. */
  readonly startedAt: string;
  /** Answer text streamed since the last safe point (not yet part of the history). */
  readonly streamed: string;
  /** The history's length when `streamed` was taken: the text belongs right after those messages. */
  readonly afterMessages: number;
}

/** The note as a saved file holds it, or undefined when it is missing or malformed (the file is data). */
export function readUnfinishedTurn(value: unknown): UnfinishedTurn | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const v = value as Record<string, unknown>;
  if (typeof v['startedAt'] !== 'string' || typeof v['streamed'] !== 'string') return undefined;
  const after = v['afterMessages'];
  if (typeof after !== 'number' || !Number.isInteger(after) || after < 0) return undefined;
  return { startedAt: v['startedAt'], streamed: v['streamed'], afterMessages: after };
}

export const ENDED_BEFORE_REPLY = '(the previous run ended before a reply arrived)';

export interface Recovery {
  readonly history: Message[];
  /** The streamed text now kept as an assistant message, if any. */
  readonly recovered?: string;
  /** What the transcript says about it. */
  readonly notice: string;
}

function clock(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : d.toISOString().replace('T', ' ').slice(0, 16) + ' UTC';
}

/** The history to go on with after an unfinished turn (`history` already repaired), and the notice. */
export function recoverTurn(history: readonly Message[], turn: UnfinishedTurn): Recovery {
  const out = history.slice();
  const last = out.at(-1);
  const when = clock(turn.startedAt);
  const awaitsReply = last?.role === 'user';
  // The text streamed right after these messages; anything else (a reply saved meanwhile) has it already.
  if (awaitsReply && turn.streamed.trim() !== '' && turn.afterMessages === history.length) {
    out.push({ role: 'assistant', content: [{ type: 'text', text: turn.streamed }] });
    const lines = turn.streamed.replace(/\n+$/, '').split('\n').length;
    return {
      history: out,
      recovered: turn.streamed,
      notice: `The previous run ended in the middle of a turn (started ${when}). What it had streamed (${lines} line${lines === 1 ? '' : 's'}) is kept below; send "continue" to go on from there.`,
    };
  }
  // A prompt without its reply would otherwise be merged into the next one.
  if (awaitsReply && last.content.some((b) => b.type === 'text')) {
    out.push({ role: 'assistant', content: [{ type: 'text', text: ENDED_BEFORE_REPLY }] });
  }
  return { history: out, notice: `The previous run ended in the middle of a turn (started ${when}), before anything of a reply had been saved.` };
}

/**
 * A saved session made ready to go on with: its history repaired, an unfinished turn recovered
 * (the note dropped), and the transcript blocks to show, the notice right before the text it is
 * about. The blocks are made on demand: titling a tool call needs the tools, which the session
 * being opened may not have yet.
 */
export function resumedSession(saved: SessionData): {
  session: SessionData;
  recovered: boolean;
  blocks(describe: (name: string, input: unknown) => string, detail?: (name: string, input: unknown) => string | undefined): TranscriptBlock[];
} {
  const { unfinishedTurn, ...data } = saved;
  const recovery = unfinishedTurn ? recoverTurn(saved.history, unfinishedTurn) : undefined;
  const session: SessionData = { ...data, history: repairHistory(recovery?.history ?? saved.history) };
  const blocks = (describe: (name: string, input: unknown) => string, detail?: (name: string, input: unknown) => string | undefined): TranscriptBlock[] => {
    const out = blocksFromHistory(session.history, describe, detail);
    if (recovery) {
      const notice: TranscriptBlock = { kind: 'notice', id: 'unfinished-turn', version: 0, level: 'warning', text: recovery.notice };
      out.splice(recovery.recovered !== undefined ? out.length - 1 : out.length, 0, notice);
    }
    return out;
  };
  return { session, recovered: recovery !== undefined, blocks };
}

/** Saves streamed text at most `intervalMs` after it arrived; cancelled at the turn's safe points. */
export function createStreamSaver(save: () => Promise<void>, intervalMs: number = STREAM_SAVE_MS) {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let running: Promise<void> | undefined;
  return {
    /** Text arrived: a save is due within the interval. */
    touch(): void {
      if (timer !== undefined) return;
      timer = setTimeout(() => {
        timer = undefined;
        // A slow disk must not stack saves up: one at a time, the next touch schedules again.
        if (running) return;
        running = save().finally(() => (running = undefined));
      }, intervalMs);
      // A save still pending must not keep a finished process alive.
      timer.unref?.();
    },
    cancel(): void {
      if (timer !== undefined) clearTimeout(timer);
      timer = undefined;
    },
  };
}
