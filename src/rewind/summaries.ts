/**
 * The checkpoints and a planned restore as plain data for the picker, the slash command's text and
 * `--rewind`: per checkpoint its prompt, how many files it changed (+added −removed lines), and
 * whether a file changed outside lindwyrm since; per planned path what the restore would do.
 */
import type { LineCounter } from './line-counts.js';
import { chainsFrom, planRestore } from './restore-plan.js';
import type { Checkpoint, PathState, PlannedRestore, RestorePlan } from './types.js';
import { sameContents, sameState } from './types.js';

export interface CheckpointSummary {
  readonly id: number;
  readonly kind: Checkpoint['kind'];
  readonly at: string;
  readonly prompt: string;
  readonly target?: number;
  /** Paths this checkpoint itself changed (folders included). */
  readonly files: number;
  readonly added: number;
  readonly removed: number;
  /** Paths a restore to here would find changed outside lindwyrm since. */
  readonly changedOutside: number;
  /** Whether going back restores the conversation too (a command between turns has none). */
  readonly hasConversation: boolean;
  readonly notes: readonly string[];
}

export type RestoreAction = 'restore' | 'delete' | 'recreate' | 'mode' | 'relink' | 'replace';

export interface PreviewItem {
  readonly path: string;
  readonly action: RestoreAction;
  readonly added?: number;
  readonly removed?: number;
  readonly changedOutside: boolean;
  readonly unrestorable?: string;
  /** A folder (shown with a trailing '/'). */
  readonly folder: boolean;
}

export interface RewindPreview {
  readonly id: number;
  readonly prompt: string;
  readonly items: readonly PreviewItem[];
  readonly changedOutside: number;
  readonly unrestorable: number;
  /** Messages the conversation restore would drop (undefined: no conversation to restore). */
  readonly droppedMessages?: number;
}

export function actionOf(current: PathState, target: PathState): RestoreAction {
  if (target === null) return 'delete';
  if (current === null) return 'recreate';
  if (current.kind !== target.kind) return 'replace';
  if (target.kind === 'link') return 'relink';
  return sameContents(current, target) ? 'mode' : 'restore';
}

async function previewItem(item: PlannedRestore, count: LineCounter): Promise<PreviewItem> {
  const delta = await count(item.current, item.target);
  return {
    path: item.path,
    action: actionOf(item.current, item.target),
    ...(delta ? { added: delta.added, removed: delta.removed } : {}),
    changedOutside: item.changedOutside,
    ...(item.unrestorable ? { unrestorable: item.unrestorable } : {}),
    folder: item.target?.kind === 'dir' || (item.target === null && item.current?.kind === 'dir'),
  };
}

export async function previewOf(plan: RestorePlan, prompt: string, count: LineCounter, droppedMessages?: number): Promise<RewindPreview> {
  const items: PreviewItem[] = [];
  for (const item of plan.items) items.push(await previewItem(item, count));
  return {
    id: plan.checkpoint,
    prompt,
    items,
    changedOutside: items.filter((i) => i.changedOutside).length,
    unrestorable: items.filter((i) => i.unrestorable !== undefined).length,
    ...(droppedMessages !== undefined ? { droppedMessages } : {}),
  };
}

export interface SummaryInputs {
  readonly checkpoints: readonly Checkpoint[];
  readonly current: (path: string) => Promise<PathState>;
  readonly count: LineCounter;
}

/** Every checkpoint, newest first, each with what a restore to it would find changed outside. */
export async function summarize(inputs: SummaryInputs): Promise<CheckpointSummary[]> {
  const memo = new Map<string, Promise<PathState>>();
  const current = (path: string): Promise<PathState> => {
    let state = memo.get(path);
    if (!state) memo.set(path, (state = inputs.current(path)));
    return state;
  };
  const out: CheckpointSummary[] = [];
  for (const cp of inputs.checkpoints) {
    let added = 0;
    let removed = 0;
    // A path changed and changed back within the checkpoint is no change.
    const changes = [...cp.changes.values()].filter((c) => !sameState(c.before, c.after));
    for (const change of changes) {
      const delta = await inputs.count(change.before, change.after);
      added += delta?.added ?? 0;
      removed += delta?.removed ?? 0;
    }
    const plan = chainsFrom(inputs.checkpoints, cp.id).size > 0 ? await planRestore({ checkpoints: inputs.checkpoints, id: cp.id, current, hasBlob: () => true }) : undefined;
    out.push({
      id: cp.id,
      kind: cp.kind,
      at: cp.at,
      prompt: cp.prompt,
      ...(cp.target !== undefined ? { target: cp.target } : {}),
      files: changes.length,
      added,
      removed,
      changedOutside: plan?.items.filter((i) => i.changedOutside).length ?? 0,
      hasConversation: cp.conversation !== undefined,
      notes: cp.notes,
    });
  }
  return out.reverse();
}
