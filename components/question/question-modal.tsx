import { memo, useMemo } from 'react';
import { Box } from 'ink';
import type { EngineQuestion } from '../../src/agent/state.js';
import { LineView } from '../text/line-view.js';
import { questionRows } from './question-rows.js';

/**
 * An engine question (a budget reached, a summary ahead, a model switch) in place of the input,
 * like the approval modal. The answers always keep their rows; the explanation is cut from its
 * end when the screen is short.
 */
export const QuestionModal = memo(function QuestionModal({
  question,
  width,
  height,
}: {
  readonly question: EngineQuestion;
  readonly width: number;
  readonly height: number;
}) {
  const inner = width - 2;
  const { head, choices } = useMemo(() => questionRows(question, inner), [question, inner]);
  const innerRows = Math.max(0, height - 2);
  const choiceRows = Math.min(choices.length, innerRows);
  const headRows = Math.max(0, innerRows - choiceRows);
  return (
    <Box flexDirection="column" height={height} width={width} borderStyle="round" borderColor="cyan" overflowY="hidden">
      {head.slice(0, headRows).map((row, i) => (
        <LineView key={`h${i}`} line={row} />
      ))}
      {choices.slice(0, choiceRows).map((row, i) => (
        <LineView key={`c${i}`} line={row} />
      ))}
    </Box>
  );
});
