import { memo, useMemo } from 'react';
import { Box, Text } from 'ink';
import { sanitizeForTerminal } from '../text/sanitize.js';
import type { StyledLine } from '../text/styled-line.js';
import { wrapSegments } from '../text/wrap.js';
import { LineView, borderColor, inkTextProps } from '../text/line-view.js';
import { theme } from '../theme.js';

/** Border (2), title and footer: the rows of a panel that are not its text. */
const CHROME_ROWS = 4;

/** A panel shorter than this drops its border: two rows of border around one row of text help no one. */
export const MIN_BORDERED_ROWS = 5;

/**
 * Wraps a panel's text. A line laid out in columns ("  /model [preset]   switch to …") continues
 * under its second column, so a wrapped description does not run back under the names.
 */
export function panelRows(text: string, width: number): StyledLine[] {
  const rows: StyledLine[] = [];
  for (const line of sanitizeForTerminal(text).split('\n')) {
    if (line === '') {
      rows.push([]);
      continue;
    }
    const column = /^(\s*\S(?:.*?\S)?\s{2,})\S/.exec(line)?.[1]?.length ?? 0;
    const hang = column > 0 && column <= width / 2 ? column : line.length - line.trimStart().length;
    rows.push(...wrapSegments([{ text: line }], width, { firstPrefix: [], restPrefix: [{ text: ' '.repeat(hang) }] }));
  }
  return rows;
}

/** A titled, scrollable panel over the transcript area: /help, /policy, /context output … */
export const TextPanel = memo(function TextPanel({
  title,
  text,
  width,
  height,
  scroll,
  maxRef,
  pageRef,
}: {
  readonly title: string;
  readonly text: string;
  readonly width: number;
  readonly height: number;
  readonly scroll: number;
  /** Receives how far the text can scroll, for the scroll keys. */
  readonly maxRef?: { current: number };
  /** Receives how many rows PgUp / PgDn move. */
  readonly pageRef?: { current: number };
}) {
  const rows = useMemo(() => panelRows(text, width - 2), [text, width]);
  const bodyRows = height < MIN_BORDERED_ROWS ? Math.max(1, height - 1) : Math.max(1, height - CHROME_ROWS);
  const maxScroll = Math.max(0, rows.length - bodyRows);
  if (maxRef) maxRef.current = maxScroll;
  if (pageRef) pageRef.current = Math.max(1, bodyRows - 1);
  const top = Math.min(Math.max(0, scroll), maxScroll);
  const more = Math.max(0, rows.length - top - bodyRows);
  if (height < MIN_BORDERED_ROWS) {
    // Too short for a border around anything: the title line, then as much text as fits.
    return (
      <Box flexDirection="column" height={height} width={width} overflowY="hidden">
        {height > 0 ? <Text {...inkTextProps(theme.panelTitle)} wrap="truncate-end">{title} · Esc closes</Text> : null}
        {rows.slice(top, top + Math.max(0, height - 1)).map((row, i) => (
          <LineView key={top + i} line={row} />
        ))}
      </Box>
    );
  }
  return (
    <Box flexDirection="column" height={height} width={width} borderStyle="single" {...borderColor(theme.panelTitle)} overflowY="hidden">
      <Text {...inkTextProps(theme.panelTitle)} wrap="truncate-end">{title}</Text>
      <Box flexDirection="column" height={Math.max(0, height - CHROME_ROWS)} overflowY="hidden">
        {rows.slice(top, top + bodyRows).map((row, i) => (
          <LineView key={top + i} line={row} />
        ))}
      </Box>
      <Text dimColor wrap="truncate-end">Esc closes{rows.length > bodyRows ? ` · ↑↓ PgUp/PgDn scroll · ${more} more below` : ''}</Text>
    </Box>
  );
});
