/** The composer's whole state (text, cursor, history) and the key commands that edit it. Pure. */
import type { KeyCommand } from '../keys/key-commands.js';
import * as edit from './edit-buffer.js';
import { EMPTY_HISTORY, recall, remember, type History } from './history.js';
import type { SlashCommandInfo } from '../../src/slash/types.js';
import { completeSlash } from './slash-commands.js';

export interface ComposerState {
  readonly buffer: edit.EditBuffer;
  readonly history: History;
}

export const EMPTY_COMPOSER: ComposerState = { buffer: edit.EMPTY_BUFFER, history: EMPTY_HISTORY };

/** Applies a key command; undefined when the composer has no use for it (so it falls through). */
export function composerKey(state: ComposerState, command: KeyCommand, commands: readonly SlashCommandInfo[]): ComposerState | undefined {
  const b = state.buffer;
  const withBuffer = (buffer: edit.EditBuffer): ComposerState => ({ ...state, buffer });
  switch (command.name) {
    case 'text':
      return withBuffer(edit.insert(b, command.text));
    case 'newline':
      return withBuffer(edit.insert(b, '\n'));
    case 'backspace':
      return withBuffer(edit.backspace(b));
    case 'left':
      return withBuffer(edit.left(b));
    case 'right':
      return withBuffer(edit.right(b));
    case 'lineStart':
      return withBuffer(edit.lineStart(b));
    case 'lineEnd':
      return withBuffer(edit.lineEnd(b));
    case 'killToStart':
      return withBuffer(edit.killToStart(b));
    case 'killToEnd':
      return withBuffer(edit.killToEnd(b));
    case 'killWord':
      return withBuffer(edit.killWord(b));
    case 'up':
    case 'down': {
      const dir = command.name === 'up' ? -1 : 1;
      const atEdge = dir < 0 ? edit.isOnFirstLine(b) : edit.isOnLastLine(b);
      if (!atEdge) return withBuffer(edit.moveLine(b, dir));
      const recalled = recall(state.history, b.text, dir);
      return recalled ? { buffer: edit.bufferOf(recalled.text), history: recalled.history } : state;
    }
    case 'complete': {
      const completed = completeSlash(b.text, commands);
      return completed === undefined ? state : withBuffer(edit.bufferOf(completed));
    }
    default:
      return undefined;
  }
}

/** Takes the text out for sending, remembering it in the history. */
export function takeText(state: ComposerState): { state: ComposerState; text: string } {
  const text = state.buffer.text.replace(/\s+$/, '');
  return { state: { buffer: edit.EMPTY_BUFFER, history: remember(state.history, text) }, text };
}

export function clearText(state: ComposerState): ComposerState {
  return { buffer: edit.EMPTY_BUFFER, history: { ...state.history, index: state.history.entries.length, draft: '' } };
}
