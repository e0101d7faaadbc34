/** Semantic styles, so components say what a thing is rather than which colour it has. */
import type { TextStyle } from './text/styled-line.js';

export const theme = {
  dim: { dim: true },
  brand: { bold: true, color: 'magentaBright' },
  user: { color: 'cyan', bold: true },
  userText: { color: 'white' },
  heading1: { bold: true, color: 'magentaBright', underline: true },
  heading: { bold: true, color: 'magentaBright' },
  bullet: { color: 'cyan' },
  quote: { italic: true, dim: true },
  inlineCode: { color: 'yellow' },
  codeBlock: { color: 'yellowBright' },
  codeFrame: { dim: true },
  tool: { color: 'blue' },
  toolRunning: { color: 'yellow' },
  ok: { color: 'green' },
  error: { color: 'red' },
  warning: { color: 'yellow' },
  info: { color: 'blue' },
  reasoning: { dim: true, italic: true },
  diffAdd: { color: 'green' },
  diffDel: { color: 'red' },
  diffHunk: { color: 'cyan' },
  diffHeader: { bold: true },
  accent: { color: 'cyan' },
  marker: { inverse: true },
} satisfies Record<string, TextStyle>;
