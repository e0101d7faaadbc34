/**
 * A unified diff read into lines with their old and new line numbers — the one reading of a diff
 * for showing it: the full screen's approval modal and edits (which get it parsed, through the
 * engine's state), one-shot's approval prompt, and /export. Pure.
 */

export interface DiffLine {
  readonly kind: 'add' | 'del' | 'context' | 'hunk' | 'header' | 'note';
  /** The line's text without its +/-/space marker (the whole line for headers, hunks and notes). */
  readonly text: string;
  readonly oldNo?: number;
  readonly newNo?: number;
  /**
   * The old and new line-number columns ("  4   ", "    4 ", "  3 3"), each as wide as the diff's
   * widest number so the gutter does not shift; '' for hunks, headers and notes.
   */
  readonly gutter: string;
  /** '+', '-' or ' '; '' for hunks, headers and notes. */
  readonly sign: string;
}

export interface ParsedDiff {
  /** The file named by the +++ (or ---) header, when there is one. */
  readonly path?: string;
  readonly lines: readonly DiffLine[];
}

const HUNK = /^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@/;
const SIGN: Readonly<Record<DiffLine['kind'], string>> = { add: '+', del: '-', context: ' ', hunk: '', header: '', note: '' };

type Numbered = Omit<DiffLine, 'gutter' | 'sign'>;

export function parseUnifiedDiff(diff: string): ParsedDiff {
  const lines: Numbered[] = [];
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
  const digits = String(Math.max(1, maxLineNo)).length;
  const col = (n: number | undefined): string => (n === undefined ? ' '.repeat(digits) : String(n).padStart(digits));
  const numbered = (l: Numbered): boolean => l.kind === 'add' || l.kind === 'del' || l.kind === 'context';
  return {
    ...(path !== undefined ? { path } : {}),
    lines: lines.map((l) => ({ ...l, gutter: numbered(l) ? `${col(l.oldNo)} ${col(l.newNo)}` : '', sign: SIGN[l.kind] })),
  };
}

/**
 * The diff as plain text for /export, marker first so a ```diff fence still colours it:
 * "+    2 │ text", "-  2   │ text", "   1 1 │ text".
 */
export function numberedDiffText(diff: ParsedDiff): string {
  return diff.lines.map((l) => (l.gutter === '' ? l.text : `${l.sign}${l.gutter} │ ${l.text}`)).join('\n');
}

/** The diff as a terminal shows it, numbers first as in the full screen's modal: "  4   -removed", "    4 +added". */
export function numberedDiffLines(diff: ParsedDiff): string[] {
  return diff.lines.map((l) => (l.gutter === '' ? l.text : `${l.gutter} ${l.sign}${l.text}`));
}
