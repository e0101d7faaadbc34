/**
 * What restoring checkpoint N's code means, path by path: every path a checkpoint from N on
 * changed goes back to what it was before the first of them (its `before` in the earliest), and
 * what lindwyrm last left there is the `after` of the latest. A path is "changed outside" when the
 * disk no longer holds that `after`, or when the chain has a gap (one checkpoint's after is not the
 * next one's before: someone edited it between turns). Such a path is not overwritten unless the
 * user confirms it separately.
 */
import { mapPool } from './baseline.js';
import type { Checkpoint, PathState, PlannedRestore, RestorePlan } from './types.js';
import { sameState } from './types.js';

interface Chain {
  target: PathState;
  expected: PathState;
  gap: boolean;
}

/** Net changes of checkpoints id ≥ from, per path, in first-touched order. */
export function chainsFrom(checkpoints: readonly Checkpoint[], from: number): Map<string, Chain> {
  const chains = new Map<string, Chain>();
  for (const cp of checkpoints) {
    if (cp.id < from) continue;
    for (const change of cp.changes.values()) {
      const chain = chains.get(change.path);
      if (!chain) {
        chains.set(change.path, { target: change.before, expected: change.after, gap: change.outsideEdit === true });
        continue;
      }
      if (!sameState(chain.expected, change.before) || change.outsideEdit === true) chain.gap = true;
      chain.expected = change.after;
    }
  }
  return chains;
}

export interface PlanInputs {
  readonly checkpoints: readonly Checkpoint[];
  readonly id: number;
  /** The path's state on disk now (contents stored, so the restore can itself be undone). */
  readonly current: (path: string) => Promise<PathState>;
  /** Whether a blob is in the store. */
  readonly hasBlob: (hash: string) => boolean;
}

function whyUnrestorable(target: PathState, hasBlob: (hash: string) => boolean): string | undefined {
  if (target?.kind === 'unkept') return 'its earlier contents were not kept (over the size cap or the store budget)';
  if (target?.kind === 'file' && !hasBlob(target.hash)) return 'its earlier contents are missing from the store';
  return undefined;
}

export async function planRestore(inputs: PlanInputs): Promise<RestorePlan> {
  const items: PlannedRestore[] = [];
  const chains = [...chainsFrom(inputs.checkpoints, inputs.id)];
  // Reading what is there now is most of a plan's time: many paths at once.
  const currents = await mapPool(chains, 16, ([path]) => inputs.current(path));
  for (const [i, [path, chain]] of chains.entries()) {
    const current = currents[i] ?? null;
    if (sameState(current, chain.target)) continue;
    const unrestorable = whyUnrestorable(chain.target, inputs.hasBlob);
    items.push({
      path,
      current,
      expected: chain.expected,
      target: chain.target,
      changedOutside: chain.gap || !sameState(current, chain.expected),
      ...(unrestorable ? { unrestorable } : {}),
    });
  }
  // Parents before children, so a preview reads like the tree.
  items.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { checkpoint: inputs.id, items };
}

/**
 * Which files changed outside lindwyrm the user confirmed overwriting: all of them (true), none
 * (false), or the ones named (the picker asks file by file).
 */
export type OverwriteChoice = boolean | readonly string[];

export function overwrites(choice: OverwriteChoice, path: string): boolean {
  return typeof choice === 'boolean' ? choice : choice.includes(path);
}

/** The items a restore applies: never the unrestorable, and the changed-outside ones only when confirmed. */
export function itemsToApply(plan: RestorePlan, overwriteChanged: OverwriteChoice): PlannedRestore[] {
  return plan.items.filter((i) => i.unrestorable === undefined && (!i.changedOutside || overwrites(overwriteChanged, i.path)));
}
