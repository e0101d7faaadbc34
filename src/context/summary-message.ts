/**
 * The summarizing step's texts: what the model is asked, and how its answer goes back into the
 * conversation (as background, marked as lindwyrm's own, so a tool cannot fake one).
 */
import type { ContentBlock, Message, UserMessage } from '../providers/types.js';

const REQUEST = [
  'Write a summary of the conversation so far that will replace it: the older turns are about to be',
  'dropped to free context, and the summary is all that will remain of them.',
  'Keep: what the user asked for and decided, constraints they stated, files created or changed (with',
  'paths), commands that mattered and their outcome, approaches tried and ruled out, and what is still',
  'open. Offload refs (off_NNNN) that are still useful, so they can be read back. Leave out pleasantries',
  'and anything superseded. Plain prose or short lists; no preamble.',
].join('\n');

export function summaryInstructions(userInstructions?: string): string {
  const extra = userInstructions?.trim();
  return extra ? `${REQUEST}\n\nThe user adds: ${extra}` : REQUEST;
}

/**
 * The messages for the summarizing request: the older part as it stands (so the provider's cache
 * of that prefix is reused), then one user message with the request.
 */
export function buildSummarizeMessages(older: readonly Message[], userInstructions?: string): Message[] {
  return [...older, { role: 'user', content: [{ type: 'text', text: summaryInstructions(userInstructions) }] }];
}

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
