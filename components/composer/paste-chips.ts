/**
 * A large paste stands in the input as one character, shown as a chip ("[pasted 500 lines]"): the
 * input stays light to lay out and edit however big the paste, Backspace removes the paste whole,
 * and the text is put back in full when the prompt is sent (or the chip is expanded). The chip
 * characters come from Supplementary Private Use Area B, which no keyboard or font icon types.
 */

export type Chips = ReadonlyMap<string, string>;

export const NO_CHIPS: Chips = new Map();

const CHIP_BASE = 0x100000;

/** More lines than this (or this many characters on fewer lines) and a paste becomes a chip. */
export const CHIP_MIN_LINES = 4;
export const CHIP_MIN_CHARS = 2000;

export function wantsChip(text: string): boolean {
  if (text.length >= CHIP_MIN_CHARS) return true;
  let lines = 1;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) if (++lines >= CHIP_MIN_LINES) return true;
  return false;
}

function lineCount(text: string): number {
  let n = 1;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) n++;
  return text.endsWith('\n') ? n - 1 : n;
}

export function chipLabel(text: string): string {
  const lines = lineCount(text);
  return lines > 1 ? `[pasted ${lines.toLocaleString('en-US')} lines]` : `[pasted ${text.length.toLocaleString('en-US')} chars]`;
}

/** A new chip for `text`: its character and the chips with it. */
export function addChip(chips: Chips, text: string): { char: string; chips: Chips } {
  let code = CHIP_BASE;
  while (chips.has(String.fromCodePoint(code))) code++;
  const char = String.fromCodePoint(code);
  const next = new Map(chips);
  next.set(char, text);
  return { char, chips: next };
}

/** The text with every chip replaced by what was pasted. */
export function expandChips(text: string, chips: Chips): string {
  if (chips.size === 0) return text;
  let out = text;
  for (const [char, pasted] of chips) if (out.includes(char)) out = out.split(char).join(pasted);
  return out;
}

/** The chips still in `text` (the others were deleted with the text around them). */
export function keepChips(text: string, chips: Chips): Chips {
  if (chips.size === 0) return chips;
  let dropped = false;
  for (const char of chips.keys()) if (!text.includes(char)) dropped = true;
  if (!dropped) return chips;
  return new Map([...chips].filter(([char]) => text.includes(char)));
}

/** The chip just before `cursor` (or under it), if there is one: its position and character. */
export function chipAt(text: string, cursor: number, chips: Chips): { at: number; char: string } | undefined {
  for (const at of [cursor - 2, cursor]) {
    if (at < 0 || at + 2 > text.length) continue;
    const char = text.slice(at, at + 2);
    if (chips.has(char)) return { at, char };
  }
  return undefined;
}
