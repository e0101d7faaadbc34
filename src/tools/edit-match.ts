/** Finding old_string in a file, and saying something useful when it is not there exactly once. */

export interface MatchReport {
  readonly indexes: readonly number[];
}

export function findAll(haystack: string, needle: string): number[] {
  const found: number[] = [];
  let from = 0;
  for (;;) {
    const at = haystack.indexOf(needle, from);
    if (at === -1) return found;
    found.push(at);
    from = at + needle.length;
  }
}

export function lineOf(text: string, index: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < index; i = text.indexOf('\n', i + 1)) line++;
  return line;
}

/** Similarity of two lines in [0, 1], on bigrams of the trimmed text (cheap and forgiving). */
function similarity(a: string, b: string): number {
  const x = a.trim();
  const y = b.trim();
  if (x === y) return 1;
  if (x.length < 2 || y.length < 2) return 0;
  const grams = new Map<string, number>();
  for (let i = 0; i < x.length - 1; i++) {
    const g = x.slice(i, i + 2);
    grams.set(g, (grams.get(g) ?? 0) + 1);
  }
  let common = 0;
  for (let i = 0; i < y.length - 1; i++) {
    const g = y.slice(i, i + 2);
    const n = grams.get(g) ?? 0;
    if (n > 0) {
      common++;
      grams.set(g, n - 1);
    }
  }
  return (2 * common) / (x.length - 1 + y.length - 1);
}

/** The file lines closest to the first meaningful line of the text that was not found. */
export function nearestLines(text: string, wanted: string, count = 3): string {
  const probe = wanted.split('\n').find((l) => l.trim() !== '') ?? wanted;
  const lines = text.split('\n').map((l) => l.replace(/\r$/, ''));
  const scored = lines
    .map((line, i) => ({ line, n: i + 1, score: similarity(line, probe) }))
    .filter((s) => s.score > 0.3)
    .sort((a, b) => b.score - a.score || a.n - b.n)
    .slice(0, count)
    .sort((a, b) => a.n - b.n);
  if (scored.length === 0) return 'No similar lines were found; read the file again before retrying.';
  const hint = scored.some((s) => s.line.trim() === probe.trim())
    ? ' (a line matches except for indentation or whitespace: copy it exactly, tabs and spaces included)'
    : '';
  return `Nearest similar lines${hint}:\n${scored.map((s) => `${s.n}\t${s.line}`).join('\n')}`;
}
