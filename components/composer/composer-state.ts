/**
 * The composer's whole state (text, cursor, history, kill ring, undo, pasted chips, a Ctrl+R
 * search, a Tab cycle) and the key commands that edit it. Pure.
 */
import type { KeyCommand } from '../keys/key-commands.js';
import * as edit from './edit-buffer.js';
import { EMPTY_HISTORY, recall, remember, type History } from './history.js';
import { addChip, chipAt, expandChips, keepChips, NO_CHIPS, wantsChip, type Chips } from './paste-chips.js';
import { retype, searchOlder, startSearch, type ReverseSearch } from './reverse-search.js';
import { cycleCompletion, type CompletionSources, type Cycle } from './completion.js';

export interface ComposerState {
  readonly buffer: edit.EditBuffer;
  readonly history: History;
  readonly chips: Chips;
  /** Killed text, newest last (Ctrl+Y yanks the newest). */
  readonly killRing: readonly string[];
  /** Earlier buffers for Ctrl+_, newest last. */
  readonly undo: readonly Snapshot[];
  /** What the last command was, so runs of typing undo as one step and runs of kills join. */
  readonly last: 'type' | 'kill' | 'other';
  readonly search: ReverseSearch | null;
  readonly cycle: Cycle | null;
}

interface Snapshot {
  readonly buffer: edit.EditBuffer;
  readonly chips: Chips;
}

export const EMPTY_COMPOSER: ComposerState = {
  buffer: edit.EMPTY_BUFFER,
  history: EMPTY_HISTORY,
  chips: NO_CHIPS,
  killRing: [],
  undo: [],
  last: 'other',
  search: null,
  cycle: null,
};

const MAX_UNDO = 200;
const MAX_KILLS = 30;

/** A composer whose history holds `entries` (loaded from the project's history file). */
export function composerWithHistory(entries: readonly string[]): ComposerState {
  return { ...EMPTY_COMPOSER, history: { entries, index: entries.length, draft: '' } };
}

/** A new buffer, with an undo step unless it continues a run of typing. */
function edited(state: ComposerState, buffer: edit.EditBuffer, last: ComposerState['last'], chips: Chips = state.chips): ComposerState {
  if (buffer.text === state.buffer.text && chips === state.chips) return { ...state, buffer, last, cycle: null };
  const joins = last === 'type' && state.last === 'type';
  const undo = joins ? state.undo : [...state.undo, { buffer: state.buffer, chips: state.chips }].slice(-MAX_UNDO);
  return { ...state, buffer, chips: keepChips(buffer.text, chips), undo, last, cycle: null };
}

function killed(state: ComposerState, k: edit.Killed, backward: boolean): ComposerState {
  if (k.killed === '') return state;
  const ring = [...state.killRing];
  // Kills in a row make one entry, as in readline: Ctrl+W three times yanks back three words.
  if (state.last === 'kill' && ring.length > 0) ring[ring.length - 1] = backward ? k.killed + ring.at(-1)! : ring.at(-1)! + k.killed;
  else ring.push(k.killed);
  return { ...edited(state, k.buffer, 'kill'), killRing: ring.slice(-MAX_KILLS) };
}

/** A paste: inline when short, a chip when it is more than a few lines. */
export function pasteInto(state: ComposerState, text: string): ComposerState {
  const clean = text.replace(/\r\n?/g, '\n');
  if (!wantsChip(clean)) return edited(state, edit.insert(state.buffer, clean), 'other');
  const { char, chips } = addChip(state.chips, clean);
  return edited(state, edit.insert(state.buffer, char), 'other', chips);
}

function searchKey(state: ComposerState, search: ReverseSearch, command: KeyCommand): ComposerState | undefined {
  const entries = state.history.entries;
  const show = (s: ReverseSearch): ComposerState => ({ ...state, search: s, buffer: s.match >= 0 ? edit.bufferOf(entries[s.match]!) : state.buffer });
  switch (command.name) {
    case 'reverseSearch':
      return show(searchOlder(search, entries));
    case 'text':
      return show(retype(search, entries, search.query + command.text));
    case 'backspace':
      return show(retype(search, entries, search.query.slice(0, -1)));
    case 'escape':
    case 'interrupt':
      // Cancelled: the input as it was before the search.
      return { ...state, search: null, buffer: state.undo.at(-1)?.buffer ?? edit.EMPTY_BUFFER, undo: state.undo.slice(0, -1) };
    default: {
      // Enter or a movement takes the match into the input to edit; the key then applies as usual.
      const taken: ComposerState = { ...state, search: null, history: { ...state.history, index: entries.length, draft: '' } };
      if (command.name === 'submit') return taken;
      return composerKey(taken, command, { commands: [], paths: [] }) ?? taken;
    }
  }
}

