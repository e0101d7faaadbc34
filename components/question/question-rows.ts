/** The question modal's content as styled rows: the title, the explanation, the answers. Pure. */
import type { EngineQuestion } from '../../src/agent/state.js';
import { sanitizeForTerminal } from '../text/sanitize.js';
import type { StyledLine } from '../text/styled-line.js';
import { wrapSegments, wrapText } from '../text/wrap.js';
import { theme } from '../theme.js';

export function questionRows(q: EngineQuestion, width: number): { head: StyledLine[]; choices: StyledLine[] } {
  const head: StyledLine[] = [...wrapSegments([{ text: sanitizeForTerminal(q.title), style: { ...theme.warning, bold: true } }], width)];
  for (const line of q.lines) head.push(...wrapText(sanitizeForTerminal(line), width));
  const choices: StyledLine[] = [];
  q.choices.forEach((c, i) => {
    const hint = i === 0 ? ' (Enter)' : '';
    choices.push(...wrapSegments([{ text: `[${c.key}]`, style: { ...theme.accent, bold: true } }, { text: ` ${sanitizeForTerminal(c.label)}${hint}` }], width));
  });
  return { head, choices };
}

/** Rows the modal wants: border, explanation and answers, bounded by what the screen allows. */
export function questionHeight(q: EngineQuestion, width: number, maxRows: number): number {
  const { head, choices } = questionRows(q, width - 2);
  return Math.max(4, Math.min(maxRows, head.length + choices.length + 2));
}
