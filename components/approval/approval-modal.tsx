import { memo, useMemo } from 'react';
import { Box, Text } from 'ink';
import type { PendingApproval } from '../../src/agent/state.js';
import { alwaysLabel, approvalContent, isOutside } from './approval-rows.js';
import { oneLine } from '../text/sanitize.js';
import { LineView, borderColor, inkTextProps } from '../text/line-view.js';
import { theme } from '../theme.js';

/** Height the modal wants for this request, bounded by what the screen allows. */
export function approvalHeight(req: PendingApproval, width: number, maxRows: number): number {
  const { head, body } = approvalContent(req, width - 2);
  return Math.max(6, Math.min(maxRows, head.length + body.length + 3));
}

/**
 * The approval modal: replaces the input area while open. Border 2 rows, footer 1, the head
 * fixed and the body (path, command, diff) scrolled by `scroll`.
 */
export const ApprovalModal = memo(function ApprovalModal({
  request,
  width,
  height,
  scroll,
  maxRef,
  pageRef,
  projectRoot,
}: {
  readonly request: PendingApproval;
  /** To tell a path outside the project, where [a]lways cannot grant more than this once. */
  readonly projectRoot?: string;
  readonly width: number;
  readonly height: number;
  readonly scroll: number;
  /** Receives how far the body can scroll, for the scroll keys. */
  readonly maxRef?: { current: number };
  /** Receives how many rows PgUp / PgDn move: the rows of diff visible beside the "more" marker. */
  readonly pageRef?: { current: number };
}) {
  const inner = width - 2;
  const { head, body } = useMemo(() => approvalContent(request, inner), [request, inner]);
  // Inside the border: the head, the body and the keys. The keys always get their row, then the head.
  const innerRows = Math.max(0, height - 2);
  const headRows = Math.min(head.length, Math.max(0, innerRows - 1));
  const bodyRows = Math.max(0, innerRows - 1 - headRows);
  const maxScroll = bodyRows === 0 ? 0 : Math.max(0, body.length - bodyRows);
  if (maxRef) maxRef.current = maxScroll;
  if (pageRef) pageRef.current = Math.max(1, bodyRows - 1);
  const top = Math.min(Math.max(0, scroll), maxScroll);
  // When more follows, the last row says so instead of showing a line.
  const more = body.length - (top + bodyRows);
  const visible = more > 0 ? body.slice(top, top + bodyRows - 1) : body.slice(top, top + bodyRows);
  return (
    <Box flexDirection="column" height={height} width={width} borderStyle="round" {...borderColor(theme.warning)} overflowY="hidden">
      {head.slice(0, headRows).map((row, i) => (
        <LineView key={`h${i}`} line={row} />
      ))}
      <Box flexDirection="column" height={bodyRows} overflowY="hidden">
        {visible.map((row, i) => (
          <LineView key={`b${top + i}`} line={row} />
        ))}
        {more > 0 && bodyRows > 0 ? (
          <Text inverse wrap="truncate-end">{` ↓ ${more + 1} more lines · ↑↓ PgUp/PgDn scroll `}</Text>
        ) : null}
      </Box>
      <ApprovalKeys request={request} width={inner} above={top} withSummary={headRows === 0} outside={isOutside(request, projectRoot)} />
    </Box>
  );
});

/** The answer keys; shorter forms when the full line does not fit, so [q]uit is never cut off. */
export function approvalKeysForm(request: PendingApproval, width: number, outside = false): 'full' | 'short' | 'letters' {
  const full = `[y]es  [n]o  [a]${alwaysLabel(request, outside).slice(1)}  [q]uit turn`;
  if (full.length <= width) return 'full';
  return '[y]es [n]o [a]lways [q]uit'.length <= width ? 'short' : 'letters';
}

function ApprovalKeys({
  request,
  width,
  above,
  withSummary,
  outside,
}: {
  readonly request: PendingApproval;
  readonly width: number;
  readonly above: number;
  readonly outside: boolean;
  /** No room for the head: the keys row says what is asked, after the keys. */
  readonly withSummary: boolean;
}) {
  const form = approvalKeysForm(request, width, outside);
  const gap = form === 'full' ? '  ' : ' ';
  return (
    <Text wrap="truncate-end">
      {form === 'letters' ? (
        <>
          <Text {...inkTextProps(theme.keyYes)}>y</Text>/<Text {...inkTextProps(theme.keyNo)}>n</Text>/<Text {...inkTextProps(theme.keyAlways)}>a</Text>/<Text {...inkTextProps(theme.keyQuit)}>q</Text>
        </>
      ) : (
        <>
          <Text {...inkTextProps(theme.keyYes)}>[y]</Text>es{gap}<Text {...inkTextProps(theme.keyNo)}>[n]</Text>o{gap}<Text {...inkTextProps(theme.keyAlways)}>[a]</Text>
          {form === 'full' ? alwaysLabel(request, outside).slice(1) : 'lways'}{gap}<Text {...inkTextProps(theme.keyQuit)}>[q]</Text>uit{form === 'full' ? ' turn' : ''}
        </>
      )}
      <Text dimColor>{above > 0 ? `  (${above} lines above)` : ''}</Text>
      {withSummary ? ` · ${request.kind.toUpperCase()} ${oneLine(request.summary)}` : null}
    </Text>
  );
}
