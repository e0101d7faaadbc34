/**
 * The approval modal's content as styled rows: what is asked and why, what [a]lways would grant,
 * the warnings about the text, and the body — the path, every line of the command (numbered when
 * there are several) and the numbered, highlighted diff. Pure.
 */
import type { PendingApproval } from '../../src/agent/state.js';
import { oneLine, sanitizeForTerminal } from '../text/sanitize.js';
import { diffRows } from '../diff/diff-rows.js';
import type { Segment, StyledLine } from '../text/styled-line.js';
import { wrapSegments, wrapText } from '../text/wrap.js';
import { theme } from '../theme.js';
import type { HeadRow } from './modal-plan.js';

/** A gutter of `digits` columns: the number right-aligned, then a bar. */
function gutter(n: number | undefined, digits: number): Segment {
  return { text: `${n === undefined ? ''.padStart(digits) : String(n).padStart(digits)} │`, style: theme.dim };
}

/** Every line of the command: `$ cmd` for one line; numbered lines for several. */
export function commandRows(command: string, width: number): StyledLine[] {
  const clean = sanitizeForTerminal(command);
  const lines = clean.replace(/\n+$/, '').split('\n');
  if (lines.length === 1) {
    return [
      [{ text: 'command', style: theme.dim }],
      ...wrapText(clean, width, { bold: true }, { firstPrefix: [{ text: '  $ ', style: theme.accent }], restPrefix: [{ text: '    ' }] }),
    ];
  }
  const digits = String(lines.length).length;
  const rows: StyledLine[] = [[{ text: `command, ${lines.length} lines`, style: theme.dim }]];
  lines.forEach((line, i) => {
    rows.push(...wrapSegments(line === '' ? [] : [{ text: line, style: { bold: true } }], width, { firstPrefix: [gutter(i + 1, digits + 1)], restPrefix: [gutter(undefined, digits + 1)] }));
  });
  return rows;
}

/** What [a]lways would grant, said before it is pressed (bash). */
function alwaysRows(req: PendingApproval, width: number): HeadRow[] {
  const preview = req.always;
  if (preview === undefined) return [];
  const key: Segment = { text: '[a]', style: { ...theme.accent, bold: true } };
  const segs: Segment[] = [key];
  if (preview.grants.length === 0) {
    segs.push({ text: 'lways is just this once here: nothing in it can be granted for the session' });
  } else {
    segs.push({ text: 'lways allows for this session: ' });
    preview.grants.forEach((g, i) => {
      if (i > 0) segs.push({ text: ', ' });
      segs.push({ text: g.text, style: { bold: true } });
      if (g.exact) segs.push({ text: ' (exactly)', style: theme.dim });
    });
  }
  const rows = rowsAt(0, wrapSegments(segs, width));
  const [first, ...others] = preview.refused;
  if (first !== undefined) {
    const more = others.length > 0 ? ` (+${others.length} more)` : '';
    // At most two rows: the part may be a whole long command, which the body shows (clipped or whole).
    const said = `asked every time: ${oneLine(first)}`;
    const room = Math.max(20, 2 * width - more.length - 1);
    const text = said.length > room ? `${said.slice(0, room - 1)}…` : said;
    rows.push(...rowsAt(1, wrapSegments([{ text: `${text}${more}`, style: theme.dim }], width)));
  }
  return rows;
}

/** What the … of a prefix grant stands for: the first thing a small screen gives up. */
function alwaysNote(req: PendingApproval, width: number): StyledLine[] {
  if (req.always?.grants.some((g) => !g.exact) !== true) return [];
  return wrapText('(… is any plain arguments, never another command)', width, theme.dim);
}

export interface ApprovalContent {
  /** Fixed above the body: the question, why, the warnings and what [a]lways grants (by importance, for small screens). */
  readonly head: readonly HeadRow[];
  /** Scrollable: the path / command / diff. */
  readonly body: readonly StyledLine[];
}

function rowsAt(priority: number, lines: readonly StyledLine[], firstPriority = priority): HeadRow[] {
  return lines.map((line, i) => ({ line, priority: i === 0 ? firstPriority : priority }));
}

/** The key that switches between the clipped first view and the whole text. */
export const WHOLE_TEXT_KEY = 'v';

/** `full`: the whole command and diff, not the clipped first view (req.clipped). */
export function approvalContent(req: PendingApproval, width: number, full = false): ApprovalContent {
  // Control characters in the text are named in the title itself: they are shown as escapes below.
  const titleText = req.titleNote !== undefined ? `${req.kind.toUpperCase()} requested (${oneLine(req.titleNote)}): ` : `${req.kind.toUpperCase()} requested: `;
  const title = wrapSegments([{ text: titleText, style: { ...theme.warning, bold: true } }, { text: oneLine(req.summary) }], width);
  const warnings = [...(req.warnings ?? []), ...(req.flags ?? [])].flatMap((w) => wrapSegments([{ text: `! ${oneLine(w)}`, style: { ...theme.warning, bold: true } }], width, { restPrefix: [{ text: '  ' }] }));
  const head: HeadRow[] = [
    ...rowsAt(3, title, 0),
    ...rowsAt(4, wrapText(sanitizeForTerminal(req.reason), width, theme.dim)),
    ...rowsAt(2, warnings),
    ...alwaysRows(req, width),
    ...rowsAt(5, alwaysNote(req, width)),
  ];
  if (req.clipped !== undefined) {
    const note = full ? `whole text shown · ${WHOLE_TEXT_KEY} clips long lines again` : `${oneLine(req.clipped.note)} · ${WHOLE_TEXT_KEY} shows the whole text`;
    head.push(...rowsAt(2, wrapText(note, width, theme.warning)));
  }
  const command = full ? req.command : (req.clipped?.command ?? req.command);
  const diff = full ? req.diff : (req.clipped?.diff ?? req.diff);
  const body: StyledLine[] = [];
  if (req.path !== undefined) {
    // A newline in a file name is shown as \n: the real name, on the path's own rows.
    body.push(...wrapSegments([{ text: 'path ', style: theme.dim }, { text: sanitizeForTerminal(req.path).replaceAll('\n', '\\n'), style: { bold: true } }], width));
  }
  // Already escaped by the engine; sanitized again in case a control slipped through.
  if (command !== undefined) body.push(...commandRows(command, width));
  if (diff !== undefined && diff.lines.length > 0) body.push(...diffRows(diff, width, req.path));
  return { head, body };
}

/** The rule [s]ave would append, and where, for the step that shows it before it is written. */
export function saveRows(req: PendingApproval, width: number): StyledLine[] {
  if (req.save === undefined) return [];
  return [
    ...wrapSegments([{ text: '[s]ave appends this to ', style: theme.dim }, { text: sanitizeForTerminal(req.save.file), style: { bold: true } }, { text: ' (nothing else in it changes):', style: theme.dim }], width),
    ...wrapText(sanitizeForTerminal(req.save.block.replace(/\n$/, '')), width, theme.codeBlock, { firstPrefix: [{ text: '  ' }] }),
  ];
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
  if (req.kind === 'bash' && req.always !== undefined) return req.always.grants.length > 0 ? 'always (as above)' : 'always (just this once here)';
  if (outside) return 'always (outside the project: just this once)';
  if (req.kind === 'mcp') return 'always (this tool, this session)';
  return `always (${req.kind}${req.kind === 'bash' ? '' : ', inside the project'})`;
}
