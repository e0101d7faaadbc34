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

export function approvalContent(req: PendingApproval, width: number): ApprovalContent {
  const head: StyledLine[] = [
    ...wrapSegments([{ text: `${req.kind.toUpperCase()} requested: `, style: { ...theme.warning, bold: true } }, { text: oneLine(req.summary) }], width),
    ...wrapText(sanitizeForTerminal(req.reason), width, theme.dim),
  ];
  const body: StyledLine[] = [];
  if (req.path !== undefined) {
    // A newline in a file name is shown as \n: the real name, on the path's own rows.
    body.push(...wrapSegments([{ text: 'path ', style: theme.dim }, { text: sanitizeForTerminal(req.path).replaceAll('\n', '\\n'), style: { bold: true } }], width));
  }
  if (req.command !== undefined) {
    // Already escaped by the engine; sanitized again in case a control slipped through.
    body.push([{ text: 'command', style: theme.dim }]);
    body.push(...wrapText(sanitizeForTerminal(req.command), width, { bold: true }, { firstPrefix: [{ text: '  $ ', style: theme.accent }], restPrefix: [{ text: '    ' }] }));
  }
  if (req.diff !== undefined && req.diff.lines.length > 0) body.push(...diffRows(req.diff, width, req.path));
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
