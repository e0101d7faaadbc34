/** Signatures: a declaration's text with its body removed, and the first line of its JSDoc. */
import type * as TS from 'typescript';

type Ts = typeof TS;

const SHORT_DECLARATION_LINES = 8;
const MAX_INITIALIZER_CHARS = 80;

/** What `\s` matches (ECMAScript WhiteSpace and LineTerminator), by char code. */
function isSpace(c: number): boolean {
  return c === 32 || (c >= 9 && c <= 13) || c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a)
    || c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff;
}

/**
 * The source between `start` and `end` without trailing spaces, `{` and `=`. A loop from the end,
 * not `/[\s{=]+$/`: that pattern is tried at every space of the text, per declaration, per file.
 */
function text(sf: TS.SourceFile, start: number, end: number): string {
  const src = sf.text;
  let last = Math.min(end, src.length);
  while (last > start) {
    const c = src.charCodeAt(last - 1);
    if (c === 123 || c === 61 || isSpace(c)) last--;
    else break;
  }
  return src.slice(start, Math.max(start, last));
}

/** The declaration's text from its first token up to `pos` (where its body starts). */
export function headerUntil(sf: TS.SourceFile, node: TS.Node, pos: number, _opener: string): string {
  const start = node.getStart(sf);
  const end = sf.text.lastIndexOf('{', pos) >= start ? sf.text.lastIndexOf('{', pos) : pos;
  return text(sf, start, end);
}

function firstLineClipped(value: string): string {
  const line = value.split('\n')[0] ?? '';
  const clipped = line.length > MAX_INITIALIZER_CHARS ? `${line.slice(0, MAX_INITIALIZER_CHARS)}…` : line;
  return clipped === value ? clipped : clipped.endsWith('…') ? clipped : `${clipped} …`;
}

function functionHeader(ts: Ts, sf: TS.SourceFile, node: TS.Node, body: TS.Node | undefined): string {
  if (!body) return sf.text.slice(node.getStart(sf), node.getEnd()).replace(/;\s*$/, '');
  // An arrow with an expression body keeps its `=>`, so the reader still sees it is a function.
  const arrow = ts.isArrowFunction(node) ? ' =>' : '';
  return text(sf, node.getStart(sf), body.getStart(sf)).replace(/=>$/, '').trimEnd() + arrow;
}

export function declarationSignature(ts: Ts, sf: TS.SourceFile, node: TS.Node): string {
  const start = node.getStart(sf);
  if (ts.isFunctionDeclaration(node) || ts.isMethodDeclaration(node) || ts.isConstructorDeclaration(node)
    || ts.isGetAccessor(node) || ts.isSetAccessor(node)) {
    return functionHeader(ts, sf, node, node.body);
  }
  if (ts.isVariableDeclaration(node) || ts.isPropertyDeclaration(node)) {
    const init = node.initializer;
    if (init && (ts.isArrowFunction(init) || ts.isFunctionExpression(init))) {
      const head = text(sf, start, init.getStart(sf));
      const fn = ts.isArrowFunction(init)
        ? `${text(sf, init.getStart(sf), init.equalsGreaterThanToken.getStart(sf))} =>`
        : functionHeader(ts, sf, init, init.body);
      return `${head} = ${fn}`;
    }
    if (node.type || !init) return text(sf, start, init ? init.getStart(sf) : node.getEnd()).replace(/;$/, '');
    return `${text(sf, start, init.getStart(sf))} = ${firstLineClipped(sf.text.slice(init.getStart(sf), init.getEnd()))}`;
  }
  const full = sf.text.slice(start, node.getEnd()).replace(/;\s*$/, '');
  if (full.split('\n').length <= SHORT_DECLARATION_LINES) return full;
  if (ts.isInterfaceDeclaration(node) || ts.isEnumDeclaration(node)) return `${headerUntil(sf, node, node.members.pos, '{')} { … }`;
  return firstLineClipped(full);
}

/** The first non-empty line of the nearest JSDoc block before the node, if any. */
export function docFirstLine(ts: Ts, sf: TS.SourceFile, node: TS.Node): string | undefined {
  const ranges = ts.getLeadingCommentRanges(sf.text, node.pos);
  const last = ranges?.[ranges.length - 1];
  if (!last) return undefined;
  const comment = sf.text.slice(last.pos, last.end);
  if (!comment.startsWith('/**')) return undefined;
  // A blank line between comment and declaration: a file header, not this symbol's doc.
  if (/\n[ \t]*\r?\n/.test(sf.text.slice(last.end, node.getStart(sf)))) return undefined;
  for (const raw of comment.slice(3, -2).split('\n')) {
    const line = raw.replace(/^\s*\*?\s?/, '').trim();
    if (line && !line.startsWith('@')) return line.length > 160 ? `${line.slice(0, 160)}…` : line;
  }
  return undefined;
}
