/**
 * Tab completion and cycling: what the word at the cursor could become (a slash command, one of
 * its argument's choices, a path after @), and stepping through them with Tab / Shift+Tab. Pure.
 */
import type { SlashCommandInfo } from '../../src/slash/types.js';
import { commandBeingTyped, matchingCommands } from './slash-commands.js';
import { rankPaths } from './fuzzy-paths.js';

export interface Candidates {
  /** The part of the text the candidates replace. */
  readonly start: number;
  readonly end: number;
  readonly items: readonly string[];
}

/** A cycle under way: which candidate is shown, and over what. */
export interface Cycle {
  readonly candidates: Candidates;
  readonly index: number;
  /** The text and cursor the cycle put there; any other edit ends the cycle. */
  readonly text: string;
}

export interface CompletionSources {
  readonly commands: readonly SlashCommandInfo[];
  /** Paths for @ (project-relative, ignored and denied ones already left out). */
  readonly paths: readonly string[];
}

const MAX_PATH_CANDIDATES = 50;

/** The `@partial` the cursor is in, if any. */
export function mentionAt(text: string, cursor: number): { start: number; query: string } | undefined {
  const m = /(?:^|\s)@([^\s@]*)$/.exec(text.slice(0, cursor));
  if (!m) return undefined;
  return { start: cursor - m[1]!.length, query: m[1]! };
}

export function candidatesAt(text: string, cursor: number, src: CompletionSources): Candidates | undefined {
  const mention = mentionAt(text, cursor);
  if (mention) {
    const items = rankPaths(src.paths, mention.query, MAX_PATH_CANDIDATES);
    return items.length > 0 ? { start: mention.start, end: cursor, items } : undefined;
  }
  if (cursor !== text.length) return undefined;
  const typing = commandBeingTyped(text, src.commands);
  if (typing) {
    const m = /^(\/\S+\s+)(\S*)$/.exec(text);
    if (!m || !typing.choices?.length) return undefined;
    const partial = m[2]!;
    const items = typing.choices.filter((c) => c.startsWith(partial));
    return items.length > 0 ? { start: m[1]!.length, end: text.length, items } : undefined;
  }
  const items = matchingCommands(text, src.commands).map((c) => c.name);
  return items.length > 0 ? { start: 0, end: text.length, items } : undefined;
}

function apply(text: string, c: Candidates, item: string): { text: string; cursor: number } {
  // A single match is finished with a space (a directory keeps its slash open for more).
  const tail = c.items.length === 1 && !item.endsWith('/') ? ' ' : '';
  const out = text.slice(0, c.start) + item + tail + text.slice(c.end);
  return { text: out, cursor: c.start + item.length + tail.length };
}

/**
 * Tab (dir 1) or Shift+Tab (dir -1): the first candidate, then the next each time; a single
 * candidate completes and ends. Undefined when there is nothing to complete.
 */
export function cycleCompletion(
  text: string,
  cursor: number,
  cycle: Cycle | null,
  src: CompletionSources,
  dir: 1 | -1 = 1,
): { text: string; cursor: number; cycle: Cycle | null } | undefined {
  if (cycle && cycle.text === text) {
    const { candidates } = cycle;
    const n = candidates.items.length;
    const index = (cycle.index + dir + n) % n;
    const prev = candidates.items[cycle.index]!;
    // Put back what was replaced, then apply the next candidate over the same span.
    const restored = { ...candidates, end: candidates.start + prev.length };
    const next = apply(text, restored, candidates.items[index]!);
    return { ...next, cycle: { candidates, index, text: next.text } };
  }
  const candidates = candidatesAt(text, cursor, src);
  if (!candidates) return undefined;
  // First, as a shell does, the part all candidates share, when that is more than what is typed
  // and still holds it (fuzzy "@alp" becomes "@src/alp"; "@alpf" is not cut back to "@src/alp").
  const typed = text.slice(candidates.start, candidates.end);
  const shared = commonPrefix(candidates.items);
  if (candidates.items.length > 1 && shared.length > typed.length && shared.includes(typed)) {
    const out = text.slice(0, candidates.start) + shared + text.slice(candidates.end);
    return { text: out, cursor: candidates.start + shared.length, cycle: null };
  }
  const index = dir > 0 ? 0 : candidates.items.length - 1;
  const next = apply(text, candidates, candidates.items[index]!);
  return { ...next, cycle: candidates.items.length > 1 ? { candidates, index, text: next.text } : null };
}

function commonPrefix(words: readonly string[]): string {
  let prefix = words[0] ?? '';
  for (const w of words) while (!w.startsWith(prefix)) prefix = prefix.slice(0, -1);
  return prefix;
}

/** The hint while cycling: the candidates, the current one marked. */
export function cycleHint(cycle: Cycle): string {
  const items = cycle.candidates.items;
  const shown = items.slice(0, 12).map((item, i) => (i === cycle.index ? `[${item}]` : item));
  return `Tab: ${shown.join('  ')}${items.length > 12 ? `  … ${items.length - 12} more` : ''}`;
}