/** Applies a key command; undefined when the composer has no use for it (so it falls through). */
export function composerKey(state: ComposerState, command: KeyCommand, sources: CompletionSources): ComposerState | undefined {
  if (state.search) return searchKey(state, state.search, command);
  const b = state.buffer;
  const move = (buffer: edit.EditBuffer): ComposerState => ({ ...state, buffer, last: 'other', cycle: null });
  switch (command.name) {
    case 'text':
      return edited(state, edit.insert(b, command.text), command.text.length === 1 && command.text !== ' ' ? 'type' : 'other');
    case 'paste':
      return pasteInto(state, command.text);
    case 'newline':
      return edited(state, edit.insert(b, '\n'), 'other');
    case 'backspace':
      return edited(state, edit.backspace(b), 'other');
    case 'deleteForward':
      return edited(state, edit.deleteForward(b), 'other');
    case 'left':
      return move(edit.left(b));
    case 'right':
      return move(edit.right(b));
    case 'wordLeft':
      return move(edit.wordLeft(b));
    case 'wordRight':
      return move(edit.wordRight(b));
    case 'lineStart':
      return move(edit.lineStart(b));
    case 'lineEnd':
      return move(edit.lineEnd(b));
    case 'killToStart':
      return killed(state, edit.killToStart(b), true);
    case 'killToEnd':
      return killed(state, edit.killToEnd(b), false);
    case 'killWord':
      return killed(state, edit.killWord(b), true);
    case 'killWordBack':
      return killed(state, edit.killWordBack(b), true);
    case 'killWordForward':
      return killed(state, edit.killWordForward(b), false);
    case 'yank': {
      const top = state.killRing.at(-1);
      return top === undefined ? state : edited(state, edit.insert(b, top), 'other');
    }
    case 'undo': {
      const prev = state.undo.at(-1);
      if (!prev) return state;
      return { ...state, buffer: prev.buffer, chips: prev.chips, undo: state.undo.slice(0, -1), last: 'other', cycle: null };
    }
    case 'expandPaste': {
      const chip = chipAt(b.text, b.cursor, state.chips);
      if (!chip) return state;
      const pasted = state.chips.get(chip.char)!;
      const text = b.text.slice(0, chip.at) + pasted + b.text.slice(chip.at + chip.char.length);
      return edited(state, { text, cursor: chip.at + pasted.length }, 'other');
    }
    case 'reverseSearch':
      if (state.history.entries.length === 0) return state;
      // The input before the search is an undo step, so Esc can put it back.
      return { ...state, search: startSearch(state.history.entries), undo: [...state.undo, { buffer: b, chips: state.chips }], cycle: null };
    case 'up':
    case 'down': {
      const dir = command.name === 'up' ? -1 : 1;
      const atEdge = dir < 0 ? edit.isOnFirstLine(b) : edit.isOnLastLine(b);
      if (!atEdge) return move(edit.moveLine(b, dir));
      const recalled = recall(state.history, b.text, dir);
      return recalled ? { ...state, buffer: edit.bufferOf(recalled.text), history: recalled.history, last: 'other', cycle: null } : state;
    }
    case 'complete':
    case 'completeBack': {
      const next = cycleCompletion(b.text, b.cursor, state.cycle, sources, command.name === 'complete' ? 1 : -1);
      if (!next) return state;
      return { ...edited(state, { text: next.text, cursor: next.cursor }, 'other'), cycle: next.cycle };
    }
    default:
      return undefined;
  }
}

/** The whole text, pasted chips put back: what is sent or handed to an editor. */
export function fullText(state: ComposerState): string {
  return expandChips(state.buffer.text, state.chips);
}

/** The composer with `text` in place of what it held (an editor's result, a prompt put back). */
export function replaceText(state: ComposerState, text: string): ComposerState {
  return { ...edited(state, edit.bufferOf(text), 'other', NO_CHIPS), chips: NO_CHIPS };
}

/** Takes the text out for sending, remembering it in the history. */
export function takeText(state: ComposerState): { state: ComposerState; text: string } {
  const text = fullText(state).replace(/\s+$/, '');
  return { state: { ...EMPTY_COMPOSER, killRing: state.killRing, history: remember(state.history, text) }, text };
}

export function clearText(state: ComposerState): ComposerState {
  return { ...EMPTY_COMPOSER, killRing: state.killRing, history: { ...state.history, index: state.history.entries.length, draft: '' } };
}
