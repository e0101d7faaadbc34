/**
 * Text from the model or a tool must never reach the terminal as control sequences: an escape
 * in a reply could move the cursor, recolour the screen or retitle the window. Controls become
 * visible escapes (\x1b → "␛[31m"-style text), tabs become spaces; newlines are kept.
 */

const TAB = '    ';

// C0 (minus \n and \t), DEL, C1, bidi overrides and isolates.
// eslint-disable-next-line no-control-regex
const UNSAFE = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/g;

function visible(ch: string): string {
  const cp = ch.codePointAt(0)!;
  if (cp === 0x1b) return '␛';
  if (cp === 0x0d) return '';
  if (cp < 0x20) return `^${String.fromCharCode(cp + 0x40)}`;
  return `\\u{${cp.toString(16)}}`;
}

export function sanitizeForTerminal(text: string): string {
  let out = text.includes('\t') ? text.replaceAll('\t', TAB) : text;
  if (out.includes('\r\n')) out = out.replaceAll('\r\n', '\n');
  UNSAFE.lastIndex = 0;
  return UNSAFE.test(out) ? out.replace(UNSAFE, visible) : out;
}

/** For a field shown on one row (a tool's title, an approval's summary): newlines become spaces. */
export function oneLine(text: string): string {
  return sanitizeForTerminal(text).replace(/ *\n+ */g, ' ');
}
