/**
 * Hidden text in instruction files: characters a reader of the file never sees but a model reads.
 * Unicode tag characters (U+E0000–E007F) spell ASCII invisibly — the "ASCII smuggling" of prompt
 * injections — and are stripped before the text reaches the model; zero-width, bidi and other
 * invisible characters are kept (they can be legitimate) but named in a startup warning.
 */
import { isUnsafeCodePoint } from '../policy/escape.js';

export interface HiddenTextReport {
  /** The text with tag characters removed. */
  readonly text: string;
  /** What was found, in words ('12 Unicode tag characters (hidden text "…"), 2 zero-width characters'); '' none. */
  readonly found: string;
}

const MAX_SHOWN = 80;

function kindOf(cp: number): 'tag' | 'zero-width' | 'bidi' | 'invisible' | undefined {
  if (cp >= 0xe0000 && cp <= 0xe007f) return 'tag';
  if (cp === 0x09 || cp === 0x0a || cp === 0x0d) return undefined;
  if ((cp >= 0x200b && cp <= 0x200d) || cp === 0x2060 || cp === 0xfeff || cp === 0x180e || cp === 0x034f) return 'zero-width';
  if ((cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069) || cp === 0x200e || cp === 0x200f || cp === 0x061c) return 'bidi';
  return isUnsafeCodePoint(cp) ? 'invisible' : undefined;
}

const NOUNS = {
  tag: 'Unicode tag character',
  'zero-width': 'zero-width character',
  bidi: 'bidi control',
  invisible: 'other invisible or control character',
} as const;

export function scanHiddenText(input: string): HiddenTextReport {
  // A byte-order mark at the very start is how some editors save UTF-8, not hidden text.
  const text = input.startsWith('\uFEFF') ? input.slice(1) : input;
  const counts = { tag: 0, 'zero-width': 0, bidi: 0, invisible: 0 };
  let hidden = '';
  let out = '';
  let last = 0;
  for (let i = 0; i < text.length; i++) {
    const cp = text.codePointAt(i) ?? 0;
    const width = cp > 0xffff ? 2 : 1;
    const kind = kindOf(cp);
    if (kind !== undefined) {
      counts[kind]++;
      if (kind === 'tag') {
        out += text.slice(last, i);
        last = i + width;
        const ascii = cp - 0xe0000;
        if (ascii >= 0x20 && ascii < 0x7f) hidden += String.fromCharCode(ascii);
      }
    }
    i += width - 1;
  }
  if (counts.tag === 0 && counts['zero-width'] === 0 && counts.bidi === 0 && counts.invisible === 0) return { text, found: '' };
  out += text.slice(last);
  const parts: string[] = [];
  for (const kind of ['tag', 'zero-width', 'bidi', 'invisible'] as const) {
    const n = counts[kind];
    if (n === 0) continue;
    let phrase = `${n} ${NOUNS[kind]}${n === 1 ? '' : 's'}`;
    if (kind === 'tag') {
      const shown = hidden.length > MAX_SHOWN ? `${hidden.slice(0, MAX_SHOWN)}…` : hidden;
      phrase += `${hidden.trim() !== '' ? ` spelling hidden text "${shown}"` : ''}, removed before the model reads the file`;
    }
    parts.push(phrase);
  }
  return { text: counts.tag > 0 ? out : text, found: parts.join(', ') };
}
