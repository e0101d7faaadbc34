import { describe, expect, it } from 'vitest';
import { lineText } from '../../components/text/styled-line.js';
import { wrapSegments, wrapText } from '../../components/text/wrap.js';
import { textWidth } from '../../components/text/char-width.js';
import { sanitizeForTerminal } from '../../components/text/sanitize.js';
import { findSafeSplit, parseInline, renderMarkdown } from '../../components/transcript/markdown.js';
import { theme } from '../../components/theme.js';

const texts = (rows: readonly (readonly { text: string }[])[]) => rows.map((r) => r.map((s) => s.text).join(''));

describe('wrapping', () => {
  it('breaks at spaces and never exceeds the width', () => {
    const rows = wrapText('the quick brown fox jumps over the lazy dog', 10);
    expect(texts(rows)).toEqual(['the quick', 'brown fox', 'jumps over', 'the lazy', 'dog']);
    for (const row of rows) expect(textWidth(lineText(row))).toBeLessThanOrEqual(10);
  });

  it('breaks a word longer than the width hard', () => {
    expect(texts(wrapText('abcdefghijkl', 5))).toEqual(['abcde', 'fghij', 'kl']);
  });

  it('counts wide characters as two cells', () => {
    const rows = wrapText('漢字漢字漢字', 5);
    expect(texts(rows)).toEqual(['漢字', '漢字', '漢字']);
  });

  it('keeps styles across a break and puts a hanging indent on later rows', () => {
    const rows = wrapSegments([{ text: 'aaa bbb ccc', style: { bold: true } }], 6, {
      firstPrefix: [{ text: '• ' }],
      restPrefix: [{ text: '  ' }],
    });
    expect(texts(rows)).toEqual(['• aaa', '  bbb', '  ccc']);
    expect(rows[1]![1]!.style).toEqual({ bold: true });
  });
});

describe('sanitizing', () => {
  it('shows escape sequences and controls instead of sending them to the terminal', () => {
    const clean = sanitizeForTerminal('red\x1b[31m bell\x07 tab\tend\r\nnext \u202eevil');
    // eslint-disable-next-line no-control-regex -- asserting no controls remain
    expect(clean).not.toMatch(/[\x1b\x07\r\u202e]/);
    expect(clean).toContain('␛[31m');
    expect(clean).toContain('^G');
    expect(clean).toContain('tab    end\nnext');
  });
});

describe('markdown', () => {
  it('renders headings, bullets, bold, inline code and fences', () => {
    const rows = renderMarkdown('# Title\n\nUse **bold** and `code`.\n\n- one\n2. two\n\n```ts\nconst a = 1;\n```', 40);
    const plain = texts(rows);
    expect(plain).toEqual(['Title', '', 'Use bold and code.', '', '• one', '2. two', '', '╭─ ts', '│ const a = 1;', '╰─']);
    expect(rows[0]![0]!.style?.bold).toBe(true);
    const inline = rows[2]!;
    expect(inline.find((s) => s.text === 'bold')?.style?.bold).toBe(true);
    expect(inline.find((s) => s.text === 'code')?.style?.color).toBe(theme.inlineCode.color);
  });

  it('leaves unclosed markers and snake_case words alone', () => {
    expect(parseInline('a **half and snake_case_name').map((s) => s.text).join('')).toBe('a **half and snake_case_name');
  });

  it('finds the last blank line outside a fence as the safe split point', () => {
    const text = 'para one\n\n```\ncode\n\nmore code\n';
    expect(findSafeSplit(text)).toBe('para one\n\n'.length);
    expect(findSafeSplit('no blank line yet')).toBe(0);
    expect(findSafeSplit('a\n\nb\n\nc')).toBe('a\n\nb\n\n'.length);
  });
});
