/**
 * The turns a summary replaces, as the text the archive keeps: one entry per user turn (a prompt
 * and everything up to the next one), in the conversation's own words — prompts, answers,
 * reasoning, every tool call with its arguments and its result as the model saw it. recall
 * searches these texts and read_offloaded opens one by its ref, so nothing a summary drops is gone.
 */
import type { ContentBlock, Message } from '../providers/types.js';
import { isPrompt } from './history-shape.js';
import { isSummaryBlock } from './summary-message.js';

/** Splits a stretch of history at the start of each user turn. */
export function splitTurns(messages: readonly Message[]): Message[][] {
  const turns: Message[][] = [];
  for (const m of messages) {
    if (turns.length === 0 || isPrompt(m)) turns.push([m]);
    else turns[turns.length - 1]!.push(m);
  }
  return turns;
}

function renderBlock(block: ContentBlock, role: Message['role'], marker: string, names: Map<string, string>): string {
  switch (block.type) {
    case 'text':
      // An earlier summary is itself built from archived turns: it is not archived again.
      if (isSummaryBlock(block, marker)) return '(a summary of the turns archived before this one stood here)';
      return `${role === 'user' ? 'USER' : 'ASSISTANT'}:\n${block.text}`;
    case 'thinking':
      return `ASSISTANT (reasoning):\n${block.thinking}`;
    case 'redacted_thinking':
      return 'ASSISTANT (reasoning, encrypted by the provider)';
    case 'tool_use':
      names.set(block.id, block.name);
      return `TOOL CALL ${block.name} ${JSON.stringify(block.input)}`;
    case 'tool_result': {
      const name = names.get(block.toolUseId) ?? 'tool';
      const images = block.images?.length ? ` (+${block.images.length} image${block.images.length === 1 ? '' : 's'})` : '';
      return `TOOL RESULT ${name}${block.isError ? ' (error)' : ''}${images}:\n${block.content}`;
    }
    case 'image':
      return `${role === 'user' ? 'USER' : 'ASSISTANT'}: [an image]`;
  }
}

/**
 * One turn as text. The session marker is taken out: the text goes back to the model as a tool
 * result, where a marker would be neutralized anyway, and an archived stub must not read as a
 * live one. `when` is the time of the summary (ISO), for the header.
 */
export function renderTurn(turn: readonly Message[], marker: string, when: string): string {
  const names = new Map<string, string>();
  const parts = [`[Archived turn, summarized away at ${when}. The conversation's own words follow.]`];
  for (const m of turn) for (const b of m.content) parts.push(renderBlock(b, m.role, marker, names));
  const text = parts.join('\n\n');
  return marker ? text.split(marker).join('lindwyrm') : text;
}

/** Every turn of a stretch of history, rendered for the archive. */
export function renderTurns(messages: readonly Message[], marker: string, when: Date = new Date()): string[] {
  const stamp = when.toISOString().replace(/\.\d{3}Z$/, 'Z');
  return splitTurns(messages).map((turn) => renderTurn(turn, marker, stamp));
}
