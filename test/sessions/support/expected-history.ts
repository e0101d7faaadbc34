/** The history the save-loop child has after save N: deterministic, so a parent can check it. */
import type { Message } from '../../../src/providers/types.js';
import { richTurn, summaryMessage, userText } from './records.js';

export function expectedHistory(n: number): Message[] {
  // Every fifth save a summary replaces everything before the last five turns.
  const sinceSummary = n - Math.floor(n / 5) * 5;
  const start = n >= 5 ? [summaryMessage()] : [userText('start')];
  const turns: Message[] = [];
  for (let k = n - sinceSummary + 1; k <= n; k++) turns.push(userText(`turn ${k} ${'x'.repeat(2000)}`), ...richTurn(k));
  return [...start, ...turns];
}
