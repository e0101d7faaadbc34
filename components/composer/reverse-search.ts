/** Ctrl+R: incremental reverse search through the prompt history, as in readline. Pure. */

export interface ReverseSearch {
  readonly query: string;
  /** The history entry shown, or -1 when nothing matches. */
  readonly match: number;
  /** Whether the last search failed (the query matches nothing older). */
  readonly failed: boolean;
}

/** The newest entry at or before `from` that contains `query`, or -1. */
export function findBack(entries: readonly string[], query: string, from: number): number {
  for (let i = Math.min(from, entries.length - 1); i >= 0; i--) if (entries[i]!.includes(query)) return i;
  return -1;
}

export function startSearch(entries: readonly string[]): ReverseSearch {
  return { query: '', match: entries.length - 1, failed: false };
}

/** The query grew or shrank: search again from the newest entry, as readline does on a shrink. */
export function retype(s: ReverseSearch, entries: readonly string[], query: string): ReverseSearch {
  const from = query.length > s.query.length && s.match >= 0 ? s.match : entries.length - 1;
  const match = findBack(entries, query, from);
  return match < 0 ? { query, match: s.match, failed: true } : { query, match, failed: false };
}

/** Ctrl+R again: the next older match. */
export function searchOlder(s: ReverseSearch, entries: readonly string[]): ReverseSearch {
  if (s.query === '') return s.match > 0 ? { ...s, match: s.match - 1, failed: false } : { ...s, failed: true };
  const match = findBack(entries, s.query, s.match - 1);
  return match < 0 ? { ...s, failed: true } : { ...s, match, failed: false };
}

/** The line shown above the input while searching. */
export function searchPrompt(s: ReverseSearch): string {
  return `${s.failed ? 'failing ' : ''}reverse-i-search: ${s.query}_   (Ctrl+R older · Enter take · Esc cancel)`;
}
