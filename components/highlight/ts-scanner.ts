/**
 * TypeScript and JavaScript highlighting with a small scanner of its own: keywords, strings and
 * templates, numbers, comments, regular expressions, JSX tags, and names that are called or look
 * like types. A scanner, not a parser: right for everything but the rare case a parse would settle
 * (a name is a type only by its capital).
 *
 * Why not TypeScript's own scanner, which the code map ships: loading the compiler into the view
 * to colour a code block cost 76 MiB of memory and 0.7 s of CPU the first time an answer showed
 * TypeScript (the code map parses in worker threads, so the view's process had not loaded it).
 */
import type { SyntaxKind } from '../theme.js';
import type { Span } from './spans.js';

/** Reserved words and TypeScript's contextual keywords (what TypeScript's scanner calls keywords). */
const KEYWORDS = new Set(
  (
    'abstract accessor any as asserts assert async await bigint boolean break case catch class const constructor continue ' +
    'debugger declare default delete do else enum export extends finally for from function get global if implements import ' +
    'in infer instanceof interface intrinsic is keyof let module namespace never new number object of out override package ' +
    'private protected public readonly require return satisfies set static string super switch symbol this throw try type ' +
    'typeof unique unknown using var void while with yield'
  ).split(' '),
);
const CONSTANTS = new Set(['true', 'false', 'null', 'undefined']);
/** Tokens after which "/" divides and "<" compares; anywhere else they start a regex or a tag. */
const ENDS_EXPRESSION = new Set(['name', 'number', 'string', 'regexp', ')', ']', '}', 'this', 'super', 'true', 'false', 'null', 'undefined', '++', '--']);
const TYPE_INTRODUCERS = new Set(['class', 'interface', 'type', 'enum', ':', 'extends', 'implements', 'new']);
const NUMBER = /(?:0[xX][\da-fA-F_]+|0[oO][0-7_]+|0[bB][01_]+|(?:\d[\d_]*(?:\.[\d_]*)?|\.\d[\d_]*)(?:[eE][+-]?\d[\d_]*)?)n?/y;
const NAME_START = /[\p{ID_Start}$_]/u;
const NAME_PART = /[\p{ID_Continue}$\u200c\u200d]/u;

function isNameStart(c: number, ch: string): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 95 || c === 36 || (c > 127 && NAME_START.test(ch));
}

function isNamePart(c: number, ch: string): boolean {
  return isNameStart(c, ch) || (c >= 48 && c <= 57) || (c > 127 && NAME_PART.test(ch));
}

