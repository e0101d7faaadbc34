/**
 * A unified diff with old and new line numbers in front of each line, as plain text: one-shot
 * mode's approval prompt shows it (the full screen draws its own, styled, from the same diff).
 */

const HUNK = /^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@/;

/** "  3 3  context", "  4   -removed", "    4 +added"; headers, hunks and notes as they are. */
export function numberedDiffLines(diff: string): string[] {
  const lines = diff.replace(/\n$/, '').split('\n');
  let max = 0;
  {
    let oldNo = 0;
    let newNo = 0;
    for (const line of lines) {
      const h = HUNK.exec(line);
      if (h) {
        oldNo = Number(h[1]);
        newNo = Number(h[2]);
      } else if (line.startsWith('+') && !line.startsWith('+++')) max = Math.max(max, newNo++);
      else if (line.startsWith('-') && !line.startsWith('---')) max = Math.max(max, oldNo++);
      else if (line.startsWith(' ')) max = Math.max(max, oldNo++, newNo++);
    }
  }
  const digits = String(Math.max(1, max)).length;
  const col = (n: number | undefined): string => (n === undefined ? ' '.repeat(digits) : String(n).padStart(digits));
  const out: string[] = [];
  let oldNo = 0;
  let newNo = 0;
  let inHunk = false;
  for (const line of lines) {
    const h = HUNK.exec(line);
    if (h) {
      inHunk = true;
      oldNo = Number(h[1]);
      newNo = Number(h[2]);
      out.push(line);
    } else if (!inHunk || line.startsWith('\\')) {
      if (!line.startsWith('Index: ') && !/^={10,}$/.test(line)) out.push(line);
    } else if (line.startsWith('+')) {
      out.push(`${col(undefined)} ${col(newNo++)} ${line}`);
    } else if (line.startsWith('-')) {
      out.push(`${col(oldNo++)} ${col(undefined)} ${line}`);
    } else {
      out.push(`${col(oldNo++)} ${col(newNo++)} ${line}`);
    }
  }
  return out;
}
