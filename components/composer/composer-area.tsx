import { memo } from 'react';
import { Box } from 'ink';
import { LineView } from '../text/line-view.js';
import { lineText, type StyledLine } from '../text/styled-line.js';
import { sanitizeForTerminal } from '../text/sanitize.js';
import { wrapText } from '../text/wrap.js';
import { composerPlaceholder, composerWindow, layoutComposer, separatorLine, type ComposerLayout } from './composer-layout.js';
import type { ComposerState } from './composer-state.js';
import { searchPrompt } from './reverse-search.js';
import { cycleHint } from './completion.js';
import { MAX_COMPOSER_ROWS } from '../layout.js';
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

/** The composer's own rows above the text: the Ctrl+R search, or the Tab candidates / slash hint. */
function composerHint(composer: ComposerState, commands: readonly SlashCommandInfo[]): StyledLine | undefined {
  if (composer.search) return [{ text: sanitizeForTerminal(searchPrompt(composer.search)), style: { color: composer.search.failed ? 'red' : 'cyan' } }];
  if (composer.cycle) return [{ text: sanitizeForTerminal(cycleHint(composer.cycle)), style: { dim: true } }];
  const hint = slashHint(composer.buffer.text, commands);
  return hint === undefined ? undefined : [{ text: sanitizeForTerminal(hint), style: { dim: true } }];
}

function extraRows(composer: ComposerState, flash: Flash | null, queued: string | null, width: number, commands: readonly SlashCommandInfo[]): StyledLine[] {
  const rows: StyledLine[] = [];
  if (flash) rows.push(...flashRows(flash, width));
  if (queued !== null) {
    const shown = queued.length > 500 ? `${queued.slice(0, 500)}…` : queued;
    rows.push([{ text: `queued (sent when this turn ends): ${sanitizeForTerminal(shown).replaceAll('\n', ' ')}`, style: { color: 'yellow' } }]);
  }
  const hint = composerHint(composer, commands);
  if (hint !== undefined) rows.push(hint);
  return rows;
}

/** Rows above the text: a flash message, the queued text and the hint. */
export function composerExtras(composer: ComposerState, flash: Flash | null, queued: string | null, width: number, commands: readonly SlashCommandInfo[]): number {
  return extraRows(composer, flash, queued, width, commands).length;
}

/** The input laid out for the area: only the lines around the caret (see layoutComposer). */
export function composerLayout(composer: ComposerState, width: number, busy: boolean, marker = true): ComposerLayout {
  return layoutComposer(composer.buffer, width, composerPlaceholder(busy), { maxRows: MAX_COMPOSER_ROWS, chips: composer.chips, marker });
}

/** Where the caret is in the area's input rows (the last rows of the area), and how many there are. */
export function composerCaret(layout: ComposerLayout, height: number, textRows: number): { row: number; column: number; rows: number } {
  const input = composerWindow(layout, Math.max(1, Math.min(textRows, height)));
  return { row: input.cursorRow, column: layout.cursorColumn, rows: input.rows.length };
}

/**
 * The rule, the extras and the input. When the area is shorter than all of them, the input comes
 * first (it is what is being typed), then the rule, then the extras.
 */
export const ComposerArea = memo(function ComposerArea({
  composer,
  layout,
  width,
  height,
  textRows,
  flash,
  queued,
  commands,
}: {
  readonly composer: ComposerState;
  /** composerLayout(composer, …), computed once by the app (it also places the cursor from it). */
  readonly layout: ComposerLayout;
  readonly width: number;
  readonly height: number;
  readonly textRows: number;
  readonly flash: Flash | null;
  readonly queued: string | null;
  /** The slash commands, for the hint under the input. */
  readonly commands: readonly SlashCommandInfo[];
}) {
  const input = composerWindow(layout, Math.max(1, Math.min(textRows, height))).rows;
  let room = Math.max(0, height - input.length);
  const rule = room > 0;
  if (rule) room -= 1;
  const extras = extraRows(composer, flash, queued, width, commands).slice(0, room);
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
