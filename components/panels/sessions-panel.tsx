import { memo } from 'react';
import { Box, Text } from 'ink';
import type { SessionSummary } from '../../src/sessions/types.js';
import { formatCost, formatTokens } from '../status/context-meter.js';
import { sanitizeForTerminal } from '../text/sanitize.js';
import { MIN_BORDERED_ROWS } from './text-panel.js';
import { borderColor, inkTextProps } from '../text/line-view.js';
import { theme } from '../theme.js';

export function sessionRow(s: SessionSummary, currentId: string): string {
  const when = s.updatedAt.replace('T', ' ').slice(0, 16);
  const cost = s.cost === null ? '' : ` · ${formatCost(s.cost)}`;
  const first = sanitizeForTerminal(s.firstPrompt).replaceAll('\n', ' ');
  return `${s.id === currentId ? '*' : ' '} ${s.id.slice(0, 8)}  ${when}  ${s.turns} turn${s.turns === 1 ? '' : 's'} · ${formatTokens(s.tokens)} tok${cost}  ${first}`;
}

/** /sessions: ↑↓ choose, Enter resumes, d deletes (after a y to confirm), Esc closes. */
export const SessionsPanel = memo(function SessionsPanel({
  sessions,
  selected,
  confirmDelete,
  currentId,
  width,
  height,
}: {
  readonly sessions: readonly SessionSummary[];
  readonly selected: number;
  readonly confirmDelete: boolean;
  readonly currentId: string;
  readonly width: number;
  readonly height: number;
}) {
  // Too short for a border: the prompt line (or the delete question), then as many sessions as fit.
  const compact = height < MIN_BORDERED_ROWS;
  const listRows = compact ? Math.max(0, height - 1) : Math.max(1, height - 4);
  const top = Math.min(Math.max(0, selected - listRows + 1), Math.max(0, sessions.length - listRows));
  const chosen = sessions[selected];
  const list = sessions.slice(top, top + listRows).map((s, i) => (
    <Text key={s.id} inverse={top + i === selected} wrap="truncate-end">
      {sessionRow(s, currentId)}
    </Text>
  ));
  if (compact) {
    return (
      <Box flexDirection="column" height={height} width={width} overflowY="hidden">
        {height === 0 ? null : confirmDelete && chosen ? (
          <Text {...inkTextProps(theme.danger)} wrap="truncate-end">Delete {chosen.id.slice(0, 8)}? y deletes</Text>
        ) : (
          <Text {...inkTextProps(theme.panelTitle)} wrap="truncate-end">Sessions ({sessions.length}) · Enter resumes · d deletes · Esc closes</Text>
        )}
        {list}
      </Box>
    );
  }
  return (
    <Box flexDirection="column" height={height} width={width} borderStyle="single" {...borderColor(theme.panelTitle)} overflowY="hidden">
      <Text {...inkTextProps(theme.panelTitle)} wrap="truncate-end">Sessions of this project ({sessions.length})</Text>
      <Box flexDirection="column" height={listRows} overflowY="hidden">
        {sessions.length === 0 ? <Text dimColor>No saved sessions yet.</Text> : null}
        {list}
      </Box>
      {confirmDelete && chosen ? (
        <Text {...inkTextProps(theme.danger)} wrap="truncate-end">Delete session {chosen.id.slice(0, 8)}? y deletes, any other key keeps it</Text>
      ) : (
        <Text dimColor wrap="truncate-end">↑↓ choose · Enter resumes · d deletes · Esc closes</Text>
      )}
    </Box>
  );
});
