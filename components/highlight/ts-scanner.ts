/**
 * TypeScript and JavaScript highlighting with TypeScript's own scanner (the compiler the code map
 * already ships): keywords, strings and templates, numbers, comments, regular expressions, JSX
 * tags, and names that are called or look like types. A scanner, not a parser: fast, and right for
 * everything but the rare case a parse would settle (a name is a type only by its capital).
 */
import type * as TS from 'typescript';
import type { SyntaxKind } from '../theme.js';
import type { Span } from './spans.js';

export function scanTypeScript(ts: typeof TS, text: string, jsx = true): Span[] {
  const K = ts.SyntaxKind;
  const scanner = ts.createScanner(ts.ScriptTarget.Latest, false, jsx ? ts.LanguageVariant.JSX : ts.LanguageVariant.Standard, text);
  const spans: Span[] = [];
  const push = (start: number, end: number, kind: SyntaxKind | undefined): void => {
    if (kind !== undefined && end > start) spans.push({ start, end, kind });
  };
  // What the previous significant token was decides whether "/" starts a regex and "<" a tag.
  let prev: TS.SyntaxKind = K.Unknown;
  // Open template literals: a "}" closes a ${…} and continues the template.
  let templateDepth: number[] = [];
  let braceDepth = 0;
  let guard = 0;
  for (let token = scanner.scan(); token !== K.EndOfFileToken && guard < text.length + 10; token = scanner.scan(), guard++) {
    let start = scanner.getTokenStart();
    if (token === K.SlashToken || token === K.SlashEqualsToken) {
      if (!endsExpression(ts, prev)) token = scanner.reScanSlashToken();
    }
    if (token === K.CloseBraceToken && templateDepth.at(-1) === braceDepth) {
      templateDepth = templateDepth.slice(0, -1);
      token = scanner.reScanTemplateToken(false);
    }
    start = scanner.getTokenStart();
    const end = scanner.getTokenEnd();
    switch (token) {
      case K.SingleLineCommentTrivia:
      case K.MultiLineCommentTrivia:
        push(start, end, 'comment');
        continue;
      case K.WhitespaceTrivia:
      case K.NewLineTrivia:
      case K.ShebangTrivia:
      case K.ConflictMarkerTrivia:
        continue;
      case K.StringLiteral:
      case K.NoSubstitutionTemplateLiteral:
      case K.TemplateTail:
        push(start, end, 'string');
        break;
      case K.TemplateHead:
      case K.TemplateMiddle:
        push(start, end, 'string');
        templateDepth = [...templateDepth, braceDepth];
        break;
      case K.NumericLiteral:
      case K.BigIntLiteral:
        push(start, end, 'number');
        break;
      case K.RegularExpressionLiteral:
        push(start, end, 'regexp');
        break;
      case K.OpenBraceToken:
        braceDepth++;
        break;
      case K.CloseBraceToken:
        braceDepth = Math.max(0, braceDepth - 1);
        break;
      case K.TrueKeyword:
      case K.FalseKeyword:
      case K.NullKeyword:
      case K.UndefinedKeyword:
        push(start, end, 'constant');
        break;
      case K.Identifier:
        push(start, end, identifierKind(text, start, end, prev, K));
        break;
      default:
        if (token >= K.FirstKeyword && token <= K.LastKeyword) {
          // `obj.default`, `{ type: 1 }`: a keyword after a dot, or as a key, is a name.
          if (prev !== K.DotToken && prev !== K.QuestionDotToken && !isKey(text, end)) push(start, end, 'keyword');
          else push(start, end, identifierKind(text, start, end, prev, K));
        } else if (jsx && token === K.LessThanToken && !endsExpression(ts, prev)) {
          // <Tag or </Tag: colour the tag name.
          const m = /^<\/?\s*([A-Za-z][\w.-]*)/.exec(text.slice(start, start + 80));
          if (m) push(start + m[0].length - m[1]!.length, start + m[0].length, 'tag');
        }
    }
    prev = token;
  }
  return spans;
}

/** A name's kind by where it stands: called, declared as a type, CONSTANT-like; undefined for a plain name. */
function identifierKind(text: string, start: number, end: number, prev: TS.SyntaxKind, K: typeof TS.SyntaxKind): SyntaxKind | undefined {
  const name = text.slice(start, end);
  let after = end;
  while (after < text.length && (text[after] === ' ' || text[after] === '\t')) after++;
  const next = text[after];
  if (prev === K.FunctionKeyword || next === '(' || (next === '<' && /^<[\w\s,.[\]]*>\s*\(/.test(text.slice(after, after + 80)))) return 'function';
  if (prev === K.ClassKeyword || prev === K.InterfaceKeyword || prev === K.TypeKeyword || prev === K.EnumKeyword || prev === K.ColonToken || prev === K.ExtendsKeyword || prev === K.ImplementsKeyword || prev === K.NewKeyword) {
    return /^[A-Z]/.test(name) || prev !== K.ColonToken ? 'type' : undefined;
  }
  if (/^[A-Z][A-Z0-9_]+$/.test(name)) return 'constant';
  if (/^[A-Z]/.test(name)) return 'type';
  return undefined;
}

function isKey(text: string, end: number): boolean {
  let i = end;
  while (i < text.length && (text[i] === ' ' || text[i] === '\t')) i++;
  return text[i] === ':' && text[i + 1] !== ':';
}

/** After these a "/" divides and a "<" compares; anywhere else they start a regex or a tag. */
function endsExpression(ts: typeof TS, kind: TS.SyntaxKind): boolean {
  const K = ts.SyntaxKind;
  switch (kind) {
    case K.Identifier:
    case K.NumericLiteral:
    case K.BigIntLiteral:
    case K.StringLiteral:
    case K.NoSubstitutionTemplateLiteral:
    case K.TemplateTail:
    case K.RegularExpressionLiteral:
    case K.CloseParenToken:
    case K.CloseBracketToken:
    case K.CloseBraceToken:
    case K.ThisKeyword:
    case K.SuperKeyword:
    case K.TrueKeyword:
    case K.FalseKeyword:
    case K.NullKeyword:
    case K.UndefinedKeyword:
    case K.PlusPlusToken:
    case K.MinusMinusToken:
      return true;
    default:
      return false;
  }
}
