/**
 * A diff as styled terminal rows: old and new line numbers in a gutter, the +/- marker in the
 * diff colours, the code itself highlighted for the file's language (each hunk's old and new side
 * highlighted as code, so a string or comment spanning lines stays one). The diff comes read
 * into numbered lines by the engine (src/tools/numbered-diff.ts, through the state). Pure given the
 * loaded highlighters.
 */
import { codeSegments } from '../highlight/code-segments.js';
import { languageOfPath } from '../highlight/languages.js';
import { sanitizeForTerminal } from '../text/sanitize.js';
import type { Segment, StyledLine, TextStyle } from '../text/styled-line.js';
import { wrapSegments } from '../text/wrap.js';
import { theme } from '../theme.js';
import type { DiffLine, ParsedDiff } from '../../src/tools/numbered-diff.js';

const SIGN_STYLE: Readonly<Record<DiffLine['kind'], TextStyle>> = {
  add: theme.diffAdd,
  del: theme.diffDel,
  context: theme.dim,
  hunk: theme.diffHunk,
  header: theme.diffHeader,
  note: theme.dim,
};

/** Code segments for every add/del/context line, by index: each hunk's two sides highlighted as code. */
function highlighted(lines: readonly DiffLine[], path: string | undefined): Map<number, Segment[]> {
  const lang = path === undefined ? undefined : languageOfPath(path);
  const out = new Map<number, Segment[]>();
  let start = 0;
  const flushHunk = (end: number): void => {
    for (const side of ['old', 'new'] as const) {
      const idx: number[] = [];
      for (let i = start; i < end; i++) {
        const k = lines[i]!.kind;
        if (k === 'context' || (side === 'old' ? k === 'del' : k === 'add')) idx.push(i);
      }
      // Sanitized line by line: the lines hold the file's own text, control characters and all.
      const segs = codeSegments(idx.map((i) => sanitizeForTerminal(lines[i]!.text)), lang);
      // Context lines come out of both sides; the new side's colouring wins.
      idx.forEach((i, n) => out.set(i, segs[n]!));
    }
  };
  lines.forEach((line, i) => {
    if (line.kind === 'hunk') {
      flushHunk(i);
      start = i + 1;
    }
  });
  flushHunk(lines.length);
  return out;
}

/** `path` names the file when the diff's own header does not (its language picks the highlighter). */
export function diffRows(parsed: ParsedDiff, width: number, path?: string): StyledLine[] {
  const code = highlighted(parsed.lines, path ?? parsed.path);
  const rows: StyledLine[] = [];
  parsed.lines.forEach((line, i) => {
    const style = SIGN_STYLE[line.kind];
    if (line.gutter === '') {
      rows.push(...wrapSegments(line.text === '' ? [] : [{ text: sanitizeForTerminal(line.text), style }], width));
      return;
    }
    const prefix: Segment[] = [{ text: `${line.gutter} `, style: line.kind === 'context' ? theme.lineNumber : style }, { text: line.sign, style }];
    rows.push(...wrapSegments(code.get(i) ?? [], width, { firstPrefix: prefix, restPrefix: [{ text: ' '.repeat(line.gutter.length + 2) }] }));
  });
  return rows;
}
