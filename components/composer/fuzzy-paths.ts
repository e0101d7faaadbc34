/** Fuzzy ranking of project paths for @ mentions: subsequence match, tighter and shorter first. Pure. */

/** A score for `query` as a subsequence of `path` (lower is better), or undefined if it is not one. */
export function fuzzyScore(path: string, query: string): number | undefined {
  if (query === '') return path.length;
  const p = path.toLowerCase();
  const q = query.toLowerCase();
  // A plain substring beats any scattered match; one in the file name beats one in a folder.
  const sub = p.indexOf(q);
  if (sub >= 0) {
    const base = p.lastIndexOf('/') + 1;
    return (sub >= base ? 0 : 1000) + sub + path.length / 100;
  }
  let gaps = 0;
  let last = -1;
  for (const ch of q) {
    const i = p.indexOf(ch, last + 1);
    if (i < 0) return undefined;
    if (last >= 0) gaps += i - last - 1;
    last = i;
  }
  return 2000 + gaps * 10 + path.length / 100;
}

export function rankPaths(paths: readonly string[], query: string, limit: number): string[] {
  const scored: { path: string; score: number }[] = [];
  for (const path of paths) {
    const score = fuzzyScore(path, query);
    if (score !== undefined) scored.push({ path, score });
  }
  scored.sort((a, b) => a.score - b.score || a.path.localeCompare(b.path));
  return scored.slice(0, limit).map((s) => s.path);
}
