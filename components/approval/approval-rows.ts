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

/** The key that switches between the clipped first view and the whole text. */
export const WHOLE_TEXT_KEY = 'v';

/** `full`: the whole command and diff, not the clipped first view (req.clipped). */
export function approvalContent(req: ApprovalRequest, width: number, full = false): ApprovalContent {
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
  if (diff !== undefined && diff !== '') body.push(...diffRows(diff, width));
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
  return `always (${req.kind}${req.kind === 'bash' ? '' : ', inside the project'})`;
}
