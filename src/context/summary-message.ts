/**
 * How a summary goes back into the conversation: as background, marked as lindwyrm's own, so
 * tool output cannot fake one. (The request itself is the engine's: src/agent/summarizer.ts.)
 */
import type { ContentBlock, UserMessage } from '../providers/types.js';

export function summaryHeader(marker: string): string {
  return `[Earlier conversation ${marker}, condensed to free context. Take it as settled background:]`;
}

export function isSummaryBlock(block: ContentBlock, marker: string): boolean {
  return block.type === 'text' && block.text.startsWith(summaryHeader(marker));
}

/**
 * The summary goes in front of the first kept prompt, in the same user message: a separate user
 * message would put two user turns in a row, which strict endpoints reject.
 */
export function withSummary(firstKept: UserMessage, summary: string, marker: string): UserMessage {
  const block: ContentBlock = { type: 'text', text: `${summaryHeader(marker)}\n${summary.trim()}` };
  return { role: 'user', content: [block, ...firstKept.content] };
}
