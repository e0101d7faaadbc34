/**
 * Makes text safe to put on a terminal: anything that could move the cursor, reorder text or hide
 * characters becomes a visible escape, so a file name, a command or a diff cannot repaint itself
 * into something harmless-looking. Newlines and tabs stay as they are.
 */

/** True for code points that must never reach the terminal raw. */
export function isUnsafeCodePoint(cp: number): boolean {
  if (cp < 0x20) return cp !== 0x0a && cp !== 0x09; // C0 controls, CR and ESC included
  if (cp >= 0x7f && cp <= 0x9f) return true; // DEL and C1 controls (CSI 0x9b, NEL 0x85 …)
  if (cp === 0xad) return true; // soft hyphen: invisible in most terminals
  if (cp === 0x034f) return true; // combining grapheme joiner
  if (cp === 0x061c) return true; // Arabic letter mark (bidi)
  if (cp === 0x115f || cp === 0x1160 || cp === 0x3164 || cp === 0xffa0) return true; // Hangul fillers
  if (cp >= 0x180b && cp <= 0x180f) return true; // Mongolian selectors and vowel separator
  if (cp >= 0x200b && cp <= 0x200f) return true; // zero-width space/joiners, LRM, RLM
  if (cp >= 0x2028 && cp <= 0x202e) return true; // line/paragraph separators, bidi embeddings/overrides
  if (cp >= 0x2060 && cp <= 0x2069) return true; // word joiner, invisible operators, bidi isolates
  if (cp >= 0x206a && cp <= 0x206f) return true; // deprecated format characters
  if (cp === 0xfeff) return true; // zero-width no-break space / BOM
  if (cp >= 0xfff9 && cp <= 0xfffb) return true; // interlinear annotation controls
  if (cp >= 0xd800 && cp <= 0xdfff) return true; // lone surrogates
  if (cp >= 0xe0000 && cp <= 0xe007f) return true; // Unicode tag characters (hidden ASCII)
  // Supplementary variation selectors can smuggle bytes invisibly; the emoji selectors FE0E/FE0F
  // are left alone because they are common and render nothing surprising.
  if (cp >= 0xe0100 && cp <= 0xe01ef) return true;
  // Every other invisible format character (Arabic number signs, musical and shorthand format
  // controls, and whatever Unicode adds next) is caught by its category.
  return FORMAT.test(String.fromCodePoint(cp));
}

const FORMAT = /^\p{Cf}$/u;

function escapeCodePoint(cp: number): string {
  if (cp === 0x0d) return '\\r';
  if (cp < 0x100) return `\\x${cp.toString(16).padStart(2, '0')}`;
  if (cp < 0x10000) return `\\u${cp.toString(16).padStart(4, '0')}`;
  return `\\u{${cp.toString(16)}}`;
}

// Fast path: most text has none of these, and the scan below is per code point.
const UNSAFE_PROBE =
  // eslint-disable-next-line no-control-regex, no-misleading-character-class -- a list of exactly these characters
  /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u00ad\u034f\u061c\u115f\u1160\u180b-\u180f\u200b-\u200f\u2028-\u202e\u2060-\u206f\u3164\ufeff\ufff9-\ufffb\uffa0\ud800-\udfff\p{Cf}]/u;
const LONE_SURROGATE = /[\ud800-\udfff]/;

export function escapeForDisplay(text: string): string {
  // Astral tag/selector characters are surrogate pairs, so check for any surrogate as well.
  if (!UNSAFE_PROBE.test(text) && !LONE_SURROGATE.test(text)) return text;
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const cp = text.codePointAt(i) ?? 0;
    const width = cp > 0xffff ? 2 : 1;
    // codePointAt returns the unit itself for a lone surrogate, which isUnsafeCodePoint catches.
    if (isUnsafeCodePoint(cp)) out += escapeCodePoint(cp);
    else out += text.slice(i, i + width);
    i += width - 1;
  }
  return out;
}

/**
 * A file name as a tool result shows it: like escapeForDisplay, and a newline or tab in the name
 * becomes `\n` / `\t` too, since one name per line is how results are read. unescapeFileName
 * turns it back, so a path copied from a result still reaches the file.
 */
export function escapeFileName(name: string): string {
  const shown = escapeForDisplay(name);
  return /[\n\t]/.test(shown) ? shown.replace(/\n/g, '\\n').replace(/\t/g, '\\t') : shown;
}

const NAME_ESCAPE = /\\(?:x([0-9a-f]{2})|u\{([0-9a-f]{1,6})\}|u([0-9a-f]{4})|([nrt]))/g;

/** The name escapeFileName was given, for text that contains its escapes; other text unchanged. */
export function unescapeFileName(text: string): string {
  return text.replace(NAME_ESCAPE, (whole, x?: string, braced?: string, u?: string, letter?: string) => {
    if (letter !== undefined) return letter === 'n' ? '\n' : letter === 'r' ? '\r' : '\t';
    const cp = parseInt((x ?? braced ?? u) as string, 16);
    return cp <= 0x10ffff ? String.fromCodePoint(cp) : whole;
  });
}
