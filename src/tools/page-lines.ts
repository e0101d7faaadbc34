/**
 * One page of a paged result: whole lines from `first`, at most `limit` of them, and no more
 * characters than the cap. A page the cap cuts ends on a whole line, so the next page starts on
 * the line after it; a single line longer than the cap is shown cut, said so, and the page still
 * moves on by one line — a page that cannot move would send the model asking for it again.
 */

/** Room left under the cap for the footer that names the page and the next one (a quarter of a small cap). */
const FOOTER_ROOM = 200;

export interface Page {
  readonly body: string;
  /** The last line shown, 1-based. */
  readonly last: number;
  /** True when the character cap, not the limit or the end, ended the page. */
  readonly cutByChars: boolean;
}

export function pageOfLines(
  lines: readonly string[],
  first: number,
  limit: number | undefined,
  maxChars: number,
  render: (line: string, n: number) => string = (line) => line,
): Page {
  const budget = Math.max(1, maxChars - Math.min(FOOTER_ROOM, Math.floor(maxChars / 4)));
  const end = Math.min(lines.length, limit === undefined ? lines.length : first - 1 + limit);
  const shown: string[] = [];
  let chars = 0;
  let i = first - 1;
  for (; i < end; i++) {
    const line = render(lines[i]!, i + 1);
    if (shown.length > 0 && chars + line.length + 1 > budget) break;
    if (shown.length === 0 && line.length > budget) {
      shown.push(`${line.slice(0, budget)}… [line ${i + 1} is ${line.length} chars; the rest of it is not shown]`);
      i++;
      break;
    }
    shown.push(line);
    chars += line.length + 1;
  }
  return { body: shown.join('\n'), last: i, cutByChars: i < end };
}
