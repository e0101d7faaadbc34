/** The approval modal's content as styled rows: what is asked, where, and the coloured diff. Pure. */
import type { ApprovalRequest } from '../../src/policy/types.js';
import { oneLine, sanitizeForTerminal } from '../text/sanitize.js';
import type { StyledLine, TextStyle } from '../text/styled-line.js';
import { wrapSegments, wrapText } from '../text/wrap.js';
import { theme } from '../theme.js';

function diffStyle(line: string): TextStyle | undefined {
  if (line.startsWith('+++') || line.startsWith('---')) return theme.diffHeader;
  if (line.startsWith('+')) return theme.diffAdd;
  if (line.startsWith('-')) return theme.diffDel;
  if (line.startsWith('@@')) return theme.diffHunk;
  if (line.startsWith('\\')) return theme.dim;
  return undefined;
}

/** createPatch's "Index: path" and "=====" lines: they repeat the path above and cost two rows of a small modal. */
function dropPatchPreamble(lines: string[]): string[] {
  let i = 0;
  while (i < lines.length && i < 2 && (lines[i]!.startsWith('Index: ') || /^={10,}$/.test(lines[i]!))) i++;
  return i === 0 ? lines : lines.slice(i);
}

export function diffRows(diff: string, width: number): StyledLine[] {
  const rows: StyledLine[] = [];
  for (const line of dropPatchPreamble(sanitizeForTerminal(diff.replace(/\n$/, '')).split('\n'))) {
    const style = diffStyle(line);
    rows.push(...wrapSegments(line === '' ? [] : [style === undefined ? { text: line } : { text: line, style }], width));
  }
  return rows;
}

export interface ApprovalContent {
  /** Always shown: the question. */
  readonly head: readonly StyledLine[];
  /** Scrollable: the path / command / diff. */
  readonly body: readonly StyledLine[];
}

export function approvalContent(req: ApprovalRequest, width: number): ApprovalContent {
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
  if (req.diff !== undefined && req.diff !== '') body.push(...diffRows(req.diff, width));
  return { head, body };
}

/** Whether "always" grants nothing beyond this once: the path is outside the project, or may be. */
export function isOutside(req: ApprovalRequest, projectRoot: string | undefined): boolean {
  if (req.alwaysGrants !== undefined) return !req.alwaysGrants;
  if (req.path === undefined || projectRoot === undefined || projectRoot === '') return false;
  const root = projectRoot.replace(/[/\\]+$/, '');
  if (req.path === root) return false;
  return !req.path.startsWith(`${root}/`) && !req.path.startsWith(`${root}\\`);
}

export function alwaysLabel(req: ApprovalRequest, outside = false): string {
  if (outside) return 'always (outside the project: just this once)';
  if (req.kind === 'mcp') return 'always (this tool, this session)';
  return `always (${req.kind}${req.kind === 'bash' ? '' : ', inside the project'})`;
}
