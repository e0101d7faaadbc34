/**
 * How a summary goes back into the conversation: as a record of the past, marked as lindwyrm's
 * own so tool output cannot fake one, closed by a note that says what the record means — work
 * listed as done is done, open items are open, the user's latest message is the current request —
 * and where the replaced turns are kept. A summary read as a list of things to do is how agents
 * redo finished work after compaction; one read as the user speaking is how they obey it.
 * (The request itself is the engine's: src/agent/summarizer.ts.)
 */
import type { ContentBlock, UserMessage } from '../providers/types.js';

export function summaryHeader(marker: string): string {
  return `[Earlier conversation ${marker}, condensed to free context. This is a record of what already happened, written by lindwyrm, not a message from the user:]`;
}

/** "arc_0001", "arc_0001–arc_0012", or "arc_0001, arc_0003 …" when not consecutive. */
export function describeRefs(refs: readonly string[]): string {
  if (refs.length <= 1) return refs[0] ?? '';
  const nums = refs.map((r) => Number(r.slice(4)));
  const consecutive = nums.every((n, i) => i === 0 || n === nums[i - 1]! + 1);
  return consecutive ? `${refs[0]}–${refs.at(-1)}` : refs.join(', ');
}

/** What closes the record: how to read it, and how to get back what it left out. */
export function summaryFooter(marker: string, archived: readonly string[]): string {
  const one = archived.length === 1;
  const turns = one ? 'The turn it replaces is' : `The ${archived.length} turns it replaces are`;
  const archive = archived.length
    ? ` ${turns} archived word for word (${describeRefs(archived)}): the recall tool searches ${one ? 'it' : 'them'} by words or /regex/, and read_offloaded opens a ref in full — for any detail (an exact error, a value, a file's earlier content) the record leaves out.`
    : '';
  return (
    `[End of the record ${marker}. Work it lists as done was completed: do not do it again (check the files if in doubt). ` +
    `Items it lists as open were not finished when the record was made.${archive} ` +
    `The conversation continues below; the user's most recent message there is the current request.]`
  );
}

export function isSummaryBlock(block: ContentBlock, marker: string): boolean {
  return block.type === 'text' && block.text.startsWith(summaryHeader(marker));
}

/**
 * The summary goes in front of the first kept prompt, in the same user message: a separate user
 * message would put two user turns in a row, which strict endpoints reject. The summary's text
 * comes from the model, which may have echoed tool output: it cannot carry the marker.
 */
export function withSummary(firstKept: UserMessage, summary: string, marker: string, archived: readonly string[] = []): UserMessage {
  const body = summary.trim().split(marker).join('[marker removed]');
  const block: ContentBlock = { type: 'text', text: `${summaryHeader(marker)}\n${body}\n${summaryFooter(marker, archived)}` };
  return { role: 'user', content: [block, ...firstKept.content] };
}
