import { memo, useMemo } from 'react';
import { Box, Text } from 'ink';
import TextInput from 'ink-text-input';
import type { PendingApproval } from '../../src/agent/state.js';
import { LineView, borderColor } from '../text/line-view.js';
import { theme } from '../theme.js';
import type { StyledLine } from '../text/styled-line.js';
import { approvalContent, isOutside, saveRows } from './approval-rows.js';
import { keyRows, reasonKeyRows, saveKeyRows } from './approval-keys.js';
import { planModal } from './modal-plan.js';
import { textWidth } from '../text/char-width.js';

export { approvalKeysForm } from './approval-keys.js';

/** What the modal shows: the answers, the reason field of [t]ell, or the rule [s]ave would write. */
export type ModalMode = 'choose' | 'reason' | 'save';

/** Rows the modal wants for this request (border included), bounded by `maxRows`. */
export function approvalHeight(req: PendingApproval, width: number, maxRows: number, full = false): number {
  const inner = Math.max(1, width - 2);
  const { head, body } = approvalContent(req, inner, full);
  const keys = keyRows(req, inner, { scrollable: false });
  return Math.max(6, Math.min(maxRows, head.length + body.length + keys.length + 2));
}

/** Keeps the reason a single line of text: no newlines, no paste markers, no control characters. */
export function cleanReason(text: string): string {
  // eslint-disable-next-line no-control-regex -- removing control characters is the point
  return text.replace(/\[20[01]~/g, '').replace(/[\r\n\t]+/g, ' ').replace(/[\u0000-\u001f\u007f]/g, '');
}

/**
 * The approval modal: replaces the input area while open (or, on a short screen, the whole
 * screen). Border 2 rows; the head (what is asked, why, what [a]lways grants, warnings) fixed; the
 * body (path, numbered command, numbered diff) scrolled by `scroll`; the keys at the bottom.
 */
export const ApprovalModal = memo(function ApprovalModal({
  request,
  width,
  height,
  scroll,
  maxRef,
  pageRef,
  projectRoot,
  mode = 'choose',
  reason = '',
  onReason,
  onReasonSubmit,
  full = false,
}: {
  readonly request: PendingApproval;
  /** The whole command and diff instead of the clipped first view. */
  readonly full?: boolean;
  /** To tell a path outside the project, where [a]lways cannot grant more than this once. */
  readonly projectRoot?: string;
  readonly width: number;
  readonly height: number;
  readonly scroll: number;
  /** Receives how far the body can scroll, for the scroll keys. */
  readonly maxRef?: { current: number };
  /** Receives how many rows PgUp / PgDn move: the rows of body visible beside the "more" marker. */
  readonly pageRef?: { current: number };
  readonly mode?: ModalMode;
  /** The reason field's text ([t]ell). */
  readonly reason?: string;
  readonly onReason?: (text: string) => void;
  readonly onReasonSubmit?: (text: string) => void;
}) {
  const inner = Math.max(1, width - 2);
  const innerRows = Math.max(0, height - 2);
  const content = useMemo(() => approvalContent(request, inner, full), [request, inner, full]);
  const outside = isOutside(request, projectRoot);
  const body = useMemo(() => (mode === 'save' ? saveRows(request, inner) : content.body), [mode, request, inner, content]);
  const fieldRows = mode === 'reason' ? Math.min(3, Math.max(1, Math.ceil((textWidth(reason) + 3) / inner))) : 0;
  const bottom = (scrollable: boolean, above: number): StyledLine[] =>
    mode === 'reason' ? reasonKeyRows(inner) : mode === 'save' ? saveKeyRows(inner) : keyRows(request, inner, { outside, above, scrollable });
  // The first row under the body (the main answers) and the reason field always show.
  const plan = planModal({ head: content.head, bodyLength: body.length, innerRows, fixedRows: 1 + fieldRows, optionalRows: (s) => bottom(s, 0).length - 1 });
  const maxScroll = plan.bodyRows === 0 ? 0 : Math.max(0, body.length - plan.bodyRows);
  if (maxRef) maxRef.current = maxScroll;
  if (pageRef) pageRef.current = Math.max(1, plan.bodyRows - 1);
  const top = Math.min(Math.max(0, scroll), maxScroll);
  // When more follows, the last row says so instead of showing a line.
  const more = body.length - (top + plan.bodyRows);
  const visible = more > 0 ? body.slice(top, top + plan.bodyRows - 1) : body.slice(top, top + plan.bodyRows);
  const keys = bottom(plan.scrollable, top).slice(0, 1 + plan.optionalRows);
  const withSummary = plan.head.length === 0 && mode === 'choose';
  return (
    <Box flexDirection="column" height={height} width={width} borderStyle="round" {...borderColor(theme.warning)} overflowY="hidden">
      {plan.head.map((row, i) => (
        <LineView key={`h${i}`} line={row} />
      ))}
      <Box flexDirection="column" height={plan.bodyRows} overflowY="hidden">
        {visible.map((row, i) => (
          <LineView key={`b${top + i}`} line={row} />
        ))}
        {more > 0 && plan.bodyRows > 0 ? (
          <Text inverse wrap="truncate-end">{` ↓ ${more + 1} more lines · PgDn/End `}</Text>
        ) : null}
      </Box>
      {mode === 'reason' ? (
        <Box height={fieldRows} width={inner} overflowY="hidden">
          <Text color="cyan">{'› '}</Text>
          <Box width={Math.max(1, inner - 2)} height={fieldRows}>
            <TextInput
              value={reason}
              placeholder="what should it do instead?"
              onChange={(text) => onReason?.(cleanReason(text))}
              onSubmit={(text) => onReasonSubmit?.(cleanReason(text))}
            />
          </Box>
        </Box>
      ) : null}
      {keys.map((row, i) => (
        <LineView key={`k${i}`} line={withSummary && i === 0 ? [...row, { text: ` · ${request.kind.toUpperCase()} ${request.summary.split('\n')[0] ?? ''}` }] : row} />
      ))}
    </Box>
  );
});
