/** What the normal screen shows when the full screen is left. Pure. */
import type { TranscriptBlock } from '../src/agent/state.js';

/** The final answer of the last turn: what is printed on the normal screen when leaving. */
export function lastAnswer(blocks: readonly TranscriptBlock[]): string | undefined {
  for (let i = blocks.length - 1; i >= 0; i--) {
    const block = blocks[i]!;
    if (block.kind === 'assistant' && block.text.trim() !== '') return block.text.trim();
    if (block.kind === 'user') return undefined;
  }
  return undefined;
}
