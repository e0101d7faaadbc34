/**
 * A unified diff read into lines with their old and new line numbers, for showing it: in the
 * approval modal, in the transcript under an edit, and in /export. Pure.
 */

export interface DiffLine {
  readonly kind: 'add' | 'del' | 'context' | 'hunk' | 'header' | 'note';
  /** The line's text without its +/-/space marker (the whole line for headers, hunks and notes). */
  readonly text: string;
  readonly oldNo?: number;
  readonly newNo?: number;
}

export interface ParsedDiff {
  /** The file named by the +++ (or ---) header, when there is one. */
  readonly path?: string;
  readonly lines: readonly DiffLine[];
  /** Widest line number, for a gutter that does not shift. */
  readonly maxLineNo: number;
}

const HUNK = /^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@/;

export function parseUnifiedDiff(diff: string): ParsedDiff {
  const lines: DiffLine[] = [];
  let path: string | undefined;
  let oldNo = 0;
  let newNo = 0;
  let inHunk = false;
  let maxLineNo = 0;
  for (const line of diff.replace(/\n$/, '').split('\n')) {
    const hunk = HUNK.exec(line);
    if (hunk) {
      inHunk = true;
      oldNo = Number(hunk[1]);
      newNo = Number(hunk[2]);
      lines.push({ kind: 'hunk', text: line });
      continue;
    }
    if (!inHunk) {
      // createPatch's "Index:" and "====" lines repeat the path the ---/+++ headers give.
      if (line.startsWith('+++ ') || line.startsWith('--- ')) {
        const named = line.slice(4).split('\t', 1)[0]!.trim();
        if (named !== '' && named !== '/dev/null' && (line.startsWith('+++') || path === undefined)) path = named.replace(/^[ab]\//, '');
        lines.push({ kind: 'header', text: line });
      } else if (!line.startsWith('Index: ') && !/^={10,}$/.test(line) && line !== '') {
        lines.push({ kind: 'note', text: line });
      }
      continue;
    }
    const mark = line[0];
    if (mark === '+') {
      lines.push({ kind: 'add', text: line.slice(1), newNo });
      maxLineNo = Math.max(maxLineNo, newNo++);
    } else if (mark === '-') {
      lines.push({ kind: 'del', text: line.slice(1), oldNo });
      maxLineNo = Math.max(maxLineNo, oldNo++);
    } else if (mark === '\\') {
      lines.push({ kind: 'note', text: line });
    } else {
      lines.push({ kind: 'context', text: line.slice(1), oldNo, newNo });
      maxLineNo = Math.max(maxLineNo, oldNo++, newNo++);
    }
  }
  return { ...(path !== undefined ? { path } : {}), lines, maxLineNo };
}

/** The old and new line-number columns of a line, each `digits` wide. */
export function gutter(line: DiffLine, digits: number): string {
  const col = (n: number | undefined): string => (n === undefined ? ' '.repeat(digits) : String(n).padStart(digits));
  return `${col(line.oldNo)} ${col(line.newNo)}`;
}

const SIGN: Readonly<Record<DiffLine['kind'], string>> = { add: '+', del: '-', context: ' ', hunk: '', header: '', note: '' };

/**
 * The diff as plain text with line numbers, marker first so a ```diff fence still colours it:
 * "+    2 │ text", "-  2   │ text", "   1 1 │ text".
 */
export function numberedDiffText(diff: string): string {
  const parsed = parseUnifiedDiff(diff);
  const digits = String(Math.max(1, parsed.maxLineNo)).length;
  return parsed.lines
    .map((l) => (l.kind === 'hunk' || l.kind === 'header' || l.kind === 'note' ? l.text : `${SIGN[l.kind]}${gutter(l, digits)} │ ${l.text}`))
    .join('\n');
}

export function diffSign(kind: DiffLine['kind']): string {
  return SIGN[kind];
}
