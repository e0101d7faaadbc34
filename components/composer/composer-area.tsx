import { memo } from 'react';
import { Box } from 'ink';
import { LineView } from '../text/line-view.js';
import { lineText, type StyledLine } from '../text/styled-line.js';
import { sanitizeForTerminal } from '../text/sanitize.js';
import { wrapText } from '../text/wrap.js';
import type { EditBuffer } from './edit-buffer.js';
import { composerPlaceholder, composerWindow, layoutComposer, separatorLine } from './composer-layout.js';
import type { SlashCommandInfo } from '../../src/slash/types.js';
import { slashHint } from './slash-commands.js';

export interface Flash {
  readonly text: string;
  readonly error?: boolean;
}

/** A flash wraps instead of being cut at the width (a path, an error's cause), up to this many rows. */
export const MAX_FLASH_ROWS = 4;

/** The flash message as rows; the last one ends in … when it had to be cut. */
export function flashRows(flash: Flash, width: number): StyledLine[] {
  const style = { color: flash.error ? 'red' : 'cyan' };
  const rows = wrapText(sanitizeForTerminal(flash.text), Math.max(1, width), style);
  if (rows.length <= MAX_FLASH_ROWS) return rows;
  const kept = rows.slice(0, MAX_FLASH_ROWS);
  const last = kept[MAX_FLASH_ROWS - 1]!;
  const text = lineText(last);
  kept[MAX_FLASH_ROWS - 1] = [{ text: `${[...text].slice(0, Math.max(0, width - 1)).join('')}…`, style }];
  return kept;
}

function extraRows(buffer: EditBuffer, flash: Flash | null, queued: string | null, width: number, commands: readonly SlashCommandInfo[]): StyledLine[] {
  const rows: StyledLine[] = [];
  if (flash) rows.push(...flashRows(flash, width));
  if (queued !== null) {
    rows.push([{ text: `queued (sent when this turn ends): ${sanitizeForTerminal(queued).replaceAll('\n', ' ')}`, style: { color: 'yellow' } }]);
  }
  const hint = slashHint(buffer.text, commands);
  if (hint !== undefined) rows.push([{ text: sanitizeForTerminal(hint), style: { dim: true } }]);
  return rows;
}

/** Rows above the text: a flash message, the queued text and the slash-command hint. */
export function composerExtras(buffer: EditBuffer, flash: Flash | null, queued: string | null, width: number, commands: readonly SlashCommandInfo[]): number {
  return extraRows(buffer, flash, queued, width, commands).length;
}

export function composerTextRows(buffer: EditBuffer, width: number): number {
  return layoutComposer(buffer, width, '').rows.length;
}

/**
 * The rule, the extras and the input. When the area is shorter than all of them, the input comes
 * first (it is what is being typed), then the rule, then the extras.
 */
export const ComposerArea = memo(function ComposerArea({
  buffer,
  width,
  height,
  textRows,
  flash,
  queued,
  busy,
  commands,
}: {
  readonly buffer: EditBuffer;
  readonly width: number;
  readonly height: number;
  readonly textRows: number;
  readonly flash: Flash | null;
  readonly queued: string | null;
  readonly busy: boolean;
  /** The slash commands, for the hint under the input. */
  readonly commands: readonly SlashCommandInfo[];
}) {
  const input = composerWindow(layoutComposer(buffer, width, composerPlaceholder(busy)), Math.max(1, Math.min(textRows, height)));
  let room = Math.max(0, height - input.length);
  const rule = room > 0;
  if (rule) room -= 1;
  const extras = extraRows(buffer, flash, queued, width, commands).slice(0, room);
  return (
    <Box flexDirection="column" height={height} width={width} overflowY="hidden">
      {rule ? <LineView line={separatorLine(width)} /> : null}
      {extras.map((row, i) => (
        <LineView key={`x${i}`} line={row} />
      ))}
      {input.map((row, i) => (
        <LineView key={i} line={row} />
      ))}
    </Box>
  );
});
