/** Lines of code as styled segments: the highlighter's spans in the syntax theme. Pure given the loaded languages. */
import type { Segment, TextStyle } from '../text/styled-line.js';
import { syntaxTheme } from '../theme.js';
import { highlightCode } from './highlighter.js';
import type { CodeLanguage } from './languages.js';
import type { LineSpan } from './spans.js';

function toSegments(line: string, spans: readonly LineSpan[] | undefined, base: TextStyle | undefined): Segment[] {
  if (line === '') return [];
  const plain = (text: string): Segment => (base === undefined ? { text } : { text, style: base });
  if (!spans || spans.length === 0) return [plain(line)];
  const out: Segment[] = [];
  let at = 0;
  for (const span of spans) {
    if (span.start > at) out.push(plain(line.slice(at, span.start)));
    const style = syntaxTheme[span.kind];
    const text = line.slice(span.start, span.end);
    out.push(base === undefined ? (Object.keys(style).length ? { text, style } : { text }) : { text, style: { ...base, ...style } });
    at = span.end;
  }
  if (at < line.length) out.push(plain(line.slice(at)));
  return out;
}

/**
 * Segments for each of `lines`. `before` is code that precedes them (earlier lines of the same
 * block): it is highlighted with them, so a string or comment opened there is still one here,
 * but only `lines` come back. Without a language (or before it loads) the lines are plain.
 */
export function codeSegments(lines: readonly string[], lang: CodeLanguage | undefined, before: readonly string[] = [], base?: TextStyle): Segment[][] {
  const spans = lang === undefined ? undefined : highlightCode(lang, [...before, ...lines].join('\n'));
  return lines.map((line, i) => toSegments(line, spans?.[before.length + i], base));
}
