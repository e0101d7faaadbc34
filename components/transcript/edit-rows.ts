/**
 * A file change in the transcript: one line ("→ edit prices.py +1 −4"), the diff one key away
 * (Ctrl+O shows it, numbered and highlighted, under the line). Pure.
 */
import type { TranscriptChange } from '../../src/agent/state.js';
import { diffRows } from '../diff/diff-rows.js';
import { oneLine } from '../text/sanitize.js';
import type { Segment, StyledLine } from '../text/styled-line.js';
import { wrapSegments } from '../text/wrap.js';
import { theme } from '../theme.js';

/** "edit prices.py +1 −4" as styled segments (a true minus sign, as diff tools print it). */
export function changeSummary(change: TranscriptChange): Segment[] {
  const segs: Segment[] = [{ text: `${change.verb} ${oneLine(change.path)} `, style: theme.tool }, { text: `+${change.added}`, style: theme.diffAdd }];
  if (change.verb !== 'create') segs.push({ text: ' ' }, { text: `\u2212${change.removed}`, style: theme.diffDel });
  return segs;
}

export function editRows(change: TranscriptChange, width: number, expanded: boolean): StyledLine[] {
  const hasDiff = change.diff !== undefined && change.diff.lines.length > 0;
  const hint: Segment[] = hasDiff ? [{ text: expanded ? '  (Ctrl+O hides the diff)' : '  (Ctrl+O shows the diff)', style: theme.dim }] : [];
  const rows = wrapSegments([...changeSummary(change), ...hint], width, {
    firstPrefix: [{ text: '→ ', style: theme.tool }],
    restPrefix: [{ text: '  ' }],
  });
  if (expanded && hasDiff) {
    for (const row of diffRows(change.diff!, Math.max(1, width - 2), change.path)) rows.push([{ text: '  ' }, ...row]);
  }
  return rows;
}
