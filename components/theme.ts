/**
 * Semantic styles, so components say what a thing is rather than which colour it has.
 *
 * The palette reads on dark and light backgrounds alike: the six plain ANSI hues (which terminal
 * themes tune for their own background) plus bold, dim and italic; never white, black, the bright
 * variants or yellow for text a reader has to read (yellow marks warnings and running work only).
 * Under NO_COLOR the colours drop out (text/color-mode.ts) and what stays still separates things:
 * bold headings and keywords, italic quotes and comments, dim frames.
 */
import type { TextStyle } from './text/styled-line.js';

export const theme = {
  dim: { dim: true },
  brand: { bold: true, color: 'magenta' },
  user: { color: 'cyan', bold: true },
  userText: { bold: true },
  heading1: { bold: true, color: 'blue', underline: true },
  heading: { bold: true, color: 'blue' },
  bullet: { color: 'cyan' },
  quote: { italic: true, dim: true },
  inlineCode: { color: 'magenta' },
  codeBlock: {},
  codeFrame: { dim: true },
  tableBorder: { dim: true },
  tableHeader: { bold: true },
  tool: { color: 'blue' },
  toolRunning: { color: 'yellow' },
  command: { color: 'white' },
  ok: { color: 'green' },
  error: { color: 'red' },
  warning: { color: 'yellow' },
  info: { color: 'blue' },
  reasoning: { dim: true, italic: true },
  diffAdd: { color: 'green' },
  diffDel: { color: 'red' },
  diffHunk: { color: 'cyan' },
  diffHeader: { bold: true },
  lineNumber: { dim: true },
  accent: { color: 'cyan' },
  marker: { inverse: true },
  panelTitle: { bold: true, color: 'cyan' },
  danger: { color: 'red' },
  keyYes: { bold: true, color: 'green' },
  keyNo: { bold: true, color: 'red' },
  keyAlways: { bold: true, color: 'cyan' },
  keyQuit: { bold: true, color: 'yellow' },
} satisfies Record<string, TextStyle>;

/** Token kinds of the syntax highlighter, and how each is shown. */
export type SyntaxKind = 'keyword' | 'string' | 'number' | 'comment' | 'type' | 'function' | 'constant' | 'regexp' | 'tag' | 'attribute' | 'punctuation';

export const syntaxTheme: Readonly<Record<SyntaxKind, TextStyle>> = {
  // Bold as well as coloured: under NO_COLOR keywords are still told from names.
  keyword: { color: 'magenta', bold: true },
  string: { color: 'green' },
  number: { color: 'cyan' },
  constant: { color: 'cyan' },
  comment: { dim: true, italic: true },
  type: { color: 'blue' },
  function: { color: 'blue' },
  regexp: { color: 'red' },
  tag: { color: 'blue' },
  attribute: { color: 'cyan' },
  punctuation: {},
};
