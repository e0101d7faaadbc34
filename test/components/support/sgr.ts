/** Reading a rendered frame's styles back: which SGR attributes are on at each character. */

export interface StyledChar {
  readonly ch: string;
  /** Foreground colour code (30-37, 90-97) or undefined. */
  readonly fg?: number;
  readonly bold: boolean;
  readonly dim: boolean;
  readonly italic: boolean;
}

/** Each visible character of a frame row with the attributes in force for it. */
export function styledChars(row: string): StyledChar[] {
  const out: StyledChar[] = [];
  let fg: number | undefined;
  let bold = false;
  let dim = false;
  let italic = false;
  // eslint-disable-next-line no-control-regex -- SGR sequences are what is being read
  const re = /\x1b\[([0-9;]*)m|\x1b\[[0-9;?]*[A-Za-z]|([\s\S])/gu;
  for (const m of row.matchAll(re)) {
    if (m[2] !== undefined) {
      out.push({ ch: m[2], ...(fg !== undefined ? { fg } : {}), bold, dim, italic });
      continue;
    }
    if (m[1] === undefined) continue;
    const codes = m[1] === '' ? [0] : m[1].split(';').map(Number);
    for (let i = 0; i < codes.length; i++) {
      const c = codes[i]!;
      if (c === 0) {
        fg = undefined;
        bold = dim = italic = false;
      } else if (c === 1) bold = true;
      else if (c === 2) dim = true;
      else if (c === 3) italic = true;
      else if (c === 22) bold = dim = false;
      else if (c === 23) italic = false;
      else if (c === 39) fg = undefined;
      else if ((c >= 30 && c <= 37) || (c >= 90 && c <= 97)) fg = c;
      else if (c === 38) {
        // 38;5;n or 38;2;r;g;b: a colour all the same.
        fg = 38;
        i += codes[i + 1] === 5 ? 2 : 4;
      }
    }
  }
  return out;
}

/** The attributes of the first character of `word` in the first row of `frame` that contains it. */
export function styleOf(frame: string, word: string): StyledChar | undefined {
  for (const row of frame.split('\n')) {
    const chars = styledChars(row);
    const text = chars.map((c) => c.ch).join('');
    const at = text.indexOf(word);
    if (at >= 0) return chars[at];
  }
  return undefined;
}

/** Whether any character of the frame has a colour. */
export function hasColour(frame: string): boolean {
  return frame.split('\n').some((row) => styledChars(row).some((c) => c.fg !== undefined));
}
