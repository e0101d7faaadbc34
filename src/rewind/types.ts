/**
 * What the rewind store records: the state of one path (an Entry, or null for nothing there), the
 * change a checkpoint made to it, and the checkpoints themselves. Plain data, written to disk as
 * JSON lines, so a resumed session reads back exactly what the first one wrote.
 */

/** A path's state. Contents are named by their hash in the blob store; null means nothing there. */
export type Entry =
  | { readonly kind: 'file'; readonly hash: string; readonly mode: number; readonly size: number }
  | { readonly kind: 'link'; readonly target: string }
  | { readonly kind: 'dir'; readonly mode: number }
  /**
   * A file seen but whose contents are not kept (over the size cap, or past the store's budget for
   * the project): a change to it is detected and listed, but cannot be undone.
   */
  | { readonly kind: 'unkept'; readonly mode: number; readonly size: number; readonly stamp: string };

export type PathState = Entry | null;

/** A `.catch` for reading a path's state: one that cannot be read counts as nothing there. */
export function unreadable(): PathState {
  return null;
}

/**
 * What one checkpoint did to one path. `path` is project-relative with '/' separators, or absolute
 * (starting with '/') for a file outside the project a file tool was allowed to change.
 */
export interface Change {
  readonly path: string;
  /** The state before the first change of this checkpoint. */
  readonly before: PathState;
  /** The state after its last change. */
  readonly after: PathState;
  /** What changed it: 'write_file', 'bash', 'rewind' … */
  readonly by: string;
  /** Between two of its changes the path was changed by something else (an edit by hand mid-turn). */
  readonly outsideEdit?: boolean;
}

/** The conversation as it was when a checkpoint began, so it can be restored byte for byte. */
export interface ConversationRef {
  /** Blob hashes of the messages (JSON), in order. */
  readonly messages: readonly string[];
  /** Blob hash of the system prompt then in use. */
  readonly system: string;
  /** The code map text inside that prompt (a blob hash), when the code map was on. */
  readonly codeMap?: string;
  /** The session's turn count then. */
  readonly turns: number;
}

export type CheckpointKind = 'turn' | 'rewind';

export interface Checkpoint {
  /** 1, 2, 3 … within the session, never reused. */
  readonly id: number;
  readonly kind: CheckpointKind;
  /** ISO time it began. */
  readonly at: string;
  /** The user's prompt (a turn), or what the rewind did ('rewind to 3: code'). */
  readonly prompt: string;
  /** For a rewind: the checkpoint it went back to. */
  readonly target?: number;
  readonly conversation?: ConversationRef;
  /** By path, in the order first changed. */
  readonly changes: ReadonlyMap<string, Change>;
  /** What the scan could not cover during this checkpoint (a vendored folder that changed …). */
  readonly notes: readonly string[];
}

/** What restoring one checkpoint's code would do to one path. */
export interface PlannedRestore {
  readonly path: string;
  /** What is there now. */
  readonly current: PathState;
  /** What lindwyrm last left there (the latest checkpoint's after). */
  readonly expected: PathState;
  /** What the restore puts there. */
  readonly target: PathState;
  /** Changed by something other than lindwyrm since the checkpoint: needs its own confirmation. */
  readonly changedOutside: boolean;
  /** The target cannot be produced (its contents were never kept); why, in words. */
  readonly unrestorable?: string;
  /** Lines the restore adds and removes (text files), for the preview. */
  readonly added?: number;
  readonly removed?: number;
}

export interface RestorePlan {
  readonly checkpoint: number;
  readonly items: readonly PlannedRestore[];
}

/** Entries equal for restore purposes (an unkept file compares by its stamp). */
export function sameState(a: PathState, b: PathState): boolean {
  if (a === null || b === null) return a === b;
  if (a.kind !== b.kind) return false;
  switch (a.kind) {
    case 'file':
      return b.kind === 'file' && a.hash === b.hash && a.mode === b.mode;
    case 'link':
      return b.kind === 'link' && a.target === b.target;
    case 'dir':
      return b.kind === 'dir' && a.mode === b.mode;
    case 'unkept':
      return b.kind === 'unkept' && a.stamp === b.stamp && a.mode === b.mode;
    default: {
      const unknown: never = a;
      return unknown;
    }
  }
}

/** The same contents (mode aside): a chmod alone is a mode change, not an edit. */
export function sameContents(a: PathState, b: PathState): boolean {
  if (a?.kind === 'file' && b?.kind === 'file') return a.hash === b.hash;
  if (a?.kind === 'dir' && b?.kind === 'dir') return true;
  return sameState(a, b);
}
