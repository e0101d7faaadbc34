/**
 * A small markdown renderer for answers: headings, lists, quotes, rules, bold, italic, inline and
 * fenced code. Pure; line-based, so any text cut at a safe split point renders the same whole.
 */
import type { Segment, StyledLine, TextStyle } from '../text/styled-line.js';
import { wrapSegments } from '../text/wrap.js';
import { theme } from '../theme.js';

const FENCE = /^\s*(```|~~~)/;
const HEADING = /^(#{1,6})\s+(.*)$/;
const LIST = /^(\s*)([-*+]|\d{1,3}[.)])\s+(.*)$/;
const QUOTE = /^\s*>\s?(.*)$/;
const RULE = /^\s*([-*_])(\s*\1){2,}\s*$/;

/** Inline spans: `code`, **bold**, *italic* / _italic_. Unclosed markers stay literal. */
export function parseInline(text: string, base?: TextStyle): Segment[] {
  const out: Segment[] = [];
  let plain = '';
  const flush = (): void => {
    if (plain !== '') out.push(base === undefined ? { text: plain } : { text: plain, style: base });
    plain = '';
  };
  let i = 0;
  while (i < text.length) {
    const ch = text[i]!;
    if (ch === '`') {
      const end = text.indexOf('`', i + 1);
      if (end > i + 1) {
        flush();
        out.push({ text: text.slice(i + 1, end), style: { ...base, ...theme.inlineCode } });
        i = end + 1;
        continue;
      }
    } else if (ch === '*' && text[i + 1] === '*') {
      const end = text.indexOf('**', i + 2);
      if (end > i + 2) {
        flush();
        for (const seg of parseInline(text.slice(i + 2, end), { ...base, bold: true })) out.push(seg);
        i = end + 2;
        continue;
      }
    } else if ((ch === '*' || ch === '_') && text[i + 1] !== ' ' && text[i + 1] !== ch) {
      const prevIsWord = i > 0 && /\w/.test(text[i - 1]!);
      const end = text.indexOf(ch, i + 1);
      if (!prevIsWord && end > i + 1 && text[end - 1] !== ' ' && !(ch === '_' && /\w/.test(text[end + 1] ?? ''))) {
        flush();
        for (const seg of parseInline(text.slice(i + 1, end), { ...base, italic: true })) out.push(seg);
        i = end + 1;
        continue;
      }
    }
    plain += ch;
    i++;
  }
  flush();
  return out;
}

/** What one line's rendering depends on from the lines before it. */
export interface MarkdownState {
  inFence: boolean;
}

/** Renders markdown source (sanitized already) into wrapped rows. */
export function renderMarkdown(source: string, width: number): StyledLine[] {
  return renderMarkdownLines(source.split('\n'), width, { inFence: false });
}

/**
 * Renders lines that follow earlier ones whose effect is `state` (updated in place). Rendering
 * is line by line, so rendering a text in pieces cut at newlines gives the rows of the whole.
 */
export function renderMarkdownLines(lines: readonly string[], width: number, state: MarkdownState): StyledLine[] {
  const rows: StyledLine[] = [];
  let inFence = state.inFence;
  for (const line of lines) {
    if (FENCE.test(line)) {
      inFence = !inFence;
      const lang = line.replace(FENCE, '').trim();
      rows.push([{ text: inFence && lang !== '' ? `╭─ ${lang}` : inFence ? '╭─' : '╰─', style: theme.codeFrame }]);
      continue;
    }
    if (inFence) {
      rows.push(...wrapSegments(line === '' ? [] : [{ text: line, style: theme.codeBlock }], width, {
        firstPrefix: [{ text: '│ ', style: theme.codeFrame }],
      }));
      continue;
    }
    const heading = HEADING.exec(line);
    if (heading) {
      const style = heading[1]!.length <= 2 ? theme.heading1 : theme.heading;
      rows.push(...wrapSegments(parseInline(heading[2]!, style), width));
      continue;
    }
    if (RULE.test(line)) {
      rows.push([{ text: '─'.repeat(Math.max(1, Math.min(width, 40))), style: theme.dim }]);
      continue;
    }
    const list = LIST.exec(line);
    if (list) {
      const indent = ' '.repeat(Math.min(list[1]!.length, 12));
      const marker = /\d/.test(list[2]!) ? `${list[2]} ` : '• ';
      const hang = ' '.repeat(indent.length + marker.length);
      rows.push(...wrapSegments(parseInline(list[3]!), width, {
        firstPrefix: [{ text: indent }, { text: marker, style: theme.bullet }],
        restPrefix: [{ text: hang }],
      }));
      continue;
    }
    const quote = QUOTE.exec(line);
    if (quote) {
      rows.push(...wrapSegments(parseInline(quote[1]!, theme.quote), width, {
        firstPrefix: [{ text: '▌ ', style: theme.dim }],
      }));
      continue;
    }
    rows.push(...wrapSegments(parseInline(line), width));
  }
  state.inFence = inFence;
  return rows;
}

/**
 * Where streaming text can be cut so that the part before renders as final markdown: just after
 * the last blank line that is not inside a code fence. 0 when there is none.
 */
export function findSafeSplit(text: string): number {
  let inFence = false;
  let safe = 0;
  let start = 0;
  while (start < text.length) {
    const nl = text.indexOf('\n', start);
    if (nl < 0) break;
    const line = text.slice(start, nl);
    if (FENCE.test(line)) inFence = !inFence;
    else if (!inFence && line.trim() === '' && start > 0) safe = nl + 1;
    start = nl + 1;
  }
  return safe;
}
