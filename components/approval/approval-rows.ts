/** The approval modal's content as styled rows: what is asked, where, and the numbered, highlighted diff. Pure. */
import type { PendingApproval } from '../../src/agent/state.js';
import { oneLine, sanitizeForTerminal } from '../text/sanitize.js';
import { diffRows } from '../diff/diff-rows.js';
import type { StyledLine } from '../text/styled-line.js';
import { wrapSegments, wrapText } from '../text/wrap.js';
import { theme } from '../theme.js';

export interface ApprovalContent {
  /** Always shown: the question. */
  readonly head: readonly StyledLine[];
  /** Scrollable: the path / command / diff. */
  readonly body: readonly StyledLine[];
}

/** The key that switches between the clipped first view and the whole text. */
export const WHOLE_TEXT_KEY = 'v';

/** `full`: the whole command and diff, not the clipped first view (req.clipped). */
export function approvalContent(req: PendingApproval, width: number, full = false): ApprovalContent {
  // Control characters in the text are named in the title itself: they are shown as escapes below.
  const title = req.titleNote !== undefined ? `${req.kind.toUpperCase()} requested (${oneLine(req.titleNote)}): ` : `${req.kind.toUpperCase()} requested: `;
  const head: StyledLine[] = [
    ...wrapSegments([{ text: title, style: { ...theme.warning, bold: true } }, { text: oneLine(req.summary) }], width),
    ...wrapText(sanitizeForTerminal(req.reason), width, theme.dim),
  ];
  for (const flag of req.flags ?? []) head.push(...wrapText(`⚠ ${sanitizeForTerminal(flag)}`, width, theme.warning));
  if (req.clipped !== undefined) {
    const note = full ? `whole text shown · ${WHOLE_TEXT_KEY} clips long lines again` : `${oneLine(req.clipped.note)} · ${WHOLE_TEXT_KEY} shows the whole text`;
    head.push(...wrapText(note, width, theme.warning));
  }
  const command = full ? req.command : (req.clipped?.command ?? req.command);
  const diff = full ? req.diff : (req.clipped?.diff ?? req.diff);
  const body: StyledLine[] = [];
  if (req.path !== undefined) {
    // A newline in a file name is shown as \n: the real name, on the path's own rows.
    body.push(...wrapSegments([{ text: 'path ', style: theme.dim }, { text: sanitizeForTerminal(req.path).replaceAll('\n', '\\n'), style: { bold: true } }], width));
  }
  if (command !== undefined) {
    // Already escaped by the engine; sanitized again in case a control slipped through.
    body.push([{ text: 'command', style: theme.dim }]);
    body.push(...wrapText(sanitizeForTerminal(command), width, { bold: true }, { firstPrefix: [{ text: '  $ ', style: theme.accent }], restPrefix: [{ text: '    ' }] }));
  }
  if (diff !== undefined && diff.lines.length > 0) body.push(...diffRows(diff, width, req.path));
  return { head, body };
}

/** Whether "always" grants nothing beyond this once: the path is outside the project, or may be. */
export function isOutside(req: PendingApproval, projectRoot: string | undefined): boolean {
  if (req.alwaysGrants !== undefined) return !req.alwaysGrants;
  if (req.path === undefined || projectRoot === undefined || projectRoot === '') return false;
  const root = projectRoot.replace(/[/\\]+$/, '');
  if (req.path === root) return false;
  return !req.path.startsWith(`${root}/`) && !req.path.startsWith(`${root}\\`);
}

export function alwaysLabel(req: PendingApproval, outside = false): string {
  if (outside) return 'always (outside the project: just this once)';
  if (req.kind === 'mcp') return 'always (this tool, this session)';
  return `always (${req.kind}${req.kind === 'bash' ? '' : ', inside the project'})`;
}
