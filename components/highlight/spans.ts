/** Highlighted ranges of a text, and cutting them into per-line pieces. Pure. */
import type { SyntaxKind } from '../theme.js';

/** [start, end) in UTF-16 code units of the whole text. */
export interface Span {
  readonly start: number;
  readonly end: number;
  readonly kind: SyntaxKind;
}

/** [start, end) within one line. */
export interface LineSpan {
  readonly start: number;
  readonly end: number;
  readonly kind: SyntaxKind;
}

/**
 * Per line of `text`, the spans on it (cut at line ends), in order and without overlaps. Later
 * spans paint over earlier ones: callers list outer ranges before inner ones.
 */
export function spansByLine(text: string, spans: readonly Span[]): LineSpan[][] {
  const starts = [0];
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  const out: LineSpan[][] = starts.map(() => []);
  // Paint into a per-character kind array: simple, and code blocks are small.
  const kinds = new Array<SyntaxKind | undefined>(text.length);
  for (const s of spans) for (let i = Math.max(0, s.start); i < Math.min(text.length, s.end); i++) kinds[i] = s.kind;
  for (let line = 0; line < starts.length; line++) {
    const from = starts[line]!;
    const to = line + 1 < starts.length ? starts[line + 1]! - 1 : text.length;
    let i = from;
    while (i < to) {
      const kind = kinds[i];
      let j = i + 1;
      while (j < to && kinds[j] === kind) j++;
      if (kind !== undefined) out[line]!.push({ start: i - from, end: j - from, kind });
      i = j;
    }
  }
  return out;
}
