/** Styled lines: the unit the transcript, modal and panels lay out and window. Plain data. */

export interface TextStyle {
  readonly color?: string;
  readonly backgroundColor?: string;
  readonly bold?: boolean;
  readonly dim?: boolean;
  readonly italic?: boolean;
  readonly underline?: boolean;
  readonly inverse?: boolean;
}

export interface Segment {
  readonly text: string;
  readonly style?: TextStyle;
}

/** One terminal row: its segments never exceed the width they were wrapped to. */
export type StyledLine = readonly Segment[];

export const EMPTY_LINE: StyledLine = [];

export function plainLine(text: string, style?: TextStyle): StyledLine {
  return style === undefined ? [{ text }] : [{ text, style }];
}

export function lineText(line: StyledLine): string {
  let out = '';
  for (const seg of line) out += seg.text;
  return out;
}
