import { memo } from 'react';
import { Box, Text } from 'ink';
import { LineView } from '../text/line-view.js';
import type { EditBuffer } from './edit-buffer.js';
import { composerPlaceholder, composerWindow, layoutComposer, separatorLine } from './composer-layout.js';
import { matchingCommands } from './slash-commands.js';

export interface Flash {
  readonly text: string;
  readonly error?: boolean;
}

/** Rows above the text: a flash message and the slash-command hint. */
export function composerExtras(buffer: EditBuffer, flash: Flash | null, queued: string | null): number {
  return (flash ? 1 : 0) + (queued !== null ? 1 : 0) + (matchingCommands(buffer.text).length > 0 ? 1 : 0);
}

export function composerTextRows(buffer: EditBuffer, width: number): number {
  return layoutComposer(buffer, width, '').rows.length;
}

export const ComposerArea = memo(function ComposerArea({
  buffer,
  width,
  height,
  textRows,
  flash,
  queued,
  busy,
}: {
  readonly buffer: EditBuffer;
  readonly width: number;
  readonly height: number;
  readonly textRows: number;
  readonly flash: Flash | null;
  readonly queued: string | null;
  readonly busy: boolean;
}) {
  const rows = composerWindow(layoutComposer(buffer, width, composerPlaceholder(busy)), textRows);
  const matches = matchingCommands(buffer.text);
  return (
    <Box flexDirection="column" height={height} width={width} overflowY="hidden">
      <LineView line={separatorLine(width)} />
      {flash ? (
        <Text color={flash.error ? 'red' : 'cyan'} wrap="truncate-end">{flash.text}</Text>
      ) : null}
      {queued !== null ? (
        <Text color="yellow" wrap="truncate-end">queued (sent when this turn ends): {queued.replaceAll('\n', ' ')}</Text>
      ) : null}
      {matches.length > 0 ? (
        <Text dimColor wrap="truncate-end">
          {matches.length === 1 ? `${matches[0]!.name}${matches[0]!.args ? ` ${matches[0]!.args}` : ''} — ${matches[0]!.help}` : `Tab: ${matches.map((m) => m.name).join('  ')}`}
        </Text>
      ) : null}
      {rows.map((row, i) => (
        <LineView key={i} line={row} />
      ))}
    </Box>
  );
});
