/**
 * Rewind as plain lines of text: the checkpoint list, a preview, what a rewind did. The same text
 * for `lwyrm --rewind`, the slash command and the picker's fallback. Paths and prompts come from
 * files and the model: every one is escaped before it reaches a terminal.
 */
import { escapeFileName, escapeForDisplay } from '../policy/escape.js';
import type { OpResult } from './apply-restore.js';
import type { RecoveredRestore, RewindReport } from './rewind-restore.js';
import type { CheckpointSummary, PreviewItem, RestoreAction, RewindPreview } from './summaries.js';
import type { PathState } from './types.js';
import type { RewindStats } from './rewind-service.js';

export function oneLine(text: string, max = 60): string {
  const flat = escapeForDisplay(text.replace(/\s+/g, ' ').trim());
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

export function lineCounts(added: number, removed: number): string {
  return `+${added} −${removed}`;
}

/** '3 files +12 −4' / 'no file changes'. */
export function filesPhrase(s: Pick<CheckpointSummary, 'files' | 'added' | 'removed'>): string {
  if (s.files === 0) return 'no file changes';
  return `${s.files} file${s.files === 1 ? '' : 's'} ${lineCounts(s.added, s.removed)}`;
}

export function checkpointTitle(s: Pick<CheckpointSummary, 'kind' | 'prompt' | 'target'>): string {
  if (s.kind === 'rewind') return `↶ ${oneLine(s.prompt)}`;
  return oneLine(s.prompt) || '(a command between turns)';
}

export function formatCheckpointLine(s: CheckpointSummary): string {
  const when = s.at.replace('T', ' ').slice(0, 16);
  const outside = s.changedOutside > 0 ? ` · ⚠ ${s.changedOutside} changed outside lindwyrm since` : '';
  return `${String(s.id).padStart(3)}  ${when}  ${checkpointTitle(s)}  · ${filesPhrase(s)}${outside}`;
}

export function formatCheckpointList(list: readonly CheckpointSummary[]): string {
  if (list.length === 0) return 'No checkpoints yet: every prompt makes one.';
  return [
    'Checkpoints (newest first). /rewind N [code|conversation|both] previews going back to before N.',
    ...list.map(formatCheckpointLine),
  ].join('\n');
}

const VERB: Record<RestoreAction, string> = {
  restore: 'restore',
  delete: 'delete',
  recreate: 'recreate',
  mode: 'mode',
  relink: 'relink',
  replace: 'replace',
};

export function previewItemLine(item: PreviewItem): string {
  const name = `${escapeFileName(item.path)}${item.folder ? '/' : ''}`;
  const counts = item.added !== undefined && item.removed !== undefined && (item.added > 0 || item.removed > 0) ? ` (${lineCounts(item.added, item.removed)})` : '';
  const flag = item.unrestorable ? `  ✗ cannot restore: ${item.unrestorable}` : item.changedOutside ? '  ⚠ changed outside lindwyrm since' : '';
  return `  ${VERB[item.action].padEnd(8)} ${name}${counts}${flag}`;
}

export function formatPreview(preview: RewindPreview, part: 'code' | 'conversation' | 'both'): string {
  const lines = [`Going back to before ${preview.id} (${oneLine(preview.prompt) || 'a command between turns'}):`];
  if (part !== 'conversation') {
    if (preview.items.length === 0) lines.push('  files: nothing to change, they are as they were');
    else lines.push(...preview.items.map(previewItemLine));
  }
  if (part !== 'code') {
    lines.push(
      preview.droppedMessages === undefined
        ? '  conversation: not kept for this checkpoint'
        : `  conversation: back to before that prompt (${preview.droppedMessages} message(s) dropped); the prompt returns to the input`,
    );
  }
  if (preview.changedOutside > 0) {
    lines.push(`${preview.changedOutside} file(s) changed outside lindwyrm since: kept unless you confirm overwriting them.`);
  }
  return lines.join('\n');
}

function stateWord(state: PathState): string {
  if (state === null) return 'nothing';
  return state.kind === 'dir' ? 'folder' : state.kind === 'link' ? 'link' : 'file';
}

function resultLine(r: OpResult): string {
  const name = escapeFileName(r.op.path);
  if (r.outcome === 'kept') return `  kept     ${name}: ${r.detail ?? 'not restored'}`;
  if (r.outcome === 'failed') return `  failed   ${name}: ${escapeForDisplay(r.detail ?? 'unknown error')}`;
  if (r.op.to === null) return `  deleted  ${name}`;
  if (r.op.from === null) return `  recreated ${name} (${stateWord(r.op.to)})`;
  return `  restored ${name}`;
}

export function formatReport(report: RewindReport): string {
  const restored = report.results.filter((r) => r.outcome === 'done' || r.outcome === 'already').length;
  const lines = [`Rewound to before ${report.target.id} (${oneLine(report.target.prompt) || 'a command between turns'}): ${restored} path(s) restored.`];
  lines.push(...report.results.map(resultLine));
  for (const item of report.keptChanged) lines.push(`  kept     ${escapeFileName(item.path)}: changed outside lindwyrm since (not overwritten)`);
  for (const item of report.unrestorable) lines.push(`  skipped  ${escapeFileName(item.path)}: ${item.unrestorable ?? ''}`);
  if (report.conversation) lines.push(`  conversation: back to before that prompt (${report.conversation.history.length} message(s) kept)`);
  lines.push(`This rewind is checkpoint ${report.checkpoint.id}: going back to it undoes the rewind.`);
  return lines.join('\n');
}

export function describeRecovery(r: RecoveredRestore): string {
  const done = r.results.filter((x) => x.outcome === 'done' || x.outcome === 'already').length;
  const kept = r.results.length - done;
  return `Finished a restore that was cut short (rewind to ${r.target}, session ${r.session}): ${done} path(s) restored${kept > 0 ? `, ${kept} left as they are (changed since)` : ''}.`;
}

function megabytes(bytes: number): string {
  return `${(bytes / 1048576).toFixed(1)} MB`;
}

/** The lines /context adds about what rewind holds. */
export function formatRewindStats(stats: RewindStats): string[] {
  if (!stats.enabled) return ['rewind: off (rewind_max_mb = 0)'];
  const lines = [
    `rewind: ${stats.checkpoints} checkpoint(s), ${stats.withChanges} with file changes · store ${megabytes(stats.storeBytes)} of ${megabytes(stats.maxBytes)} (rewind_max_mb)`,
    stats.trackedPaths > 0 ? `rewind tracks ${stats.trackedPaths} paths of the project` : 'rewind: the project is read at the first command',
  ];
  if (stats.untracked.length > 0) lines.push(`rewind does not track: ${stats.untracked.map((u) => escapeForDisplay(u)).join(', ')}`);
  return lines;
}