export function scanTypeScript(text: string, jsx = true): Span[] {
  const spans: Span[] = [];
  const push = (start: number, end: number, kind: SyntaxKind | undefined): void => {
    if (kind !== undefined && end > start) spans.push({ start, end, kind });
  };
  const n = text.length;
  // What the previous significant token was decides whether "/" starts a regex and "<" a tag.
  let prev = '';
  // Open template literals: a "}" at this brace depth closes a ${…} and continues the template.
  const templateDepth: number[] = [];
  let braceDepth = 0;
  /** Scans template text from `from` (just past "`" or "}"); returns where it stopped and how. */
  const templateRest = (from: number): { end: number; open: boolean } => {
    let i = from;
    while (i < n) {
      const ch = text[i];
      if (ch === '\\') i += 2;
      else if (ch === '`') return { end: i + 1, open: false };
      else if (ch === '$' && text[i + 1] === '{') return { end: i + 2, open: true };
      else i++;
    }
    return { end: n, open: false };
  };
  let i = 0;
  if (text.startsWith('#!')) i = Math.max(0, text.indexOf('\n')) || n;
  while (i < n) {
    const start = i;
    const ch = text[i]!;
    const c = ch.charCodeAt(0);
    if (ch === ' ' || ch === '\t' || ch === '\n' || ch === '\r' || c === 0xfeff || c === 0xa0) {
      i++;
      continue;
    }
    if (ch === '/' && text[i + 1] === '/') {
      const eol = text.indexOf('\n', i);
      i = eol < 0 ? n : eol;
      push(start, i, 'comment');
      continue;
    }
    if (ch === '/' && text[i + 1] === '*') {
      const close = text.indexOf('*/', i + 2);
      i = close < 0 ? n : close + 2;
      push(start, i, 'comment');
      continue;
    }
    if (ch === '"' || ch === "'") {
      i++;
      while (i < n && text[i] !== ch && text[i] !== '\n') i += text[i] === '\\' ? 2 : 1;
      if (i < n && text[i] === ch) i++;
      i = Math.min(i, n);
      push(start, i, 'string');
      prev = 'string';
      continue;
    }
    if (ch === '`' || (ch === '}' && templateDepth.at(-1) === braceDepth)) {
      if (ch === '}') templateDepth.pop();
      const rest = templateRest(i + 1);
      i = rest.end;
      push(start, i, 'string');
      if (rest.open) templateDepth.push(braceDepth);
      prev = rest.open ? 'template-head' : 'string';
      continue;
    }
    if ((c >= 48 && c <= 57) || (ch === '.' && /\d/.test(text[i + 1] ?? ''))) {
      NUMBER.lastIndex = i;
      const m = NUMBER.exec(text);
      i += m ? m[0].length : 1;
      push(start, i, 'number');
      prev = 'number';
      continue;
    }
    if (isNameStart(c, ch) || (ch === '#' && i + 1 < n && isNameStart(text.charCodeAt(i + 1), text[i + 1]!))) {
      i++;
      while (i < n && isNamePart(text.charCodeAt(i), text[i]!)) i++;
      const word = text.slice(start, i);
      if (ch === '#') {
        // A private name is neither coloured nor a value that ends an expression for "/".
        prev = '#name';
      } else if (CONSTANTS.has(word)) {
        push(start, i, 'constant');
        prev = word;
      } else if (KEYWORDS.has(word)) {
        // `obj.default`, `{ type: 1 }`: a keyword after a dot, or as a key, is a name.
        push(start, i, prev !== '.' && prev !== '?.' && !isKey(text, i) ? 'keyword' : identifierKind(text, start, i, prev));
        prev = word;
      } else {
        push(start, i, identifierKind(text, start, i, prev));
        prev = 'name';
      }
      continue;
    }
    if (ch === '/' && !ENDS_EXPRESSION.has(prev)) {
      const end = regexEnd(text, i);
      if (end > 0) {
        i = end;
        push(start, i, 'regexp');
        prev = 'regexp';
        continue;
      }
    }
    if (ch === '<' && jsx && text[i + 1] !== '<' && text[i + 1] !== '=' && !ENDS_EXPRESSION.has(prev)) {
      // <Tag or </Tag: colour the tag name.
      const m = /^<\/?\s*([A-Za-z][\w.-]*)/.exec(text.slice(start, start + 80));
      if (m) push(start + m[0].length - m[1]!.length, start + m[0].length, 'tag');
    }
    const two = text.slice(i, i + 2);
    if (two === '++' || two === '--' || (two === '?.' && !/\d/.test(text[i + 2] ?? ''))) {
      i += 2;
      prev = two;
      continue;
    }
    if (ch === '{') braceDepth++;
    else if (ch === '}') braceDepth = Math.max(0, braceDepth - 1);
    i++;
    prev = ch;
  }
  return spans;
}

/** Where a regular expression starting at `start` ("/") ends, flags included; 0 when it is not one (no closing "/" on the line). */
function regexEnd(text: string, start: number): number {
  let i = start + 1;
  let inClass = false;
  while (i < text.length) {
    const ch = text[i];
    if (ch === '\n' || ch === '\r') return 0;
    if (ch === '\\') i += 2;
    else {
      if (ch === '[') inClass = true;
      else if (ch === ']') inClass = false;
      else if (ch === '/' && !inClass) break;
      i++;
    }
  }
  if (i >= text.length) return 0;
  i++;
  while (i < text.length && /[a-z]/i.test(text[i]!)) i++;
  return i;
}

/** A name's kind by where it stands: called, declared as a type, CONSTANT-like; undefined for a plain name. */
function identifierKind(text: string, start: number, end: number, prev: string): SyntaxKind | undefined {
  const name = text.slice(start, end);
  let after = end;
  while (after < text.length && (text[after] === ' ' || text[after] === '\t')) after++;
  const next = text[after];
  if (prev === 'function' || next === '(' || (next === '<' && /^<[\w\s,.[\]]*>\s*\(/.test(text.slice(after, after + 80)))) return 'function';
  if (TYPE_INTRODUCERS.has(prev)) return /^[A-Z]/.test(name) || prev !== ':' ? 'type' : undefined;
  if (/^[A-Z][A-Z0-9_]+$/.test(name)) return 'constant';
  if (/^[A-Z]/.test(name)) return 'type';
  return undefined;
}

function isKey(text: string, end: number): boolean {
  let i = end;
  while (i < text.length && (text[i] === ' ' || text[i] === '\t')) i++;
  return text[i] === ':' && text[i + 1] !== ':';
}
