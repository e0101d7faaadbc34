/**
 * Going back to a checkpoint: the code (every path its checkpoint and the later ones changed, put
 * back as it was), the conversation (the history as it stood before its prompt), or both. The
 * rewind is itself a checkpoint: it records what it changed and the conversation it left, so
 * rewinding to it undoes the rewind. The code part is journaled (restore-journal.ts) so a kill
 * leaves every file old or new and the next start finishes it.
 */
import { applyOps, removeLeftovers, type OpResult, type RestoreOp } from './apply-restore.js';
import { mapPool } from './baseline.js';
import type { ConversationState } from './conversation-snapshot.js';
import type { ProjectStore } from './project-store.js';
import { readJournal, removeJournal, writeJournal, writerAlive, type Journal } from './restore-journal.js';
import { itemsToApply, overwrites, type OverwriteChoice } from './restore-plan.js';
import type { SessionCheckpoints } from './session-checkpoints.js';
import { CheckpointLog } from './checkpoint-log.js';
import type { Checkpoint, PathState, PlannedRestore, RestorePlan } from './types.js';
import { ignoreError } from '../diagnostics/ignore-error.js';

export type RewindPart = 'code' | 'conversation' | 'both';

export interface RewindRequest {
  readonly id: number;
  readonly part: RewindPart;
  /** The separate confirmation: overwrite files changed outside lindwyrm since the checkpoint (all, or these paths). */
  readonly overwriteChanged: OverwriteChoice;
  /** The conversation as it stands: the rewind checkpoint keeps it, so the rewind can be undone (absent from `--rewind`). */
  readonly now?: ConversationState;
}

export interface RewindReport {
  /** The checkpoint that records this rewind. */
  readonly checkpoint: Checkpoint;
  readonly target: Checkpoint;
  readonly plan: RestorePlan;
  readonly results: readonly OpResult[];
  /** Changed outside lindwyrm since, and not overwritten (no confirmation given). */
  readonly keptChanged: readonly PlannedRestore[];
  readonly unrestorable: readonly PlannedRestore[];
  /** The conversation to put back (when asked for), the caller applies it. */
  readonly conversation?: ConversationState;
}

export class RewindError extends Error {
  constructor(
    message: string,
    readonly kind: 'unknown' | 'busy' | 'no-conversation',
  ) {
    super(message);
  }
}

function partLabel(part: RewindPart): string {
  return part === 'both' ? 'code and conversation' : part;
}

/** Applies ops and records the resulting states in the baseline; returns the changes made. */
async function applyRecorded(project: ProjectStore, ops: readonly RestoreOp[]): Promise<{ results: OpResult[]; changes: { path: string; before: PathState; after: PathState }[] }> {
  const results = await project.exclusive(() => applyOps(project.root, ops, project.blobs));
  // 'already' in a recovery is an op the killed process finished before it died.
  const applied = results.filter((r) => r.outcome === 'done' || r.outcome === 'already');
  const changes = await project.exclusive(() =>
    mapPool(applied, 16, async (r) => ({ path: r.op.path, before: r.op.from, after: await project.noteChanged(r.op.path).catch(() => r.op.to) })),
  );
  return { results, changes };
}

export async function rewindTo(session: SessionCheckpoints, req: RewindRequest): Promise<RewindReport> {
  const target = session.get(req.id);
  if (!target) {
    const ids = session.list().map((c) => c.id);
    const known = ids.length ? `checkpoints ${ids[0]}–${ids.at(-1)}` : 'no checkpoints yet';
    throw new RewindError(`No checkpoint ${req.id} in this session (${known}).`, 'unknown');
  }
  if (session.isOpen()) throw new RewindError('A turn is running; rewind when it has finished.', 'busy');
  const wantCode = req.part !== 'conversation';
  const wantConversation = req.part !== 'code';
  let conversation: ConversationState | undefined;
  if (wantConversation) {
    conversation = await session.conversationAt(req.id);
    if (!conversation) throw new RewindError(`Checkpoint ${req.id} has no conversation to go back to (it was made by a command between turns).`, 'no-conversation');
  }
  const plan: RestorePlan = wantCode ? ((await session.plan(req.id)) ?? { checkpoint: req.id, items: [] }) : { checkpoint: req.id, items: [] };
  const apply = itemsToApply(plan, req.overwriteChanged);
  const cp = await session.begin(`rewind to ${req.id}: ${partLabel(req.part)}`, req.now, 'rewind', req.id);
  let results: OpResult[] = [];
  if (apply.length > 0) {
    const ops: RestoreOp[] = apply.map((i) => ({ path: i.path, from: i.current, to: i.target }));
    const project = session.project;
    const journal: Journal = { version: 1, pid: process.pid, session: session.sessionId, checkpoint: cp.id, target: req.id, prompt: cp.prompt, at: cp.at, ops };
    await writeJournal(project.dir, journal);
    const applied = await applyRecorded(project, ops);
    results = applied.results;
    await session.recordRestore(cp, applied.changes);
    await session.end();
    await removeJournal(project.dir);
  } else {
    await session.end();
  }
  return {
    checkpoint: cp,
    target,
    plan,
    results,
    keptChanged: plan.items.filter((i) => i.changedOutside && !overwrites(req.overwriteChanged, i.path) && i.unrestorable === undefined),
    unrestorable: plan.items.filter((i) => i.unrestorable !== undefined),
    ...(conversation ? { conversation } : {}),
  };
}

export interface RecoveredRestore {
  readonly session: string;
  readonly checkpoint: number;
  readonly target: number;
  readonly results: readonly OpResult[];
}

/**
 * Finishes a restore a killed process left (its journal is still there and its writer is gone):
 * each path still as the plan saw it is restored, each already restored is left, each changed by
 * someone since is kept. The changes go into that session's log under the rewind checkpoint.
 */
export async function recoverRestore(project: ProjectStore): Promise<RecoveredRestore | undefined> {
  const journal = await readJournal(project.dir);
  if (!journal || writerAlive(journal)) return undefined;
  await removeLeftovers(project.root, journal.ops, journal.pid);
  const { results, changes } = await applyRecorded(project, journal.ops);
  const log = new CheckpointLog(project.sessionLogPath(journal.session));
  await log.changes(
    journal.checkpoint,
    changes.map((c) => ({ ...c, by: 'rewind' })),
  );
  await log.sync();
  await removeJournal(project.dir);
  await project.saveBaseline().catch(ignoreError('save the rewind baseline'));
  return { session: journal.session, checkpoint: journal.checkpoint, target: journal.target, results };
}
