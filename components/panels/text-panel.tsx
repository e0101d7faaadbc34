import { memo, useMemo } from 'react';
import { Box, Text } from 'ink';
import { sanitizeForTerminal } from '../text/sanitize.js';
import { LineView } from '../text/line-view.js';
import { wrapText } from '../text/wrap.js';

/** A titled, scrollable panel over the transcript area: /help, /policy, /context output … */
export const TextPanel = memo(function TextPanel({
  title,
  text,
  width,
  height,
  scroll,
}: {
  readonly title: string;
  readonly text: string;
  readonly width: number;
  readonly height: number;
  readonly scroll: number;
}) {
  const rows = useMemo(() => wrapText(sanitizeForTerminal(text), width - 2), [text, width]);
  const bodyRows = Math.max(1, height - 3);
  const top = Math.min(Math.max(0, scroll), Math.max(0, rows.length - bodyRows));
  const more = Math.max(0, rows.length - top - bodyRows);
  return (
    <Box flexDirection="column" height={height} width={width} borderStyle="single" borderColor="cyan" overflowY="hidden">
      <Text bold color="cyan" wrap="truncate-end">{title}</Text>
      <Box flexDirection="column" height={Math.max(0, height - 4)} overflowY="hidden">
        {rows.slice(top, top + Math.max(0, height - 4)).map((row, i) => (
          <LineView key={top + i} line={row} />
        ))}
      </Box>
      <Text dimColor wrap="truncate-end">Esc closes{rows.length > bodyRows ? ` · ↑↓ PgUp/PgDn scroll · ${more} more below` : ''}</Text>
    </Box>
  );
});
