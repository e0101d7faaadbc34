import { memo, useMemo } from 'react';
import { Box, Text } from 'ink';
import type { RewindView } from '../../src/rewind/rewind-command.js';
import { sanitizeForTerminal } from '../text/sanitize.js';
import { LineView } from '../text/line-view.js';
import { MIN_BORDERED_ROWS, panelRows } from './text-panel.js';

/** Where the picker is: choosing a checkpoint, or looking at what going back to it would do. */
export interface RewindPanelState {
  readonly view: RewindView;
  /** The list it came from (a preview goes back to it on Esc). */
  readonly list?: Extract<RewindView, { kind: 'list' }>;
  readonly selected: number;
  readonly scroll: number;
  /** The separate question about files changed outside lindwyrm since is being asked. */
  readonly asking: boolean;
  /** While asking: the files marked to be overwritten (the rest are kept), and the one under the cursor. */
  readonly marked?: readonly string[];
  readonly cursor?: number;
}

/** The preview's files changed outside lindwyrm since, in its order: what the question is about. */
export function outsidePaths(p: RewindPanelState): string[] {
  if (p.view.kind !== 'preview') return [];
  return p.view.preview.items.filter((i) => i.changedOutside && i.unrestorable === undefined).map((i) => i.path);
}

const LIST_KEYS = '↑↓ choose · Enter code+conversation · c code only · v conversation only · Esc closes';

function previewKeys(p: RewindPanelState): string {
  if (p.view.kind !== 'preview') return '';
  if (p.asking) return `${outsidePaths(p).length} file(s) changed outside lindwyrm since: o overwrite them too · k keep them · Space marks one · Enter: marked overwritten, the rest kept · Esc back`;
  const nothing = p.view.part === 'code' && p.view.preview.items.length === 0;
  return nothing ? 'Nothing to restore · Esc back' : 'Enter restores · ↑↓ scroll · Esc back';
}

/** /rewind and Esc Esc: the checkpoints newest first, then a preview before anything changes. */
export const RewindPanel = memo(function RewindPanel({ state, width, height }: { readonly state: RewindPanelState; readonly width: number; readonly height: number }) {
  const compact = height < MIN_BORDERED_ROWS;
  const bodyRows = compact ? Math.max(0, height - 1) : Math.max(1, height - 4);
  const view = state.view;
  const previewRows = useMemo(() => (view.kind === 'preview' ? panelRows(view.text, width - 2) : []), [view, width]);
  const title = view.kind === 'list' ? `Rewind: go back to before a prompt (${view.lines.length})` : `Rewind to before ${view.preview.id}: ${view.part === 'both' ? 'code and conversation' : view.part}`;
  const footer = view.kind === 'list' ? (view.lines.length === 0 ? 'No checkpoints yet · Esc closes' : LIST_KEYS) : previewKeys(state);
  let body;
  if (view.kind === 'list') {
    const top = Math.min(Math.max(0, state.selected - bodyRows + 1), Math.max(0, view.lines.length - bodyRows));
    body = view.lines.slice(top, top + bodyRows).map((line, i) => (
      <Text key={top + i} inverse={top + i === state.selected} wrap="truncate-end">
        {sanitizeForTerminal(line)}
      </Text>
    ));
  } else if (state.asking) {
    const paths = outsidePaths(state);
    const cursor = state.cursor ?? 0;
    const rows = bodyRows - 1;
    const top = Math.min(Math.max(0, cursor - rows + 1), Math.max(0, paths.length - rows));
    body = [
      <Text key="ask" wrap="truncate-end">
        Changed outside lindwyrm since the checkpoint. Overwrite [x], keep [ ]:
      </Text>,
      ...paths.slice(top, top + Math.max(0, rows)).map((path, i) => (
        <Text key={path} inverse={top + i === cursor} wrap="truncate-end">
          {`  ${state.marked?.includes(path) ? '[x]' : '[ ]'} ${sanitizeForTerminal(path)}`}
        </Text>
      )),
    ];
  } else {
    const top = Math.min(Math.max(0, state.scroll), Math.max(0, previewRows.length - bodyRows));
    body = previewRows.slice(top, top + bodyRows).map((row, i) => <LineView key={top + i} line={row} />);
  }
  if (compact) {
    return (
      <Box flexDirection="column" height={height} width={width} overflowY="hidden">
        {height > 0 ? (
          <Text bold color={state.asking ? 'yellow' : 'cyan'} wrap="truncate-end">
            {state.asking ? footer : `${title} · ${footer}`}
          </Text>
        ) : null}
        {body}
      </Box>
    );
  }
  return (
    <Box flexDirection="column" height={height} width={width} borderStyle="single" borderColor="cyan" overflowY="hidden">
      <Text bold color="cyan" wrap="truncate-end">{title}</Text>
      <Box flexDirection="column" height={bodyRows} overflowY="hidden">
        {body}
      </Box>
      <Text {...(state.asking ? { color: 'yellow' } : { dimColor: true })} wrap="truncate-end">
        {footer}
      </Text>
    </Box>
  );
});
