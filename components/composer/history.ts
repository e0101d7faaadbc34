/** Prompt history for ↑/↓: earlier prompts, newest last, plus the draft being typed. Pure. */

export interface History {
  readonly entries: readonly string[];
  /** entries.length while editing the draft; otherwise the recalled entry. */
  readonly index: number;
  /** What was typed before recalling, restored when coming back down. */
  readonly draft: string;
}

export const EMPTY_HISTORY: History = { entries: [], index: 0, draft: '' };

const MAX_ENTRIES = 500;

export function remember(h: History, text: string): History {
  const trimmed = text.trim();
  if (trimmed === '') return { ...h, index: h.entries.length, draft: '' };
  const entries = h.entries[h.entries.length - 1] === text ? h.entries : [...h.entries, text].slice(-MAX_ENTRIES);
  return { entries, index: entries.length, draft: '' };
}

/** Returns the new history and the text to show, or undefined when there is nothing further. */
export function recall(h: History, current: string, dir: -1 | 1): { history: History; text: string } | undefined {
  const index = h.index + dir;
  if (index < 0 || index > h.entries.length) return undefined;
  const draft = h.index === h.entries.length ? current : h.draft;
  const text = index === h.entries.length ? draft : h.entries[index]!;
  return { history: { entries: h.entries, index, draft }, text };
}
