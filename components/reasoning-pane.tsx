import { memo } from 'react';
import { Box, Text } from 'ink';
import type { TranscriptBlock } from '../src/agent/state.js';
import { sanitizeForTerminal } from './text/sanitize.js';
import { wrapText } from './text/wrap.js';
import { LineView } from './text/line-view.js';
import { theme } from './theme.js';

export const REASONING_ROWS = 5;

type ReasoningBlock = Extract<TranscriptBlock, { kind: 'reasoning' }>;

/** The reasoning block being streamed right now, if any; an existing reference (selector-safe). */
export function liveReasoning(blocks: readonly TranscriptBlock[]): ReasoningBlock | null {
  for (let i = blocks.length - 1; i >= 0 && i >= blocks.length - 16; i--) {
    const block = blocks[i]!;
    if (block.kind === 'reasoning') return block.streaming ? block : null;
    if (block.kind === 'assistant' || block.kind === 'user' || block.kind === 'turn_end') return null;
  }
  return null;
}

/** The live tail of the model's reasoning, dimmed, in a fixed-height pane. */
export const ReasoningPane = memo(function ReasoningPane({
  block,
  width,
  rows: height = REASONING_ROWS,
}: {
  readonly block: ReasoningBlock;
  readonly width: number;
  /** Height, the title row included. */
  readonly rows?: number;
}) {
  // Only the last few source lines can be visible: wrap just those, not the whole block.
  const recent = block.text.slice(-Math.max(400, width * height * 2));
  const rows = wrapText(sanitizeForTerminal(recent).replace(/\n+$/, ''), width - 2, theme.reasoning).slice(-(height - 1));
  return (
    <Box flexDirection="column" height={height} width={width} overflowY="hidden">
      <Text dimColor wrap="truncate-end">┌ thinking… (Ctrl+O shows all of it)</Text>
      {rows.map((row, i) => (
        <Box key={i} width={width}>
          <Text dimColor>│ </Text>
          <LineView line={row} />
        </Box>
      ))}
    </Box>
  );
});
